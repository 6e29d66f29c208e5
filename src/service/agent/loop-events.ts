import type { NewEvent, V0Event } from '../../shared/api/events';
import type { EventLog } from '../events/event-log';
import type {
  ConfirmationState,
  DockhandEvent,
  LlmMetrics,
  NewDockhandEvent,
} from '../events/model/dockhand-event';
import { callFromV0, toV0 } from '../events/model/v0-codec';
import type { SecretMasker } from '../events/secret-masker';
import { errorObservation } from './agent-events';
import type { SavedCall } from './agent-state-store';
import type { GatedCall } from './tool-call-gate';

export const REJECTED_TEXT = 'Action has been rejected by the user! Waiting for further user input.';

/**
 * The loop's side of a conversation's event log: appends through the masker and keeps the history it has
 * seen, so that the log is read once and then only for the events others added (the log is append-only).
 * The history is kept as stored and, for the readers that still read V0 events, in that form too (each
 * event mapped once, so readers that remember events by identity keep finding them).
 */
export class LoopEvents {
  private readonly seen: DockhandEvent[] = [];
  private readonly seenV0: V0Event[] = [];

  constructor(
    private readonly conversationId: string,
    private readonly log: EventLog,
    private readonly masker: SecretMasker,
  ) {}

  /** The conversation's events, oldest first. */
  events(): DockhandEvent[] {
    const last = this.seen.at(-1)?.id ?? -1;
    if (this.log.lastId(this.conversationId) === last) return this.seen;
    for (const event of this.log.events(this.conversationId, last)) this.remember(event);
    return this.seen;
  }

  /** `events` in the V0 form. */
  history(): V0Event[] {
    this.events();
    return this.seenV0;
  }

  /** Appends one of the events the loop builds; returns it in the V0 form. */
  add(event: NewDockhandEvent): V0Event {
    return this.seeing(this.log.add(this.conversationId, event, this.masker));
  }

  /** Appends an event still built in the V0 form (a condensation). */
  append(event: NewEvent): V0Event {
    return this.seeing(this.log.addV0(this.conversationId, event, this.masker));
  }

  /** The action a call becomes, with its confirmation state, risk and the analyzer's rules that fired. */
  action(
    call: GatedCall,
    confirmation: ConfirmationState,
    metrics: LlmMetrics,
    rules: string[] = [],
  ): V0Event {
    return this.add({
      ...call.tool.toAction(call.args, call.thought),
      source: 'agent',
      confirmation,
      securityRisk: call.risk,
      ...(rules.length ? { securityRules: rules } : {}),
      toolCall: callFromV0({ ...call.metadata }),
      metrics,
    });
  }

  /** An `error` observation answering a call that did not run, so the model sees every call answered. */
  unexecuted(queued: SavedCall, text: string): void {
    this.add(errorObservation(text, { toolCall: callFromV0({ ...queued.metadata }) }));
  }

  /** The user refused a held call: the action as rejected, answered by `user_rejected` with the reason. */
  rejected(call: GatedCall, reason: string, metrics: LlmMetrics): void {
    const action = this.action(call, 'rejected', metrics);
    const content = reason ? `${REJECTED_TEXT}\nReason: ${reason}` : REJECTED_TEXT;
    this.add({
      kind: 'user_rejected',
      source: 'agent',
      text: content,
      cause: action.id,
      toolCall: callFromV0({ ...call.metadata }),
    });
  }

  private seeing(stored: DockhandEvent): V0Event {
    // Ids are gap-free: the next id means nothing was appended by others since the last event seen.
    if (stored.id === (this.seen.at(-1)?.id ?? -1) + 1) return this.remember(stored);
    return toV0(stored);
  }

  private remember(event: DockhandEvent): V0Event {
    const v0 = toV0(event);
    this.seen.push(event);
    this.seenV0.push(v0);
    return v0;
  }
}
