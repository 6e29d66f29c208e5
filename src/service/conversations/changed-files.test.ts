import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ChangedFiles } from './changed-files';
import type { ConversationWorkspace } from './workspace-access';

/** An `open` whose calls wait until the test settles them (each refused: the count must not change). */
function heldOpens() {
  const pending: (() => void)[] = [];
  let calls = 0;
  const open = (): Promise<ConversationWorkspace> => {
    calls++;
    return new Promise((_, reject) => pending.push(() => reject(new Error('not running'))));
  };
  const settleOne = async () => {
    pending.shift()?.();
    // Let the refusal and the follow-up refresh run.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { open, settleOne, calls: () => calls, waiting: () => pending.length };
}

describe('ChangedFiles', () => {
  it('runs one listing per conversation at a time, and once more for the asks made meanwhile', async () => {
    const opens = heldOpens();
    const counts = new ChangedFiles(opens.open, pino({ level: 'silent' }));
    counts.refresh('a');
    counts.refresh('a');
    counts.refresh('a');
    counts.refresh('b');
    expect(opens.calls()).toBe(2);
    await opens.settleOne();
    await opens.settleOne();
    expect(opens.calls()).toBe(3);
    await opens.settleOne();
    expect(opens.calls()).toBe(3);
    expect(opens.waiting()).toBe(0);
  });

  it('keeps the last count when a listing fails, and forgets it with the conversation', async () => {
    const opens = heldOpens();
    const counts = new ChangedFiles(opens.open, pino({ level: 'silent' }));
    expect(counts.count('a')).toBeNull();
    counts.seen('a', [
      { status: 'M', path: 'x' },
      { status: 'A', path: 'y' },
    ]);
    counts.refresh('a');
    await opens.settleOne();
    expect(counts.count('a')).toBe(2);
    counts.forget('a');
    expect(counts.count('a')).toBeNull();
  });
});
