import { describe, expect, it } from 'vitest';
import { KeyedQueue } from './keyed-queue';

describe('KeyedQueue', () => {
  it('runs tasks of one key in order and keys independently; a failure does not block the next task', async () => {
    const queue = new KeyedQueue();
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = queue.run('a', async () => {
      await gate;
      order.push('a1');
      throw new Error('boom');
    });
    const second = queue.run('a', async () => order.push('a2'));
    await queue.run('b', async () => order.push('b1'));
    release();
    await expect(first).rejects.toThrow('boom');
    await second;
    expect(order).toEqual(['b1', 'a1', 'a2']);
    await queue.settled('a');
  });
});
