import { copyFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDataDir } from '../../../test/support/service';
import { AgentStateStore } from '../agent/agent-state-store';
import { EditHistory } from '../agent/tools/str-replace-editor/edit-history';
import { ConversationStore } from '../conversations/conversation-store';
import { EventLog } from '../events/event-log';
import { SecretMasker } from '../events/secret-masker';
import { SandboxStore } from '../sandbox/sandbox-store';
import { DATABASE_FILE, openDatabase, type Db } from './database';
import { MIGRATIONS } from './migrations';

/** A data file written by the service when it still used better-sqlite3 (WAL, migrations 1–7, some rows). */
const BETTER_SQLITE3_FILE = path.join(import.meta.dirname, 'fixtures', 'better-sqlite3-v7.db');
const LATEST = Math.max(...MIGRATIONS.map((m) => m.version));

function pragma(db: Db, name: string): unknown {
  return Object.values(db.prepare(`PRAGMA ${name}`).get() as Record<string, unknown>)[0];
}

describe('openDatabase', () => {
  let dir: string;
  let db: Db | undefined;

  beforeEach(() => {
    dir = tempDataDir();
  });

  afterEach(() => {
    db?.close();
    db = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates the file with every migration, WAL, NORMAL sync, foreign keys, a busy timeout and reads mapped', () => {
    db = openDatabase(dir);
    expect(db.file).toBe(path.join(dir, DATABASE_FILE));
    expect(pragma(db, 'user_version')).toBe(LATEST);
    expect(pragma(db, 'journal_mode')).toBe('wal');
    expect(pragma(db, 'synchronous')).toBe(1);
    expect(pragma(db, 'foreign_keys')).toBe(1);
    expect(pragma(db, 'busy_timeout')).toBe(5000);
    expect(pragma(db, 'mmap_size')).toBe(256 * 1024 * 1024);
    db.close();
    db = openDatabase(dir);
    expect(pragma(db, 'user_version')).toBe(LATEST);
  });

  it('opens a data file better-sqlite3 wrote and reads and writes its rows through the stores', () => {
    copyFileSync(BETTER_SQLITE3_FILE, path.join(dir, DATABASE_FILE));
    db = openDatabase(dir);
    expect(pragma(db, 'user_version')).toBe(LATEST); // written at 7: any later migration applies on top
    expect(pragma(db, 'integrity_check')).toBe('ok');

    const conversation = new ConversationStore(db).get('c0ffee');
    expect(conversation).toMatchObject({
      title: 'Made by better-sqlite3',
      titleIsCustom: true,
      sandboxId: 'sbx-1',
    });
    expect(new SandboxStore(db).get('sbx-1')).toMatchObject({ provider: 'process', status: 'PAUSED' });
    expect(db.prepare('SELECT data FROM settings WHERE id = 1').get()).toEqual({
      data: JSON.stringify({ llm_model: 'openai/gpt-4o', language: 'en' }),
    });
    expect(new AgentStateStore(db).load('c0ffee')).toMatchObject({
      recalled: true,
      workingDir: '/workspace',
    });
    const previous = new EditHistory(db, 'c0ffee').pop('/workspace/a.bin')?.previous;
    expect(Buffer.isBuffer(previous)).toBe(true);
    expect(previous).toEqual(Buffer.from([0, 1, 2, 255, 254, 10]));

    const log = new EventLog(db);
    expect(log.after('c0ffee', -1).map((e) => [e.id, e.source, e.message])).toEqual([
      [0, 'user', 'Hello'],
      [1, 'agent', 'Hi there'],
    ]);
    log.append('c0ffee', { source: 'user', message: 'Still here', action: 'message' }, new SecretMasker([]));
    db.close();
    db = openDatabase(dir);
    expect(new EventLog(db).get('c0ffee', 2)?.message).toBe('Still here');
  });
});

describe('Db.transaction', () => {
  let dir: string;
  let db: Db;

  beforeEach(() => {
    dir = tempDataDir();
    db = openDatabase(dir);
  });

  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const names = () =>
    (db.prepare('SELECT name FROM custom_secrets ORDER BY name').all() as { name: string }[]).map(
      (r) => r.name,
    );
  const insert = (name: string) =>
    db.prepare("INSERT INTO custom_secrets (name, created_at) VALUES (?, 'now')").run(name);

  it('commits what the function wrote and returns its result', () => {
    expect(db.transaction((name: string) => (insert(name), 'done'))('A')).toBe('done');
    expect(names()).toEqual(['A']);
  });

  it('rolls everything back when the function throws, and rethrows', () => {
    const failing = db.transaction(() => {
      insert('A');
      throw new Error('boom');
    });
    expect(failing).toThrow('boom');
    expect(names()).toEqual([]);
    insert('B');
    expect(names()).toEqual(['B']);
  });

  it('rolls back only the inner writes when a nested transaction throws', () => {
    db.transaction(() => {
      insert('outer');
      expect(
        db.transaction(() => {
          insert('inner');
          throw new Error('inner failed');
        }),
      ).toThrow('inner failed');
    })();
    expect(names()).toEqual(['outer']);
  });

  it('rolls back when SQLite rejects a write (a constraint)', () => {
    insert('A');
    expect(
      db.transaction(() => {
        insert('B');
        insert('A');
      }),
    ).toThrow(/UNIQUE constraint failed/);
    expect(names()).toEqual(['A']);
  });
});
