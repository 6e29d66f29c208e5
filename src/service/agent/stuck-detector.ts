import type { DockhandEvent, NewDockhandEvent } from '../events/model/dockhand-event';
import { isAction, isHidden, legacyName, observedText } from '../events/model/event-facts';
import { weakMemo } from '../weak-memo';
import { recordOf as condensationRecord, type CondensationRecord } from './condenser/condensation-event';

export type StuckPattern = 1 | 2 | 3 | 4 | 5;

/** A detected loop: which pattern matched and the id of the event the repetition starts at. */
export interface StuckDetection {
  pattern: StuckPattern;
  loopStartId: number;
}

/** The reason the agent state carries when a loop is detected. */
export const STUCK_REASON = 'Agent got stuck in a loop';

const PATTERN_TEXT: Record<StuckPattern, string> = {
  1: 'the last 4 actions and their observations were the same',
  2: 'the last 3 actions were the same and each ended in an error',
  3: 'the last 3 messages were the same, with nothing observed in between',
  4: 'the last 6 actions and observations alternated between the same two steps',
  5: 'the context was condensed 10 or more times in a row',
};

const MIN_EVENTS = 3;
const CONDENSATION_LOOP = 10;

/** Fields that change between otherwise identical calls (the reasoning, the confirmation, the risk). */
const VOLATILE_ARGS = new Set(['thought', 'confirmation_state', 'security_risk', 'security_rules']);
/** The same in Dockhand's events, and the fields every event has. */
const UNCOMPARED = new Set([
  'thought',
  'confirmation',
  'securityRisk',
  'securityRules',
  'kind',
  'id',
  'timestamp',
  'source',
  'cause',
  'toolCall',
  'metrics',
  'storedV0',
]);

/** Bookkeeping events that say nothing about the agent's progress (`null` ones are stored as legacy). */
const IGNORED_KINDS = new Set<DockhandEvent['kind']>([
  'system',
  'status_request',
  'status',
  'loop_detection',
]);

/** One action or observation as the patterns compare it: `key` is equal for events that count as equal. */
interface Step {
  kind: 'action' | 'observation';
  id: number;
  key: string;
  isError: boolean;
  isMessage: boolean;
}

/** JSON with sorted object keys, so equal values give equal text. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

function actionKey(event: DockhandEvent): string {
  if (event.kind === 'command') return canonical(['run', event.command, event.isInput]);
  if (event.kind === 'legacy') {
    const args = Object.entries((event.wire.args ?? {}) as Record<string, unknown>);
    const compared = args.filter(([name]) => !VOLATILE_ARGS.has(name));
    return canonical([legacyName(event).action, Object.fromEntries(compared)]);
  }
  const compared = Object.entries(event).filter(([name]) => !UNCOMPARED.has(name));
  return canonical([event.kind, Object.fromEntries(compared)]);
}

function observationKey(event: DockhandEvent): string {
  if (event.kind === 'command_result') return canonical(['run', event.command, event.metadata?.exitCode]);
  const name = event.kind === 'legacy' ? legacyName(event).observation : event.kind;
  return canonical([name, observedText(event)]);
}

function isCondensation(event: DockhandEvent): boolean {
  return event.kind === 'condensation' || legacyName(event).action === 'condensation_request';
}

/**
 * The actions and observations in order. A call answered without running (an unknown tool, invalid
 * arguments) has no action event: its observation stands for the call as well, so repeating it is seen.
 */
function eventSteps(event: DockhandEvent): Step[] {
  if (isCondensation(event)) return [];
  if (isAction(event)) {
    return [
      {
        kind: 'action',
        id: event.id,
        key: actionKey(event),
        isError: false,
        isMessage: event.kind === 'message',
      },
    ];
  }
  const steps: Step[] = [];
  const call = event.toolCall;
  if (call && event.cause === undefined) {
    const key = canonical(['call', call.name, call.rawInput]);
    steps.push({ kind: 'action', id: event.id, key, isError: false, isMessage: false });
  }
  steps.push({
    kind: 'observation',
    id: event.id,
    key: observationKey(event),
    isError: event.kind === 'error',
    isMessage: false,
  });
  return steps;
}

/** The steps and the condensation record of each event, worked out once. */
const stepsOf = weakMemo(eventSteps);
const recordOf = weakMemo((event: DockhandEvent) =>
  condensationRecord(
    event.kind === 'condensation'
      ? event
      : { forgottenIds: null, forgottenRange: null, summary: null, summaryOffset: null },
  ),
);

function counts(event: DockhandEvent): boolean {
  const legacy = legacyName(event);
  return (
    event.source !== 'user' &&
    !isHidden(event) &&
    !IGNORED_KINDS.has(event.kind) &&
    legacy.action !== 'null' &&
    legacy.observation !== 'null'
  );
}

/** What the patterns need of the newest steps: 6 of each kind, the last 3 messages, the trailing condensations. */
class TailNeeds {
  private actions = 0;
  private observations = 0;
  private messages = 0;
  private messagesSettled = false;
  private condensationsSettled = false;

  add(event: DockhandEvent, steps: Step[]): void {
    if (!isCondensation(event)) this.condensationsSettled = true;
    // Newest first: an observation after a message means no 3 messages run without one in between.
    for (let i = steps.length - 1; i >= 0; i--) {
      const step = steps[i] as Step;
      if (step.kind === 'action') this.actions += 1;
      else this.observations += 1;
      if (step.isMessage) this.messages += 1;
      if (step.kind === 'observation' && this.messages > 0) this.messagesSettled = true;
    }
    if (this.messages >= 3) this.messagesSettled = true;
  }

  get met(): boolean {
    return this.stepsMet && this.messagesSettled;
  }

