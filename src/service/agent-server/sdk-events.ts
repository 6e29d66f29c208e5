import type { SdkEvent } from '../../shared/api/agent-server';
import type { V0Event } from '../../shared/api/events';
import type { CallMetadata } from '../agent/call-metadata';
import { EXECUTION_STATUS } from '../conversations/app-conversations';
import { v1Event } from '../events/v1-events';

/** The SDK action and observation models of Dockhand's tools; any other tool is an MCP tool. */
const TOOL_MODELS: Record<string, [action: string, observation: string]> = {
  execute_bash: ['ExecuteBashAction', 'ExecuteBashObservation'],
  str_replace_editor: ['FileEditorAction', 'FileEditorObservation'],
  think: ['ThinkAction', 'ThinkObservation'],
  finish: ['FinishAction', 'FinishObservation'],
  task_tracker: ['TaskTrackerAction', 'TaskTrackerObservation'],
};
const MCP_MODELS: [string, string] = ['MCPToolAction', 'MCPToolObservation'];
const RISKS: Record<number, string> = { 0: 'LOW', 1: 'MEDIUM', 2: 'HIGH' };
const DEFAULT_REJECTION = 'User rejected the action';

type Base = Pick<SdkEvent, 'id' | 'timestamp'>;

function text(value: string) {
  return { type: 'text' as const, text: value };
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function callOf(event: V0Event): CallMetadata | null {
  const metadata = event.tool_call_metadata as Partial<CallMetadata> | undefined;
  return typeof metadata?.tool_call_id === 'string' && typeof metadata.function_name === 'string'
    ? (metadata as CallMetadata)
    : null;
}

function modelsOf(tool: string): [string, string] {
  return TOOL_MODELS[tool] ?? MCP_MODELS;
}

/** The call's arguments as the SDK action's fields (the risk is the event's own field there). */
function actionModel(call: CallMetadata): Record<string, unknown> {
  const args = { ...record(call.arguments) };
  delete args.security_risk;
  const [kind] = modelsOf(call.function_name);
  return kind === 'MCPToolAction' ? { kind, data: args } : { kind, ...args };
}

function observationModel(event: V0Event, call: CallMetadata): Record<string, unknown> {
  const extras = record(event.extras);
  const [, kind] = modelsOf(call.function_name);
  const exitCode = record(extras.metadata).exit_code ?? extras.exit_code;
  return {
    kind,
    content: [text(event.content ?? '')],
    is_error: event.success === false || (typeof exitCode === 'number' && exitCode !== 0),
    ...(typeof extras.command === 'string' ? { command: extras.command } : {}),
    ...(typeof exitCode === 'number' ? { exit_code: exitCode } : {}),
    ...(typeof extras.path === 'string' ? { path: extras.path } : {}),
  };
}

function messageContent(event: V0Event) {
  const args = record(event.args);
  const images = Array.isArray(args.image_urls) ? (args.image_urls as string[]) : [];
  return [
    text(typeof args.content === 'string' ? args.content : event.message),
    ...(images.length ? [{ type: 'image' as const, image_urls: images }] : []),
  ];
}

function forgottenIds(conversationId: string, args: Record<string, unknown>): string[] {
  const ids = Array.isArray(args.forgotten_event_ids)
    ? args.forgotten_event_ids.map(Number)
    : typeof args.forgotten_events_start_id === 'number' && typeof args.forgotten_events_end_id === 'number'
      ? Array.from(
          { length: args.forgotten_events_end_id - args.forgotten_events_start_id + 1 },
          (_, i) => (args.forgotten_events_start_id as number) + i,
        )
      : [];
  return ids.map((id) => `${conversationId}:${id}`);
}

/**
 * Maps one conversation's V0 events, fed in order, to SDK events (none for events the SDK has no model
 * for: actions and observations outside a tool call, such as recalls and the user's own commands, and the
 * `stopped` state). It keeps state because V0 records an action that waited for confirmation twice (asked,
 * then confirmed or rejected) where the SDK has one ActionEvent, which the observation then refers to.
 */
export class SdkEventMapper {
  /** The SDK id of each tool call's ActionEvent. */
  private readonly actions = new Map<string, string>();

  constructor(private readonly conversationId: string) {}

  map(event: V0Event): SdkEvent[] {
    const mapped = this.mapOne(event);
    return mapped === null ? [] : Array.isArray(mapped) ? mapped : [mapped];
  }

  private mapOne(event: V0Event): SdkEvent | SdkEvent[] | null {
    const envelope = v1Event(this.conversationId, event);
    const base: Base = { id: envelope.id, timestamp: envelope.timestamp };
    const args = record(event.args);
    const call = callOf(event);
    switch (envelope.kind) {
      case 'MessageEvent':
        return {
          kind: 'MessageEvent',
          ...base,
          source: event.source === 'user' ? 'user' : 'agent',
          llm_message: {
            role: event.source === 'user' ? 'user' : 'assistant',
            content: messageContent(event),
          },
          activated_skills: [],
          extended_content: [],
        };
      case 'SystemPromptEvent':
        return {
          kind: 'SystemPromptEvent',
          ...base,
          source: 'agent',
          system_prompt: text(typeof args.content === 'string' ? args.content : event.message),
          tools: Array.isArray(args.tools) ? args.tools : [],
        };
      case 'PauseEvent':
        return { kind: 'PauseEvent', ...base, source: 'user' };
      case 'Condensation':
        return {
          kind: 'Condensation',
          ...base,
          source: 'environment',
          forgotten_event_ids: forgottenIds(this.conversationId, args),
          summary: typeof args.summary === 'string' ? args.summary : null,
          summary_offset: typeof args.summary_offset === 'number' ? args.summary_offset : null,
          llm_response_id: base.id,
        };
      case 'CondensationSummaryEvent':
        return {
          kind: 'CondensationSummaryEvent',
          ...base,
          source: 'environment',
          summary: event.content ?? '',
        };
      case 'ConversationStateUpdateEvent': {
        const status = EXECUTION_STATUS[String(record(event.extras).agent_state)];
        if (!status) return null;
        const update: SdkEvent = {
          kind: 'ConversationStateUpdateEvent',
          ...base,
          source: 'environment',
          key: 'execution_status',
          value: status,
        };
        // The SDK records a pause as the user's PauseEvent, then the state it leads to.
        return status === 'paused'
          ? [
              { kind: 'PauseEvent', id: `${base.id}-pause`, timestamp: base.timestamp, source: 'user' },
              update,
            ]
          : [update];
      }
      case 'ActionEvent':
        return call ? this.action(base, event, call) : null;
      case 'ObservationEvent':
        return call
          ? {
              kind: 'ObservationEvent',
              ...base,
              source: 'environment',
              tool_name: call.function_name,
              tool_call_id: call.tool_call_id,
              observation: observationModel(event, call),
              action_id: this.actionId(event, call),
            }
          : null;
      case 'AgentErrorEvent':
        return {
          kind: 'AgentErrorEvent',
          ...base,
          source: 'agent',
          tool_name: call?.function_name ?? '',
          tool_call_id: call?.tool_call_id ?? '',
          error: event.content ?? event.message,
        };
      case 'UserRejectObservation': {
        const reason = /\nReason: ([\s\S]+)$/.exec(event.content ?? '')?.[1];
        return {
          kind: 'UserRejectObservation',
          ...base,
          source: 'environment',
          tool_name: call?.function_name ?? '',
          tool_call_id: call?.tool_call_id ?? '',
          rejection_reason: reason ?? DEFAULT_REJECTION,
          rejection_source: 'user',
          action_id: call ? this.actionId(event, call) : '',
        };
      }
    }
  }

  private action(base: Base, event: V0Event, call: CallMetadata): SdkEvent | null {
    // The second record of an action that waited for confirmation: the SDK has sent it already.
    if (this.actions.has(call.tool_call_id)) return null;
    this.actions.set(call.tool_call_id, base.id);
    const args = record(event.args);
    const risk = typeof args.security_risk === 'number' ? RISKS[args.security_risk] : undefined;
    return {
      kind: 'ActionEvent',
      ...base,
      source: 'agent',
      thought: typeof args.thought === 'string' && args.thought ? [text(args.thought)] : [],
      action: actionModel(call),
      tool_name: call.function_name,
      tool_call_id: call.tool_call_id,
      tool_call: {
        id: call.tool_call_id,
        name: call.function_name,
        arguments: JSON.stringify(call.arguments ?? {}),
        origin: 'completion',
      },
      llm_response_id: call.model_response.id,
      security_risk: risk ?? 'UNKNOWN',
    };
  }

  private actionId(event: V0Event, call: CallMetadata): string {
    return (
      this.actions.get(call.tool_call_id) ??
      (event.cause === undefined ? '' : `${this.conversationId}:${event.cause}`)
    );
  }
}

/** Every SDK event of a conversation's V0 events, in order. */
export function sdkEvents(conversationId: string, events: Iterable<V0Event>): SdkEvent[] {
  const mapper = new SdkEventMapper(conversationId);
  const mapped: SdkEvent[] = [];
  for (const event of events) mapped.push(...mapper.map(event));
  return mapped;
}
