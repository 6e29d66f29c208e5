import type { LlmToolCall } from './llm/llm-types';
import type { CallMetadata } from './call-metadata';
import type { ToolRegistry } from './tools/registry';
import type { DockhandEvent } from '../events/model/dockhand-event';

export const REPLAY_FIRST_MESSAGE_ERROR = 'replay_json must start with a user message';
const MASKED = '<secret_hidden>';

/** A `replay_json` that cannot be replayed (a 400 at creation). */
export class ReplayError extends Error {}

/** A recorded user message, replayed as the user's. */
export interface ReplayMessage {
  kind: 'message';
  recordedId: number;
  content: string;
  imageUrls: string[];
  waitForResponse: boolean;
}

/** A recorded agent action, replayed instead of a model call. */
export interface ReplayAction {
  kind: 'action';
  recordedId: number;
  action: string;
  args: Record<string, unknown>;
  functionName: string;
  toolCallId: string;
  /** The call's arguments as the model sent them, when the recording has them. */
  callArguments: Record<string, unknown> | null;
  /** The exit code the recording observed for a command. */
  exitCode: number | null;
}

export type ReplayStep = ReplayMessage | ReplayAction;

/** The replay of one conversation: the recorded steps, how far it got, and what is sent after it. */
export interface ReplayProgress {
  steps: ReplayStep[];
  next: number;
  /** The replayed command whose exit code is compared with the recording before the next step. */
  awaiting: { toolCallId: string; recordedId: number; exitCode: number } | null;
  /** `initial_user_msg`, sent once the replay is over. */
  followUp: { content: string; imageUrls: string[] } | null;
}

/** What the next step of a replay is. */
export type ReplayTurn =
  | { kind: 'message'; step: ReplayMessage }
  | { kind: 'call'; call: LlmToolCall; thought: string; metadata: CallMetadata }
  | { kind: 'end'; warning: string | null };

type Recorded = Record<string, unknown>;

