import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { bashrc, findPromptMarker, heldMarkerStart } from './prompt-marker';

const metadata = {
  pid: 12,
  exit_code: 3,
  username: 'dockhand',
  hostname: 'box',
  working_dir: '/tmp/a "b"',
  py_interpreter_path: '/usr/bin/python3',
};
const marker = `\r\r\n###PS1JSON###\r\r\n${JSON.stringify(metadata)}\r\r\n###PS1END###\r\r\n`;

describe('findPromptMarker', () => {
  it('finds the marker and where the output before it ends', () => {
    const text = `hello\r\n${marker}`;
    const found = findPromptMarker(text, 0);
    expect(found).toMatchObject({ outputEnd: 'hello\r\n'.length, metadata });
  });

  it('skips text that only looks like a marker', () => {
    const fake = '###PS1JSON###\n{"pid": \'$$\'}\n###PS1END###\n';
    const found = findPromptMarker(`${fake}out${marker}`, 0);
    expect(found).toMatchObject({ outputEnd: `${fake}out`.length, metadata });
  });

  it('asks to resume at a marker whose end has not arrived', () => {
    const text = `out\r\n###PS1JSON###\r\n{"pid"`;
    expect(findPromptMarker(text, 0)).toEqual({ resumeAt: text.indexOf('###') });
  });
});

describe('heldMarkerStart', () => {
  it('holds back a partial marker and a line that may become one', () => {
    expect(heldMarkerStart('out\n###PS1JSON###\n{"pid": 1')).toBe(4);
    expect(heldMarkerStart('out\n###PS1')).toBe(4);
    expect(heldMarkerStart('out\nmore')).toBe(8);
  });
});

describe('bashrc', () => {
  it('is valid bash', () => {
    expect(() => execFileSync('bash', ['-n'], { input: bashrc() })).not.toThrow();
  });
});
