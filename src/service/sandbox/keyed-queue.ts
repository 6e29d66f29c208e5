/** Runs tasks one at a time per key (a sandbox id), in the order they were queued. */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Resolves once every task queued so far for `key` has finished. */
  async settled(key: string): Promise<void> {
    await this.tails.get(key);
  }

  /** Resolves once every task queued so far has finished. */
  async allSettled(): Promise<void> {
    await Promise.all(this.tails.values());
  }
}
