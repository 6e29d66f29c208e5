import { describe, expect, it } from 'vitest';
import { GracefulQuit, type QuitSteps } from './quit';
import { preventable, recordingLog } from '../../test/support/main-fakes';

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function quitWith(
  closeService: () => Promise<void>,
  deadline: () => Promise<void> = () => new Promise(() => {}),
) {
  const calls: string[] = [];
  const exits: number[] = [];
  const log = recordingLog();
  const steps: QuitSteps = {
    stopAccepting: () => void calls.push('stopAccepting'),
    closeService: () => {
      calls.push('closeService');
      return closeService();
    },
    deadline,
    exit: (code) => {
      calls.push('exit');
      exits.push(code);
    },
    log,
  };
  return { quit: new GracefulQuit(steps), calls, exits, log };
}

describe('GracefulQuit', () => {
  it('holds the quit, stops accepting, closes the service, then exits with 0', async () => {
    const { quit, calls, exits } = quitWith(async () => {});
    const event = preventable();
    expect(quit.quitting).toBe(false);
    await quit.handleBeforeQuit(event);
    expect(event.prevented).toBe(true);
    expect(quit.quitting).toBe(true);
    expect(calls).toEqual(['stopAccepting', 'closeService', 'exit']);
    expect(exits).toEqual([0]);
  });

  it('closes the service once however often quit is asked for', async () => {
    const close = deferred();
    const { quit, calls, exits } = quitWith(() => close.promise);
    const first = preventable();
    const second = preventable();
    const running = quit.handleBeforeQuit(first);
    const again = quit.handleBeforeQuit(second);
    expect(second.prevented).toBe(true);
    expect(calls).toEqual(['stopAccepting', 'closeService']);
    close.resolve();
    await Promise.all([running, again]);
    expect(calls.filter((c) => c === 'closeService')).toHaveLength(1);
    expect(exits).toEqual([0]);
  });

  it('still exits, with 1, when the service fails to close', async () => {
    const { quit, exits, log } = quitWith(() => Promise.reject(new Error('db busy')));
    await quit.handleBeforeQuit(preventable());
    expect(exits).toEqual([1]);
    expect(log.entries.map((e) => e.message)).toContain('The service did not close cleanly');
  });

  it('exits with 1 when the deadline passes before the service has closed', async () => {
    const deadline = deferred();
    const { quit, exits, log } = quitWith(
      () => new Promise(() => {}),
      () => deadline.promise,
    );
    const running = quit.handleBeforeQuit(preventable());
    expect(exits).toEqual([]);
    deadline.resolve();
    await running;
    expect(exits).toEqual([1]);
    expect(log.entries.map((e) => e.message)).toContain('The service took too long to close; exiting anyway');
  });
});
