interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * Token buckets by key: each holds up to `burst` tokens and refills at `perSecond`. With `maxKeys`, the
 * least recently used bucket is dropped when a new key would exceed it.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    private readonly now: () => number,
    private readonly maxKeys = Infinity,
  ) {}

  /** Takes one token for `key`; false when its bucket is empty. */
  take(key: string): boolean {
    const time = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, updatedAt: time };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((time - bucket.updatedAt) / 1000) * this.perSecond);
    bucket.updatedAt = time;
    // Re-inserted, so the Map's order is least recently used first.
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value as string);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}
