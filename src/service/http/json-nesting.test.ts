import { describe, expect, it } from 'vitest';
import { excessNestingOffset } from './json-nesting';

describe('excessNestingOffset', () => {
  it('accepts nesting up to the limit', () => {
    expect(excessNestingOffset('[[{"a":[1]}]]', 4)).toBeNull();
    expect(excessNestingOffset('{"a":1}', 1)).toBeNull();
  });

  it('names the bracket that goes one level too deep', () => {
    expect(excessNestingOffset('[[[[]]]]', 3)).toBe(3);
    expect(excessNestingOffset('{"a":{"b":[]}}', 2)).toBe(10);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(excessNestingOffset('["[[[[", "\\"[[[["]', 1)).toBeNull();
    expect(excessNestingOffset('{"\\\\":[[]]}', 2)).toBe(7);
  });
});
