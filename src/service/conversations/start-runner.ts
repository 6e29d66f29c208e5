import type { StartStageName } from '../../shared/api/start-stage';

/**
 * Who waits for a step: `agent`, the agent's first model request (the start waits for it); `commands`, only
 * the agent's commands (the agent thinks meanwhile; `StartRun.commandsReady`).
 */
export type StepWaiter = 'agent' | 'commands';

/** One step of a start: the earlier steps whose results it needs, and how it makes its own result. */
export interface StartStep<O, R> {
  readonly needs: readonly (keyof O)[];
  /** Reached when the step begins (the start's progress only moves forward, `StageProgress`). */
  readonly stage?: StartStageName;
  readonly waiter: StepWaiter;
  readonly run: (inputs: never) => Promise<R> | R;
}

/** A start: one step per result of `O`. Steps run as soon as what they need is there, so they overlap. */
export type StartPlan<O> = { [K in keyof O]: StartStep<O, O[K]> };

/** The step builder of a plan whose results are `O`: `run` gets exactly the results it declares in `needs`. */
export function stepOf<O>() {
  return <N extends keyof O, R>(
    needs: readonly N[],
    run: (inputs: Pick<O, N>) => Promise<R> | R,
    options: { stage?: StartStageName; waiter?: StepWaiter } = {},
  ): StartStep<O, R> => ({ needs, run, waiter: options.waiter ?? 'agent', ...options });
}

export interface StartRun<O> {
  /** Every step's result (rejected with its error, or with the error of a step it needs). */
  results: { [K in keyof O]: Promise<O[K]> };
  /** Settles once every step the agent's commands wait for has; rejects with the first failure. */
  commandsReady: Promise<unknown>;
  /** Settles once every step the agent's commands wait for that has begun has ended (none begins later). */
  begunCommandsSettled(): Promise<unknown>;
}

/**
 * Runs a plan: every step starts at once and waits for the results it needs; `begin` is told of each stage.
 * Once `signal` is aborted no step begins (they reject with its reason).
 */
export function runStart<O>(
  plan: StartPlan<O>,
  begin: (stage: StartStageName) => void,
  signal: AbortSignal,
): StartRun<O> {
  const results = {} as { [K in keyof O]: Promise<O[K]> };
  const begun: Promise<unknown>[] = [];
  const resultOf = <K extends keyof O>(name: K, path: (keyof O)[] = []): Promise<O[K]> => {
    if (path.includes(name))
      throw new Error(`The start steps need each other: ${[...path, name].join(' → ')}`);
    const step = plan[name];
    results[name] ??= settledLater(
      Promise.all(step.needs.map((need) => resultOf(need, [...path, name]))).then((values) => {
        signal.throwIfAborted();
        if (step.stage) begin(step.stage);
        const running = step.run(Object.fromEntries(step.needs.map((need, i) => [need, values[i]])) as never);
        if (step.waiter === 'commands') begun.push(Promise.resolve(running).catch(() => undefined));
        return running;
      }),
    );
    return results[name];
  };
  const names = Object.keys(plan) as (keyof O)[];
  for (const name of names) void resultOf(name);
  const commands = names.filter((name) => plan[name].waiter === 'commands');
  return {
    results,
    commandsReady: settledLater(Promise.all(commands.map((name) => results[name]))),
    begunCommandsSettled: () => Promise.all(begun),
  };
}

/**
 * The same promise, marked as handled now: a step that fails before anyone awaits it must not end the
 * process as an unhandled rejection; whoever awaits it still gets the error.
 */
export function settledLater<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/** The start's progress: each stage reported once, in order, the ones skipped on the way included. */
export class StageProgress {
  private reached = -1;

  constructor(
    private readonly order: readonly StartStageName[],
    private readonly report: (stage: StartStageName) => void,
  ) {}

  /** The last stage reached (the first one before any). */
  get current(): StartStageName {
    return this.order[Math.max(this.reached, 0)] as StartStageName;
  }

  reach(stage: StartStageName): void {
    const index = this.order.indexOf(stage);
    while (this.reached < index) this.report(this.order[++this.reached] as StartStageName);
  }
}
