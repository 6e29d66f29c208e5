import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LogFile } from './log-file';

describe('LogFile', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('appends lines', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'dockhand-log-'));
    const file = new LogFile(path.join(dir, 'x.log'));
    file.write('one\n');
    file.write('two\n');
    file.close();
    expect(readFileSync(path.join(dir, 'x.log'), 'utf8')).toBe('one\ntwo\n');
  });

  it('drops lines on a full disk without throwing, and says so on stderr once', () => {
    const notes: string[] = [];
    const file = new LogFile('/dev/full', (text) => notes.push(text));
    expect(() => {
      file.write('lost\n');
      file.write('lost too\n');
    }).not.toThrow();
    file.close();
    expect(notes).toEqual(['Dockhand: 1 log line(s) not written to /dev/full (ENOSPC)\n']);
  });
});
