import type { SavedAgentState, SavedCall } from './agent-state-store';
import type { GatedCall } from './tool-call-gate';

export const NOT_EXECUTED_FINISHED = 'Not executed: the agent finished before this call.';
export const NOT_EXECUTED_REJECTED =
  'Not executed: an earlier action in this response was rejected by the user.';
export const STOPPED_NOT_EXECUTED = 'Stop button pressed. The action has not been executed.';
export const NOT_EXECUTED_RUNTIME_ERROR =
  'The action has not been executed due to a runtime error; the sandbox state may have been lost.';

/**
 * The calls of the model's latest reply waiting their turn, and the one held for the user's confirmation.
 * Calls taken out without running (`drain`) are the caller's to answer.
 */
export class CallQueue {
  private calls: SavedCall[] = [];
  private pending: GatedCall | null = null;

  /** The call waiting for the user's confirmation, if any. */
  get held(): GatedCall | null {
    return this.pending;
  }

  /** The calls of a new reply (or a saved queue) in place of the queued ones. */
  replace(calls: SavedCall[]): void {
    this.calls = calls;
  }

  next(): SavedCall | undefined {
    return this.calls.shift();
  }

  hold(call: GatedCall): void {
    this.pending = call;
  }

  /** Takes the held call for the user's answer. */
  release(): GatedCall | null {
    const pending = this.pending;
    this.pending = null;
    return pending;
  }

  /** Empties the queue (the held call stays) and gives back the calls that will not run. */
  drain(): SavedCall[] {
    const calls = this.calls;
    this.calls = [];
    return calls;
  }

  /** Empties the queue and releases the held call: every call that will not run, the held one last. */
  drainAll(): SavedCall[] {
    const pending = this.release();
    return [...this.drain(), ...(pending ? [pending] : [])];
  }

  /** The queue and the held call as a restarted service needs them. */
  snapshot(): Pick<SavedAgentState, 'queue' | 'pending'> {
    const pending = this.pending;
    return {
      queue: this.calls,
      pending: pending
        ? {
            call: pending.call,
            thought: pending.thought,
            metadata: pending.metadata,
            args: pending.args,
            risk: pending.risk,
          }
        : null,
    };
  }
}
