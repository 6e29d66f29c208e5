import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invalidJsonOffset } from './json-error-offset';

describe('invalidJsonOffset', () => {
  it('names the first character that cannot continue a JSON text', () => {
    const cases: [string, number | null][] = [
      ['{"a": [1, 2, {"b": null}], "c": "\\u00e9\\n"}', null],
      [' -0.5e+10 ', null],
      ['{"a": x}', 6],
      ['{"a": 1,}', 8],
      ['[1 2]', 3],
      ['{"a" 1}', 5],
      ['{a: 1}', 1],
      ['[tru]', 4],
      ['"bad \\x escape"', 6],
      ['"\\u12g4"', 3],
      ['"line\nbreak"', 5],
      ['01', 1],
      ['1.', 2],
      ['1.e3', 2],
      ['-', 1],
      ['[1] [2]', 4],
      ['{"a": [1, 2', 11],
      ['', 0],
      ['   ', 3],
    ];
    for (const [text, offset] of cases) expect([text, invalidJsonOffset(text)]).toEqual([text, offset]);
  });

  it('agrees with JSON.parse on what is valid, and every prefix before the offset is a valid start', () => {
    const texts = fc.oneof(
      fc.json(),
      fc.tuple(fc.json(), fc.nat(), fc.string({ maxLength: 3 })).map(([json, at, junk]) => {
        const cut = at % (json.length + 1);
        return json.slice(0, cut) + junk + json.slice(cut);
      }),
    );
    fc.assert(
      fc.property(texts, (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        const offset = invalidJsonOffset(text);
        expect(offset === null).toBe(valid);
        if (offset !== null) {
          expect(offset).toBeLessThanOrEqual(text.length);
          // Nothing before the offset is wrong: the text up to it is valid or merely cut short.
          expect([null, offset]).toContain(invalidJsonOffset(text.slice(0, offset)));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a deep text without recursion', () => {
    const deep = '['.repeat(200_000);
    expect(invalidJsonOffset(deep)).toBe(200_000);
    expect(invalidJsonOffset(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toBeNull();
  });
});
