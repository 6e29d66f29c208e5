import { createHash } from 'node:crypto';
import type { KeyChecker } from './key-checker';
import { TokenBuckets } from './token-buckets';

export type KeyVerdict = 'accepted' | 'refused' | 'throttled';

/** Failed attempts allowed at once per address and per presented key, and how fast that allowance returns. */
const FAILURE_BURST = 20;
const FAILURES_PER_SECOND = 2;
/** Buckets kept (least recently used dropped first), so sprayed keys cannot grow memory without bound. */
const MAX_TRACKED = 10_000;

/**
 * The key check shared by HTTP and socket.io. A valid key is always accepted, whatever came before it from
 * the same address; a failure costs a token from the bucket of its address and of the key it presented,
 * and once either is empty further failures are `throttled` (429) instead of `refused` (401).
 */
export class KeyGate {
  private readonly byAddress: TokenBuckets;
  private readonly byKey: TokenBuckets;

  constructor(
    private readonly keys: KeyChecker,
    now: () => number = Date.now,
  ) {
    this.byAddress = new TokenBuckets(FAILURE_BURST, FAILURES_PER_SECOND, now, MAX_TRACKED);
    this.byKey = new TokenBuckets(FAILURE_BURST, FAILURES_PER_SECOND, now, MAX_TRACKED);
  }

  check(key: string | undefined, conversationId: string | undefined, address: string): KeyVerdict {
    if (key !== undefined && this.keys.accepts(key, conversationId)) return 'accepted';
    const addressHasRoom = this.byAddress.take(address);
    // No (or an empty) key counts against the address only; a digest, so a long key costs no more memory.
    const keyHasRoom = !key || this.byKey.take(createHash('sha256').update(key).digest('base64'));
    return addressHasRoom && keyHasRoom ? 'refused' : 'throttled';
  }
}
