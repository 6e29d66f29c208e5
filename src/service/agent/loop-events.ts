import type { NewEvent, V0Event } from '../../shared/api/events';
import type { EventLog } from '../events/event-log';
import type { SecretMasker } from '../events/secret-masker';
import { errorObservation } from './agent-events';
import type { SavedCall } from './agent-state-store';
import type { GatedCall } from './tool-call-gate';

export const REJECTED_TEXT = 'Action has been rejected by the user! Waiting for further user input.';

/**
 * The loop's side of a conversation's event log: appends through the masker and keeps the history it has
 * seen, so that the log is read once and then only for the events others added (the log is append-only).
 */
export class LoopEvents {
  private readonly seen: V0Event[] = [];

  constructor(
    private readonly conversationId: string,
    private readonly log: EventLog,
    private readonly masker: SecretMasker,
  ) {}

  /** The conversation's events, oldest first. */
  history(): V0Event[] {
    const last = this.seen.at(-1)?.id ?? -1;
    if (this.log.lastId(this.conversationId) === last) return this.seen;
    for (const event of this.log.after(this.conversationId, last)) this.seen.push(event);
    return this.seen;
  }

  append(event: NewEvent): V0Event {
    const stored = this.log.append(this.conversationId, event, this.masker);
    // Ids are gap-free: the next id means nothing was appended by others since the last event seen.
    if (stored.id === (this.seen.at(-1)?.id ?? -1) + 1) this.seen.push(stored);
    return stored;
  }

  /** The action a call becomes, with its confirmation state, risk and the analyzer's rules that fired. */
  action(
    call: GatedCall,
    confirmation: string,
    metrics: Record<string, unknown>,
    rules: string[] = [],
  ): V0Event {
    const action = call.tool.toAction(call.args, call.thought);
    return this.append({
      source: 'agent',
      message: action.message,
      action: action.action,
      args: {
        ...action.args,
        confirmation_state: confirmation,
        security_risk: call.risk,
        ...(rules.length ? { security_rules: rules } : {}),
      },
      tool_call_metadata: call.metadata,
      llm_metrics: metrics,
    });
  }

  /** An `error` observation answering a call that did not run, so the model sees every call answered. */
  unexecuted(queued: SavedCall, text: string): void {
    this.append(errorObservation(text, { tool_call_metadata: queued.metadata }));
  }

  /** The user refused a held call: the action as rejected, answered by `user_rejected` with the reason. */
  rejected(call: GatedCall, reason: string, metrics: Record<string, unknown>): void {
    const action = this.action(call, 'rejected', metrics);
    const content = reason ? `${REJECTED_TEXT}\nReason: ${reason}` : REJECTED_TEXT;
    this.append({
      source: 'agent',
      message: content,
      observation: 'user_rejected',
      content,
      extras: {},
      cause: action.id,
      tool_call_metadata: call.metadata,
    });
  }
}
