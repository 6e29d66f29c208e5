import type { SdkEvent } from '../../shared/api/agent-server';
import { EXECUTION_STATUS } from '../conversations/app-conversations';
import type { DockhandEvent, ToolCall } from '../events/model/dockhand-event';
import { observedText } from '../events/model/event-facts';

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
/** The events that are a tool call's action, and what the SDK's ActionEvent takes from them. */
type Action = Extract<
  DockhandEvent,
  { kind: 'thought' | 'command' | 'read' | 'edit' | 'fetch' | 'plan' | 'mcp_call' | 'finish' }
>;
/** The events that are a tool call's result. */
type Result = Extract<
  DockhandEvent,
  {
    kind:
      | 'thought_result'
      | 'command_result'
      | 'read_result'
      | 'edit_result'
      | 'fetch_result'
      | 'plan_result'
      | 'mcp_result'
      | 'recall'
      | 'loop_detection'
      | 'notice';
  }
>;

function text(value: string) {
  return { type: 'text' as const, text: value };
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function modelsOf(tool: string): [string, string] {
  return TOOL_MODELS[tool] ?? MCP_MODELS;
}

/** The call's arguments as the SDK action's fields (the risk is the event's own field there). */
function actionModel(call: ToolCall): Record<string, unknown> {
  const args = { ...record(call.rawInput) };
  delete args.security_risk;
  const [kind] = modelsOf(call.name);
  return kind === 'MCPToolAction' ? { kind, data: args } : { kind, ...args };
}

function observationModel(event: Result, call: ToolCall): Record<string, unknown> {
  const [, kind] = modelsOf(call.name);
  const success = 'success' in event ? event.success : undefined;
  const exitCode = event.kind === 'command_result' ? event.metadata?.exitCode : undefined;
  const path = event.kind === 'read_result' || event.kind === 'edit_result' ? event.path : undefined;
  return {
    kind,
    content: [text(observedText(event))],
    is_error: success === false || (typeof exitCode === 'number' && exitCode !== 0),
    // The command of a shell call, and the task tracker's (`plan` or `view`), as upstream's observations have them.
    ...(event.kind === 'command_result' || event.kind === 'plan_result' ? { command: event.command } : {}),
    ...(typeof exitCode === 'number' ? { exit_code: exitCode } : {}),
    ...(path === undefined ? {} : { path }),
  };
}

function forgottenIds(
  conversationId: string,
  event: Extract<DockhandEvent, { kind: 'condensation' }>,
): string[] {
  const range = event.forgottenRange;
  const ids =
    event.forgottenIds ??
    (range ? Array.from({ length: range.end - range.start + 1 }, (_, i) => range.start + i) : []);
  return ids.map((id) => `${conversationId}:${id}`);
}

/**
 * Maps one conversation's events, fed in order, to SDK events (none for events the SDK has no model for:
 * actions and results outside a tool call, such as recalls and the user's own commands, the `stopped`
 * state, and stored events the model keeps as legacy). It keeps state because Dockhand records an action
 * that waited for confirmation twice (asked, then confirmed or rejected) where the SDK has one ActionEvent,
 * which the observation then refers to.
 */
export class SdkEventMapper {
  /** The SDK id of each tool call's ActionEvent. */
  private readonly actions = new Map<string, string>();

  constructor(private readonly conversationId: string) {}

  map(event: DockhandEvent): SdkEvent[] {
    const mapped = this.mapOne(event);
    return mapped === null ? [] : Array.isArray(mapped) ? mapped : [mapped];
  }

  private mapOne(event: DockhandEvent): SdkEvent | SdkEvent[] | null {
    const base: Base = { id: `${this.conversationId}:${event.id}`, timestamp: event.timestamp };
    const call = event.toolCall;
    switch (event.kind) {
      case 'message':
        return {
          kind: 'MessageEvent',
          ...base,
          source: event.source === 'user' ? 'user' : 'agent',
          llm_message: {
            role: event.source === 'user' ? 'user' : 'assistant',
            content: [
              text(event.text),
              ...(event.imageUrls?.length ? [{ type: 'image' as const, image_urls: event.imageUrls }] : []),
            ],
          },
          activated_skills: [],
          extended_content: [],
        };
      case 'system':
        return {
          kind: 'SystemPromptEvent',
          ...base,
          source: 'agent',
          system_prompt: text(event.prompt),
          tools: event.tools,
        };
      case 'status_request':
        return event.state === 'paused' ? { kind: 'PauseEvent', ...base, source: 'user' } : null;
      case 'condensation':
        return {
          kind: 'Condensation',
          ...base,
          source: 'environment',
          forgotten_event_ids: forgottenIds(this.conversationId, event),
          summary: event.summary,
          summary_offset: event.summaryOffset,
          llm_response_id: base.id,
        };
      case 'condensation_summary':
        return { kind: 'CondensationSummaryEvent', ...base, source: 'environment', summary: event.summary };
      case 'status': {
        const status = EXECUTION_STATUS[event.state];
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
      case 'error':
        return {
          kind: 'AgentErrorEvent',
          ...base,
          source: 'agent',
          tool_name: call?.name ?? '',
          tool_call_id: call?.id ?? '',
          error: event.text,
        };
      case 'user_rejected': {
        const reason = /\nReason: ([\s\S]+)$/.exec(event.text)?.[1];
        return {
          kind: 'UserRejectObservation',
          ...base,
          source: 'environment',
          tool_name: call?.name ?? '',
          tool_call_id: call?.id ?? '',
          rejection_reason: reason ?? DEFAULT_REJECTION,
          rejection_source: 'user',
          action_id: call ? this.actionId(event, call) : '',
        };
      }
      case 'thought':
      case 'command':
      case 'read':
      case 'edit':
      case 'fetch':
      case 'plan':
      case 'mcp_call':
      case 'finish':
        return call ? this.action(base, event, call) : null;
      case 'thought_result':
      case 'command_result':
      case 'read_result':
      case 'edit_result':
      case 'fetch_result':
      case 'plan_result':
      case 'mcp_result':
      case 'recall':
      case 'loop_detection':
      case 'notice':
        return call
          ? {
              kind: 'ObservationEvent',
              ...base,
              source: 'environment',
              tool_name: call.name,
              tool_call_id: call.id,
              observation: observationModel(event, call),
              action_id: this.actionId(event, call),
            }
          : null;
      default:
        return null;
    }
  }

  private action(base: Base, event: Action, call: ToolCall): SdkEvent | null {
    // The second record of an action that waited for confirmation: the SDK has sent it already.
    if (this.actions.has(call.id)) return null;
    this.actions.set(call.id, base.id);
    const risk = event.securityRisk === undefined ? undefined : RISKS[event.securityRisk];
    return {
      kind: 'ActionEvent',
      ...base,
      source: 'agent',
      thought: event.thought ? [text(event.thought)] : [],
      action: actionModel(call),
      tool_name: call.name,
      tool_call_id: call.id,
      tool_call: {
        id: call.id,
        name: call.name,
        arguments: JSON.stringify(call.rawInput ?? {}),
        origin: 'completion',
      },
      llm_response_id: call.responseId ?? '',
      security_risk: risk ?? 'UNKNOWN',
    };
  }

  private actionId(event: DockhandEvent, call: ToolCall): string {
    return (
      this.actions.get(call.id) ?? (event.cause === undefined ? '' : `${this.conversationId}:${event.cause}`)
    );
  }
}

/** Every SDK event of a conversation's events, in order. */
export function sdkEvents(conversationId: string, events: Iterable<DockhandEvent>): SdkEvent[] {
  const mapper = new SdkEventMapper(conversationId);
  const mapped: SdkEvent[] = [];
  for (const event of events) mapped.push(...mapper.map(event));
  return mapped;
}
