import { describe, expect, it } from 'vitest';
import { commandInput } from './shell-input';
import { TerminalBuffer } from './terminal-buffer';

const prompt = (exitCode: number) =>
  `\r\r\n###PS1JSON###\r\r\n{"pid": 7, "exit_code": ${exitCode}, "username": "u", "hostname": "h", "working_dir": "/w", "py_interpreter_path": ""}\r\r\n###PS1END###\r\r\n`;

describe('TerminalBuffer', () => {
  it('drops the echo of the typed command and ends at the marker', () => {
    const input = commandInput('abc', 'echo hi', '/tmp/cmd');
    const buffer = new TerminalBuffer(1000);
    buffer.reset(input.echoEnd);
    const terminal = input.text.replace(/\n/g, '\r\n') + 'hi\r\n' + prompt(0) + 'ignored';
    for (const chunk of terminal.match(/[\s\S]{1,5}/g) ?? []) buffer.append(chunk);
    expect(buffer.marker?.exit_code).toBe(0);
    expect(buffer.take()).toBe('hi\r\n');
  });

  it('shows output in pieces and never a half-arrived marker', () => {
    const buffer = new TerminalBuffer(1000);
    buffer.reset(null);
    buffer.append('line 1\r\n\r\r\n###PS1');
    expect(buffer.take()).toBe('line 1\r\n\r\r\n');
    buffer.append('JSON###\r\r\n{"pid": 7');
    expect(buffer.take()).toBe('');
    buffer.append(prompt(2).slice(prompt(2).indexOf(', "exit_code"')));
    expect(buffer.marker?.exit_code).toBe(2);
  });

  it('drops the middle of unread output past twice its limit and still finds the marker', () => {
    const buffer = new TerminalBuffer(100);
    buffer.reset(null);
    buffer.append('H'.repeat(150));
    buffer.append('T'.repeat(150));
    buffer.append(prompt(0));
    const output = buffer.take();
    expect(buffer.marker?.exit_code).toBe(0);
    expect(output.startsWith('H'.repeat(50))).toBe(true);
    expect(output).toMatch(/\[\.\.\. \d+ characters of output were dropped here \.\.\.\]/);
    expect(output.length).toBeLessThan(300);
  });
});
