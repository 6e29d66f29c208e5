import { describe, expect, it } from 'vitest';
import { cleanTerminalText, cutMiddle } from './terminal-text';

describe('cleanTerminalText', () => {
  it('strips CSI colour and cursor sequences', () => {
    expect(cleanTerminalText('\x1b[31mred\x1b[0m \x1b[2K\x1b[1Gdone')).toBe('red done');
  });

  it('strips OSC sequences ended by BEL or ST', () => {
    expect(cleanTerminalText('\x1b]0;title\x07a\x1b]8;;http://x\x1b\\b')).toBe('ab');
  });

  it('turns CRLF (and the CR CR LF of a TTY) into LF', () => {
    expect(cleanTerminalText('one\r\ntwo\r\r\nthree')).toBe('one\ntwo\nthree');
  });

  it('keeps only the last carriage-return segment of a line', () => {
    expect(cleanTerminalText('10%\r50%\r100%\ndone')).toBe('100%\ndone');
    expect(cleanTerminalText('progress\r')).toBe('progress');
  });

  it('drops other control characters but keeps tabs', () => {
    expect(cleanTerminalText('a\tb\x07\x08c\x00\x9bd')).toBe('a\tbcd');
  });

  it('survives a stray escape and invalid bytes', () => {
    const text = cleanTerminalText(`x\x1b]unterminated\x1by\uFFFD`);
    expect(text.includes('\x1b')).toBe(false);
    expect(text.endsWith('\uFFFD')).toBe(true);
  });
});

describe('cutMiddle', () => {
  it('keeps the first and last halves around the note', () => {
    expect(cutMiddle('abcdefghij', 4, '|')).toBe('ab|ij');
  });
});
