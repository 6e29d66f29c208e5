import { describe, expect, it } from 'vitest';
import { KeyGate } from './key-gate';

const RIGHT = 'the-right-key';
const keys = { accepts: (key: string) => key === RIGHT };

describe('KeyGate', () => {
  it('always accepts the right key, however many failures its address had', () => {
    const gate = new KeyGate(keys, () => 0);
    for (let i = 0; i < 100; i += 1) gate.check(`wrong-${i}`, undefined, '127.0.0.1');
    expect(gate.check(`wrong-x`, undefined, '127.0.0.1')).toBe('throttled');
    expect(gate.check(RIGHT, undefined, '127.0.0.1')).toBe('accepted');
  });

  it('throttles failures per address after 20, then lets them through again as the bucket refills', () => {
    let now = 0;
    const gate = new KeyGate(keys, () => now);
    const verdicts = Array.from({ length: 21 }, (_, i) => gate.check(`wrong-${i}`, undefined, '127.0.0.2'));
    expect(verdicts.slice(0, 20).every((v) => v === 'refused')).toBe(true);
    expect(verdicts[20]).toBe('throttled');
    expect(gate.check(undefined, undefined, '127.0.0.2')).toBe('throttled');
    expect(gate.check('wrong-y', undefined, '127.0.0.3')).toBe('refused');
    now = 1000;
    expect(gate.check('wrong-z', undefined, '127.0.0.2')).toBe('refused');
  });

  it('throttles one wrong key per key, from whichever address it comes', () => {
    const gate = new KeyGate(keys, () => 0);
    for (let i = 0; i < 20; i += 1)
      expect(gate.check('same-wrong', undefined, `127.0.1.${i}`)).toBe('refused');
    expect(gate.check('same-wrong', undefined, '127.0.2.1')).toBe('throttled');
    expect(gate.check('other-wrong', undefined, '127.0.2.1')).toBe('refused');
    expect(gate.check(RIGHT, undefined, '127.0.2.1')).toBe('accepted');
  });
});
