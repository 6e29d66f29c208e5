import { describe, expect, it } from 'vitest';
import { isSafeHref, parseInline, parseMarkdown } from './parse-markdown';

describe('parseMarkdown', () => {
  it('splits paragraphs, keeps line breaks and reads headings', () => {
    expect(parseMarkdown('# Plan\nfirst line\nsecond line\n\nnext')).toEqual([
      { kind: 'heading', children: [{ kind: 'text', text: 'Plan' }] },
      {
        kind: 'paragraph',
        children: [
          { kind: 'text', text: 'first line' },
          { kind: 'break' },
          { kind: 'text', text: 'second line' },
        ],
      },
      { kind: 'paragraph', children: [{ kind: 'text', text: 'next' }] },
    ]);
  });

  it('keeps fenced code verbatim, with its language, and reads nothing inside it', () => {
    expect(parseMarkdown('Run:\n```bash\necho **not bold** <b>\n\n  indented\n```\ndone')).toEqual([
      { kind: 'paragraph', children: [{ kind: 'text', text: 'Run:' }] },
      { kind: 'code', language: 'bash', text: 'echo **not bold** <b>\n\n  indented' },
      { kind: 'paragraph', children: [{ kind: 'text', text: 'done' }] },
    ]);
  });

  it('takes an unclosed fence to the end of the text', () => {
    expect(parseMarkdown('~~~\nstill code')).toEqual([{ kind: 'code', language: null, text: 'still code' }]);
  });

  it('reads bulleted and numbered lists, with continuation lines', () => {
    expect(parseMarkdown('- one\n  more of one\n* two\n\n3. three\n4) four')).toEqual([
      {
        kind: 'list',
        ordered: false,
        start: 1,
        items: [
          [{ kind: 'text', text: 'one' }, { kind: 'break' }, { kind: 'text', text: 'more of one' }],
          [{ kind: 'text', text: 'two' }],
        ],
      },
      {
        kind: 'list',
        ordered: true,
        start: 3,
        items: [[{ kind: 'text', text: 'three' }], [{ kind: 'text', text: 'four' }]],
      },
    ]);
  });
});

describe('parseInline', () => {
  it('reads code, bold and http(s) links', () => {
    expect(parseInline('Run `npm test` **now**, see [docs](https://example.com/a?b=1).')).toEqual([
      { kind: 'text', text: 'Run ' },
      { kind: 'code', text: 'npm test' },
      { kind: 'text', text: ' ' },
      { kind: 'strong', children: [{ kind: 'text', text: 'now' }] },
      { kind: 'text', text: ', see ' },
      { kind: 'link', href: 'https://example.com/a?b=1', text: 'docs' },
      { kind: 'text', text: '.' },
    ]);
  });

  it('links bare addresses without the punctuation after them', () => {
    expect(parseInline('Open http://localhost:3000/x. Then')).toEqual([
      { kind: 'text', text: 'Open ' },
      { kind: 'link', href: 'http://localhost:3000/x', text: 'http://localhost:3000/x' },
      { kind: 'text', text: '. Then' },
    ]);
  });

  it('leaves links to other schemes, and markup, as plain text', () => {
    expect(
      parseInline('[x](javascript:alert(1)) <img src=x onerror=alert(1)> [f](file:///etc/passwd)'),
    ).toEqual([
      { kind: 'text', text: '[x](javascript:alert(1)) <img src=x onerror=alert(1)> [f](file:///etc/passwd)' },
    ]);
  });
});

describe('isSafeHref', () => {
  it('allows only absolute http and https addresses', () => {
    expect(isSafeHref('https://example.com')).toBe(true);
    expect(isSafeHref('http://127.0.0.1:8080/x')).toBe(true);
    expect(isSafeHref('javascript:alert(1)')).toBe(false);
    expect(isSafeHref('data:text/html,hi')).toBe(false);
    expect(isSafeHref('/relative')).toBe(false);
  });
});
