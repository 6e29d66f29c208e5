import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tempDataDir } from '../../../test/support/service';
import { openDatabase } from './database';
import { isDiskFull } from './disk-full';

/** The error SQLite raises once the file may grow no more (`max_page_count` stands in for a full disk). */
function sqliteFullError(): unknown {
  const dir = tempDataDir();
  const db = openDatabase(dir);
  try {
    const pages = Object.values(db.prepare('PRAGMA page_count').get() as Record<string, number>)[0] as number;
    db.exec(`PRAGMA max_page_count = ${pages + 1}`);
    const insert = db.prepare(
      'INSERT INTO events (conversation_id, id, timestamp, data) VALUES (?, ?, ?, ?)',
    );
    for (let id = 0; ; id++) insert.run('c1', id, 'now', 'x'.repeat(4096));
  } catch (error) {
    return error;
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('isDiskFull', () => {
  it("recognises SQLite's SQLITE_FULL error", () => {
    const error = sqliteFullError();
    expect(error).toMatchObject({ code: 'ERR_SQLITE_ERROR', errstr: 'database or disk is full' });
    expect(isDiskFull(error)).toBe(true);
  });

  it('recognises the file-system codes for no space and no quota', () => {
    expect(isDiskFull(Object.assign(new Error('no space'), { code: 'ENOSPC' }))).toBe(true);
    expect(isDiskFull(Object.assign(new Error('quota'), { code: 'EDQUOT' }))).toBe(true);
  });

  it('tells other errors apart, SQLite ones included', () => {
    const dir = tempDataDir();
    const db = openDatabase(dir);
    let constraint: unknown;
    try {
      db.exec("INSERT INTO service_meta (key, value) VALUES ('instance_id', 'again')");
    } catch (error) {
      constraint = error;
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
    expect(constraint).toMatchObject({ code: 'ERR_SQLITE_ERROR' });
    expect(isDiskFull(constraint)).toBe(false);
    expect(isDiskFull(Object.assign(new Error('gone'), { code: 'ENOENT' }))).toBe(false);
    expect(isDiskFull(null)).toBe(false);
    expect(isDiskFull('disk full')).toBe(false);
  });
});
