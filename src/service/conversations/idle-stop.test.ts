import { describe, expect, it } from 'vitest';
import { conversationIdleSecondsFromEnv, IdleStop } from './idle-stop';

describe('IdleStop', () => {
  function setup(idle: Set<string>) {
    let time = 0;
    const running = new Set(['a', 'b']);
    const stopped: string[] = [];
    const stopper = new IdleStop({
      idleSeconds: 10,
      running: () => [...running],
      isIdle: (id) => idle.has(id),
      stop: async (id) => {
        stopped.push(id);
        running.delete(id);
      },
      now: () => time,
    });
    return { stopper, stopped, advance: (ms: number) => (time += ms) };
  }

  it('stops a conversation idle for the whole idle time, not one that was busy meanwhile', () => {
    const idle = new Set(['a', 'b']);
    const { stopper, stopped, advance } = setup(idle);
    stopper.sweep();
    advance(6_000);
    idle.delete('b');
    stopper.sweep();
    idle.add('b');
    stopper.sweep();
    advance(4_000);
    stopper.sweep();
    expect(stopped).toEqual(['a']);
    advance(5_999);
    stopper.sweep();
    expect(stopped).toEqual(['a']);
    advance(1);
    stopper.sweep();
    expect(stopped).toEqual(['a', 'b']);
  });

  it('reads DOCKHAND_CONVERSATION_IDLE_S: 3600 by default, 0 for never', () => {
    expect(conversationIdleSecondsFromEnv({})).toBe(3600);
    expect(conversationIdleSecondsFromEnv({ DOCKHAND_CONVERSATION_IDLE_S: '0' })).toBe(0);
    expect(() => conversationIdleSecondsFromEnv({ DOCKHAND_CONVERSATION_IDLE_S: '-1' })).toThrow();
  });
});
