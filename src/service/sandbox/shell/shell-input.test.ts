import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandInput, controlKey, shellQuote } from './shell-input';

describe('commandInput', () => {
  it('writes the script unchanged to <id>.sh and sources it as one unit', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dockhand-input-'));
    const script = 'printf \'a\\tb\\n\'\nif true; then\n\techo "x y"\nfi\necho $((1 + 2))';
    const { text } = commandInput('id1', script, dir);
    const output = execFileSync('bash', ['--norc'], { input: text }).toString();
    expect(readFileSync(join(dir, 'id1.sh'), 'utf8')).toBe(`${script}\n`);
    expect(output).toBe('a\tb\nx y\n3\n');
  });

  it('has no tab and no control character that readline would act on', () => {
    const { text } = commandInput('id2', 'a\tb\x01', '/tmp');
    expect([...text].filter((char) => char < ' ' && char !== '\n')).toEqual([]);
  });
});

describe('controlKey', () => {
  it('maps the four keys (any letter case) and nothing else', () => {
    expect(controlKey('C-c')).toEqual({ bytes: '\x03', name: 'CTRL+C' });
    expect(controlKey('c-D')).toEqual({ bytes: '\x04', name: 'CTRL+D' });
    expect(controlKey('C-z')?.bytes).toBe('\x1a');
    expect(controlKey('C-\\')?.name).toBe('CTRL+\\');
    expect(controlKey('C-x')).toBeNull();
    expect(controlKey('echo C-c')).toBeNull();
  });
});

describe('shellQuote', () => {
  it('quotes for sh', () => {
    expect(execFileSync('sh', ['-c', `printf %s ${shellQuote("it's $HOME")}`]).toString()).toBe("it's $HOME");
  });
});
