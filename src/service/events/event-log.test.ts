import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDataDir } from '../../../test/support/service';
import { openDatabase, type Db } from '../storage/database';
import { EventLog } from './event-log';
import { SecretMasker } from './secret-masker';

describe('EventLog', () => {
  let dir: string;
  let db: Db;
  let log: EventLog;
  const masker = new SecretMasker(['s3cr3t-v4lue']);

  beforeEach(() => {
    dir = tempDataDir();
    db = openDatabase(dir);
    log = new EventLog(db, () => new Date('2025-11-28T16:16:34.123Z'));
  });

  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('numbers events from 0 per conversation, stamps them in UTC and omits null keys', () => {
    const first = log.append(
      'c1',
      { source: 'user', message: 'hi', action: 'message', cause: undefined },
      masker,
    );
    const other = log.append('c2', { source: 'user', message: 'x', action: 'message' }, masker);
    const second = log.append(
      'c1',
      { source: 'agent', message: 'ok', observation: 'think', content: '' },
      masker,
    );
    expect([first.id, second.id, other.id]).toEqual([0, 1, 0]);
    expect(first).toEqual({
      id: 0,
      timestamp: '2025-11-28T16:16:34.123Z',
      source: 'user',
      message: 'hi',
      action: 'message',
    });
  });

  it('masks secrets before storing and publishing', () => {
    const heard: unknown[] = [];
    log.subscribe('c1', (e) => heard.push(e));
    log.append(
      'c1',
      { source: 'user', message: 'echo s3cr3t-v4lue', args: { command: 's3cr3t-v4lue' } },
      masker,
    );
    const raw = db.prepare('SELECT data FROM events').get() as { data: string };
    expect(raw.data).not.toContain('s3cr3t-v4lue');
    expect(JSON.stringify(heard)).not.toContain('s3cr3t-v4lue');
    expect(log.get('c1', 0)?.message).toBe('echo <secret_hidden>');
  });

  it('pages forwards and backwards with has_more, and continues ids after a reopen', () => {
    for (let i = 0; i < 5; i++) log.append('c1', { source: 'agent', message: `m${i}` }, masker);
    expect(log.page('c1', { startId: 1, reverse: false, limit: 2 })).toMatchObject({
      events: [{ id: 1 }, { id: 2 }],
      hasMore: true,
    });
    expect(
      log.page('c1', { startId: 0, endId: 3, reverse: true, limit: 10 }).events.map((e) => e.id),
    ).toEqual([3, 2, 1, 0]);
    expect(log.after('c1', 3).map((e) => e.id)).toEqual([4]);
    const reopened = new EventLog(db);
    expect(reopened.append('c1', { source: 'user', message: 'again' }, masker).id).toBe(5);
  });
});