  /** All that is left is finding a message: until one, older events cannot matter to any pattern. */
  get onlyAMessageMissing(): boolean {
    return this.stepsMet && this.messages === 0;
  }

  private get stepsMet(): boolean {
    return this.actions >= 6 && this.observations >= 6 && this.condensationsSettled;
  }
}

/**
 * The newest events the patterns look at, oldest first: after the last user message, without user, null,
 * hidden or state events, and events a condensation forgot. Scanned from the end, only as far back as the
 * patterns look, so that a long conversation costs no more per step than a short one.
 */
function eventsInScope(events: DockhandEvent[]): DockhandEvent[] {
  const scope: DockhandEvent[] = [];
  const forgetting: CondensationRecord[] = [];
  const needs = new TailNeeds();
  for (let i = events.length - 1; i >= 0 && !needs.met; i--) {
    const event = events[i] as DockhandEvent;
    if (event.source === 'user' && event.kind === 'message') break;
    // A condensation only forgets events before it, all still ahead in this scan.
    if (event.kind === 'condensation') forgetting.push(recordOf(event));
    if (needs.onlyAMessageMissing && event.kind !== 'message') continue;
    if (!counts(event) || forgetting.some((c) => c.forgets(event.id))) continue;
    scope.push(event);
    needs.add(event, stepsOf(event));
  }
  return scope.reverse();
}

/** The last `count` steps that pass `test`, oldest first (scanned from the end: histories grow long). */
function lastWhere(steps: Step[], test: (step: Step) => boolean, count: number): Step[] {
  const found: Step[] = [];
  for (let i = steps.length - 1; i >= 0 && found.length < count; i--) {
    const step = steps[i] as Step;
    if (test(step)) found.unshift(step);
  }
  return found;
}

/** The last `count` steps of one kind, oldest first, or null when there are fewer. */
function lastOfKind(steps: Step[], kind: Step['kind'], count: number): Step[] | null {
  const found = lastWhere(steps, (s) => s.kind === kind, count);
  return found.length === count ? found : null;
}

function allEqual(steps: Step[]): boolean {
  return steps.every((s) => s.key === steps[0]?.key);
}

/** Every other step equal: 0, 2, 4 … and 1, 3, 5 …. */
function alternates(steps: Step[]): boolean {
  return steps.every((s, i) => s.key === steps[i % 2]?.key);
}

function firstId(...groups: Step[][]): number {
  return Math.min(...groups.flat().map((s) => s.id));
}

function repeatedActionAndObservation(steps: Step[]): number | null {
  const actions = lastOfKind(steps, 'action', 4);
  const observations = lastOfKind(steps, 'observation', 4);
  if (!actions || !observations || !allEqual(actions) || !allEqual(observations)) return null;
  return firstId(actions, observations);
}

function repeatedActionWithErrors(steps: Step[]): number | null {
  const actions = lastOfKind(steps, 'action', 3);
  const observations = lastOfKind(steps, 'observation', 3);
  if (!actions || !observations || !allEqual(actions) || !observations.every((o) => o.isError)) return null;
  return firstId(actions, observations);
}

function repeatedMessages(steps: Step[]): number | null {
  const messages = lastWhere(steps, (s) => s.isMessage, 3);
  if (messages.length < 3 || !allEqual(messages)) return null;
  const [first, , last] = messages as [Step, Step, Step];
  const between = steps.slice(steps.indexOf(first) + 1, steps.indexOf(last));
  return between.some((s) => s.kind === 'observation') ? null : first.id;
}

function alternatingSteps(steps: Step[]): number | null {
  const actions = lastOfKind(steps, 'action', 6);
  const observations = lastOfKind(steps, 'observation', 6);
  if (!actions || !observations || !alternates(actions) || !alternates(observations)) return null;
  return firstId(actions, observations);
}

/** The trailing run of condensations (requests in between do not break it), if it is long enough. */
function repeatedCondensations(events: DockhandEvent[]): number | null {
  let start: number | null = null;
  let count = 0;
  for (let i = events.length - 1; i >= 0 && isCondensation(events[i] as DockhandEvent); i--) {
    const event = events[i] as DockhandEvent;
    if (event.kind === 'condensation') {
      count += 1;
      start = event.id;
    }
  }
  return count >= CONDENSATION_LOOP ? start : null;
}

/**
 * Stuck detection (agent-behaviour §2.6), run before each step over the conversation's events. Only the
 * events after the last user message count; user, null, hidden and state events, and events a
 * condensation forgot, are left out. Returns the first pattern that matches, or null.
 */
export function detectStuck(events: DockhandEvent[]): StuckDetection | null {
  const scope = eventsInScope(events);
  if (scope.length < MIN_EVENTS) return null;
  const steps = scope.flatMap(stepsOf);
  const checks: [StuckPattern, () => number | null][] = [
    [1, () => repeatedActionAndObservation(steps)],
    [2, () => repeatedActionWithErrors(steps)],
    [3, () => repeatedMessages(steps)],
    [4, () => alternatingSteps(steps)],
    [5, () => repeatedCondensations(scope)],
  ];
  for (const [pattern, check] of checks) {
    const loopStartId = check();
    if (loopStartId !== null) return { pattern, loopStartId };
  }
  return null;
}

/**
 * The `loop_detection` event recorded when a loop is found: not for the model (like hidden commands); clients
 * read the pattern and where the loop starts.
 */
export function loopDetectionEvent(detection: StuckDetection): NewDockhandEvent {
  return {
    kind: 'loop_detection',
    source: 'environment',
    text: `${STUCK_REASON}: ${PATTERN_TEXT[detection.pattern]}.`,
    pattern: detection.pattern,
    loopStartId: detection.loopStartId,
  };
}
