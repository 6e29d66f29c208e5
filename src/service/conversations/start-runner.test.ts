import { describe, expect, it } from 'vitest';
import type { StartStageName } from '../../shared/api/start-stage';
import { runStart, StageProgress, type StartPlan, stepOf } from './start-runner';

interface Results {
  a: number;
  b: number;
  sum: number;
  late: string;
}

const step = stepOf<Results>();

/** A promise settled from outside. */
function gate<T>() {
  let open!: (value: T) => void;
  let fail!: (error: unknown) => void;
  const promise = new Promise<T>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

describe('runStart', () => {
  it('begins each step once what it needs is there, overlapping the ones that do not need each other', async () => {
    const a = gate<number>();
    const b = gate<number>();
    const begun: string[] = [];
    const plan: StartPlan<Results> = {
      a: step([], () => (begun.push('a'), a.promise)),
      b: step([], () => (begun.push('b'), b.promise)),
      sum: step(['a', 'b'], ({ a: x, b: y }) => (begun.push('sum'), x + y), { stage: 'loading_microagents' }),
      late: step(['sum'], ({ sum }) => `sum ${sum}`, { waiter: 'commands' }),
    };
    const stages: StartStageName[] = [];
    const run = runStart(plan, (stage) => stages.push(stage), new AbortController().signal);
    await Promise.resolve();
    expect(begun).toEqual(['a', 'b']);
    a.open(2);
    await Promise.resolve();
    expect(begun).toEqual(['a', 'b']);
    b.open(3);
    expect(await run.results.sum).toBe(5);
    expect(begun).toEqual(['a', 'b', 'sum']);
    expect(stages).toEqual(['loading_microagents']);
    await expect(run.commandsReady).resolves.toEqual(['sum 5']);
  });

  it('rejects a step and every step that needs it with the failure, and begins nothing once aborted', async () => {
    const a = gate<number>();
    const closing = new AbortController();
    const lateRuns: string[] = [];
    const plan: StartPlan<Results> = {
      a: step([], () => a.promise),
      b: step([], () => 1),
      sum: step(['a', 'b'], ({ a: x, b: y }) => x + y),
      late: step(['b'], () => {
        lateRuns.push('late');
        return 'late';
      }),
    };
    const failed = runStart(plan, () => undefined, new AbortController().signal);
    a.fail(new Error('clone failed'));
    await expect(failed.results.sum).rejects.toThrow('clone failed');

    await failed.results.late;
    closing.abort();
    const aborted = runStart(plan, () => undefined, closing.signal);
    await expect(aborted.results.late).rejects.toThrow();
    expect(lateRuns).toEqual(['late']);
  });
});

describe('StageProgress', () => {
  it('reports each stage once and in order, the skipped ones included', () => {
    const reported: string[] = [];
    const progress = new StageProgress(
      ['starting_sandbox', 'sandbox_running', 'setting_up_workspace', 'ready'],
      (s) => reported.push(s),
    );
    expect(progress.current).toBe('starting_sandbox');
    progress.reach('starting_sandbox');
    progress.reach('setting_up_workspace');
    progress.reach('sandbox_running');
    expect(reported).toEqual(['starting_sandbox', 'sandbox_running', 'setting_up_workspace']);
    expect(progress.current).toBe('setting_up_workspace');
  });
});
