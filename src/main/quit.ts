import type { MainLog } from './main-log';

export interface QuitSteps {
  /** Stops handing out the connection and opening windows. */
  stopAccepting(): void;
  /** Closes the service: no new requests, connections and storage closed, sandboxes left as set. */
  closeService(): Promise<void>;
  /** Resolves when waiting for the service any longer is pointless. */
  deadline(): Promise<void>;
  exit(code: number): void;
  log: MainLog;
}

/**
 * The app's `before-quit` handler: the first quit is held until the service has closed (or the
 * deadline passed), then the app exits; later quit requests wait for the same close.
 */
export class GracefulQuit {
  private closing: Promise<void> | null = null;

  constructor(private readonly steps: QuitSteps) {}

  get quitting(): boolean {
    return this.closing !== null;
  }

  handleBeforeQuit(event: { preventDefault(): void }): Promise<void> {
    event.preventDefault();
    this.closing ??= this.run();
    return this.closing;
  }

  private async run(): Promise<void> {
    const { steps } = this;
    steps.log.info({}, 'Quitting: closing the service');
    steps.stopAccepting();
    const closed = steps.closeService().then(
      () => 'closed' as const,
      (error: unknown) => {
        steps.log.error({ err: error }, 'The service did not close cleanly');
        return 'failed' as const;
      },
    );
    const outcome = await Promise.race([closed, steps.deadline().then(() => 'timeout' as const)]);
    if (outcome === 'timeout') steps.log.warn({}, 'The service took too long to close; exiting anyway');
    steps.exit(outcome === 'closed' ? 0 : 1);
  }
}
