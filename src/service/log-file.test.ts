import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
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
    expect(notes).toEqual(['Dockhand: 2 log line(s) not written to /dev/full (ENOSPC)\n']);
  });

  it('rotates by size, keeping a fixed number of older files, so the logs never grow without end', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'dockhand-log-'));
    const file = path.join(dir, 'dockhand.log');
    const log = new LogFile(file, () => undefined, { maxBytes: 100, keep: 2 });
    const line = (n: number) => `${String(n).padStart(3, '0')} ${'x'.repeat(45)}\n`; // 50 bytes
    for (let n = 0; n < 1000; n++) log.write(line(n));
    log.close();
    expect(readdirSync(dir).sort()).toEqual(['dockhand.log', 'dockhand.log.1', 'dockhand.log.2']);
    expect(readFileSync(file, 'utf8')).toBe(line(998) + line(999));
    expect(readFileSync(`${file}.1`, 'utf8')).toBe(line(996) + line(997));
    expect(readFileSync(`${file}.2`, 'utf8')).toBe(line(994) + line(995));
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('counts what the file already holds when it is opened again', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'dockhand-log-'));
    const file = path.join(dir, 'dockhand.log');
    const first = new LogFile(file, () => undefined, { maxBytes: 10, keep: 1 });
    first.write('12345678\n');
    first.close();
    const second = new LogFile(file, () => undefined, { maxBytes: 10, keep: 1 });
    second.write('abc\n');
    second.close();
    expect(readFileSync(`${file}.1`, 'utf8')).toBe('12345678\n');
    expect(readFileSync(file, 'utf8')).toBe('abc\n');
  });
});