function isObject(value: unknown): value is Recorded {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function recordedId(event: Recorded, index: number): number {
  return typeof event.id === 'number' ? event.id : index;
}

function isUserMessage(event: Recorded): boolean {
  return event.source === 'user' && event.action === 'message';
}

function stringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The arguments of the recorded call in an OpenHands `model_response`, found by its id. */
function modelResponseArguments(metadata: Recorded, toolCallId: string): Record<string, unknown> | null {
  const response = metadata.model_response;
  const choices = isObject(response) && Array.isArray(response.choices) ? response.choices : [];
  for (const choice of choices) {
    const calls = isObject(choice) && isObject(choice.message) ? choice.message.tool_calls : undefined;
    for (const call of Array.isArray(calls) ? calls : []) {
      if (!isObject(call) || call.id !== toolCallId || !isObject(call.function)) continue;
      try {
        const parsed: unknown = JSON.parse(String(call.function.arguments));
        return isObject(parsed) ? parsed : null;
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** The exit code of the command observation answering `action` in the recording. */
function recordedExitCode(events: Recorded[], action: Recorded, toolCallId: string): number | null {
  const answer = events.find(
    (e) =>
      e.observation === 'run' &&
      ((action.id !== undefined && e.cause === action.id) ||
        (isObject(e.tool_call_metadata) && e.tool_call_metadata.tool_call_id === toolCallId)),
  );
  const metadata = answer && isObject(answer.extras) ? answer.extras.metadata : undefined;
  return isObject(metadata) && typeof metadata.exit_code === 'number' ? metadata.exit_code : null;
}

function actionStep(events: Recorded[], event: Recorded, index: number): ReplayAction | null {
  const metadata = event.tool_call_metadata;
  if (event.source !== 'agent' || typeof event.action !== 'string' || event.action === 'system') return null;
  if (!isObject(metadata) || typeof metadata.function_name !== 'string') return null;
  const toolCallId = typeof metadata.tool_call_id === 'string' ? metadata.tool_call_id : `call_${index}`;
  return {
    kind: 'action',
    recordedId: recordedId(event, index),
    action: event.action,
    args: isObject(event.args) ? event.args : {},
    functionName: metadata.function_name,
    toolCallId,
    callArguments: isObject(metadata.arguments)
      ? metadata.arguments
      : modelResponseArguments(metadata, toolCallId),
    exitCode: event.action === 'run' ? recordedExitCode(events, event, toolCallId) : null,
  };
}

/**
 * The steps of an OpenHands trajectory (agent-behaviour §6.7): user messages and agent actions with their
 * tool_call_metadata; observations, environment events and the system action are left out. The first step
 * must be a user message; only the last message keeps `wait_for_response`.
 */
export function parseTrajectory(json: string): ReplayStep[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new ReplayError('replay_json must be a JSON array of events');
  }
  const events = Array.isArray(parsed) ? parsed.filter(isObject) : [];
  const steps: ReplayStep[] = [];
  events.forEach((event, index) => {
    if (isUserMessage(event)) {
      const args = isObject(event.args) ? event.args : {};
      steps.push({
        kind: 'message',
        recordedId: recordedId(event, index),
        content: typeof args.content === 'string' ? args.content : String(event.message ?? ''),
        imageUrls: stringArray(args.image_urls),
        waitForResponse: args.wait_for_response === true,
      });
      return;
    }
    const action = actionStep(events, event, index);
    if (action) steps.push(action);
  });
  const first = events.find((e) => e.source !== 'environment' && e.action !== 'system');
  if (!first || !isUserMessage(first) || steps[0]?.kind !== 'message') {
    throw new ReplayError(REPLAY_FIRST_MESSAGE_ERROR);
  }
  steps.forEach((step, index) => {
    if (step.kind === 'message' && index < steps.length - 1) step.waitForResponse = false;
  });
  return steps;
}

const RISK_NAMES: Record<number, string> = { 0: 'LOW', 1: 'MEDIUM', 2: 'HIGH' };

/**
 * The call a recorded action stands for: the model's own arguments when recorded, else the action's
 * arguments the tool accepts (OpenHands `read` is a view, `finish` carries `final_thought`).
 */
function callArguments(step: ReplayAction, tools: ToolRegistry): Record<string, unknown> {
  if (step.callArguments) return step.callArguments;
  const definition = tools.definitions().find((d) => d.name === step.functionName);
  const accepted = Object.keys(definition?.parameters.properties ?? {});
  const args = Object.fromEntries(
    accepted.filter((k) => k in step.args && k !== 'security_risk').map((k) => [k, step.args[k]]),
  );
  if (step.action === 'read') args.command ??= 'view';
  if (step.action === 'finish' && typeof step.args.final_thought === 'string') {
    args.message ??= step.args.final_thought;
  }
  const risk = RISK_NAMES[step.args.security_risk as number];
  if (risk && accepted.includes('security_risk')) args.security_risk = risk;
  return args;
}

function exitCodeOf(history: DockhandEvent[], toolCallId: string): number | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const event = history[i] as DockhandEvent;
    if (event.kind !== 'command_result' || event.toolCall?.id !== toolCallId) continue;
    return event.metadata?.exitCode ?? null;
  }
  return null;
}

/** Starts a replay: the first recorded message opens the conversation, the rest are its steps. */
export function startReplay(
  steps: ReplayStep[],
  followUp: ReplayProgress['followUp'],
): { first: ReplayMessage; progress: ReplayProgress } {
  const [first, ...rest] = steps;
  if (first?.kind !== 'message') throw new ReplayError(REPLAY_FIRST_MESSAGE_ERROR);
  return { first, progress: { steps: rest, next: 0, awaiting: null, followUp } };
}

/** Whether every recorded step was taken (the last one's outcome may still be unchecked). */
export function replayExhausted(progress: ReplayProgress): boolean {
  return progress.next >= progress.steps.length;
}

/**
 * The next step of a replay, in place of a model call. The replayed command before it must have ended with
 * the recorded exit code; a divergence or a masked secret in the next action ends the replay.
 */
export function nextReplayTurn(
  progress: ReplayProgress,
  history: DockhandEvent[],
  tools: ToolRegistry,
): ReplayTurn {
  const awaiting = progress.awaiting;
  progress.awaiting = null;
  if (awaiting && exitCodeOf(history, awaiting.toolCallId) !== awaiting.exitCode) {
    return { kind: 'end', warning: `Replay diverged at recorded event ${awaiting.recordedId}` };
  }
  const step = progress.steps[progress.next];
  if (!step) return { kind: 'end', warning: null };
  progress.next += 1;
  if (step.kind === 'message') return { kind: 'message', step };
  const args = callArguments(step, tools);
  if (JSON.stringify(args).includes(MASKED)) {
    return {
      kind: 'end',
      warning: `Replay stopped at recorded event ${step.recordedId}: it contains a masked secret (${MASKED})`,
    };
  }
  const toolCallId = `replay_${step.recordedId}`;
  if (step.exitCode !== null) {
    progress.awaiting = { toolCallId, recordedId: step.recordedId, exitCode: step.exitCode };
  }
  const thought = typeof step.args.thought === 'string' ? step.args.thought : '';
  return {
    kind: 'call',
    call: { id: toolCallId, name: step.functionName, rawArgs: JSON.stringify(args), args },
    thought,
    metadata: {
      function_name: step.functionName,
      tool_call_id: toolCallId,
      model_response: { id: `replay_${step.recordedId}` },
      total_calls_in_response: 1,
      arguments: args,
    },
  };
}
