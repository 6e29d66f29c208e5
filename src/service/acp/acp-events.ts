import type {
  PermissionOption,
  PlanEntry,
  SessionUpdate,
  ToolCallUpdate,
  UsageUpdate,
} from '@agentclientprotocol/sdk';
import type { NewEvent, V0Event } from '../../shared/api/events';
import { agentMessage, errorObservation } from '../agent/agent-events';
import { callFromV0, metricsFromV0, toNewV0 } from '../events/model/v0-codec';
import { REJECTED_TEXT } from '../agent/loop-events';
import { blockText, record, str } from './acp-content';
import { actionOf, type Call, metadataOf, observationOf } from './acp-tool-calls';

/**
 * The one place where ACP's `session/update`s and permission requests become a conversation's V0 events,
 * so that the V0 socket.io and SSE streams, V1 events and the agent-server endpoint show an ACP agent's
 * work as they show Dockhand's own agent's: message and thought chunks coalesced into one message or
 * `think` action each, tool calls by ACP kind (their shapes are `acp-tool-calls.ts`), the plan as the task
 * list, usage on the next agent message.
 */

type Append = (event: NewEvent) => V0Event;

export type PermissionAnswer = 'confirmed' | 'rejected';

const PLAN_STATUS: Record<PlanEntry['status'], string> = {
  pending: 'todo',
  in_progress: 'in_progress',
  completed: 'done',
};

/**
 * Maps one ACP session's updates, fed in order, to V0 events appended through `append`. Text and thought
 * chunks are held until something else happens (a tool call, the plan, the end of the turn: `flush()`),
 * then recorded as one event each.
 */
export class AcpEvents {
  private readonly calls = new Map<string, Call>();
  private text = '';
  private thought = '';
  private usage: UsageUpdate | null = null;

  constructor(private readonly append: Append) {}

  update(update: SessionUpdate): void {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        if (this.thought) this.flush();
        this.text += blockText(update.content);
        return;
      case 'agent_thought_chunk':
        if (this.text) this.flush();
        this.thought += blockText(update.content);
        return;
      case 'tool_call':
      case 'tool_call_update':
        this.flush();
        this.toolCall(update);
        return;
      case 'plan':
        this.flush();
        this.plan(update.entries);
        return;
      case 'usage_update':
        this.usage = update;
        return;
      default:
        // user_message_chunk (a loaded session's history, recorded already), modes, commands: nothing to show.
        return;
    }
  }

  /** Records the message and thought held so far. */
  flush(): void {
    const thought = this.thought.trim();
    const text = this.text.trim();
    this.thought = '';
    this.text = '';
    if (thought) this.append({ source: 'agent', message: thought, action: 'think', args: { thought } });
    if (text) {
      const usage = this.usage;
      const metrics = usage
        ? metricsFromV0({
            accumulated_cost: usage.cost?.amount ?? 0,
            accumulated_token_usage: { prompt_tokens: usage.used, context_window: usage.size },
          })
        : undefined;
      this.append(toNewV0(agentMessage(text, metrics)));
    }
  }

  /** A permission request: its call recorded as awaiting confirmation, with the agent's own options. */
  permissionAsked(toolCall: ToolCallUpdate, options: PermissionOption[]): void {
    this.flush();
    const call = this.merge(toolCall);
    this.recordAction(call, 'awaiting_confirmation', {
      acp_options: options.map((o) => ({ option_id: o.optionId, name: o.name, kind: o.kind })),
    });
  }

  /** A permission Dockhand granted itself (confirmation mode off): the call recorded as confirmed, saying so. */
  permissionGranted(toolCall: ToolCallUpdate, option: PermissionOption): void {
    this.flush();
    const call = this.merge(toolCall);
    this.recordAction(call, 'confirmed', {
      acp_permission: { option_id: option.optionId, kind: option.kind, answered_by: 'dockhand' },
    });
  }

  /**
   * The answer to a permission request: the call recorded again as confirmed or rejected (with who
   * answered when Dockhand did), a rejection answered at once with `user_rejected`.
   */
  permissionAnswered(
    toolCallId: string,
    answer: PermissionAnswer,
    note: Record<string, unknown>,
    reason = '',
  ): void {
    const call = this.calls.get(toolCallId);
    if (!call) return;
    const action = this.recordAction(call, answer, note);
    if (answer !== 'rejected') return;
    call.answered = true;
    const content = reason ? `${REJECTED_TEXT}\nReason: ${reason}` : REJECTED_TEXT;
    this.append({
      source: 'agent',
      message: content,
      observation: 'user_rejected',
      content,
      extras: {},
      cause: action.id,
      tool_call_metadata: metadataOf(call, actionOf(call).call) as unknown as Record<string, unknown>,
    });
  }

  /** Calls recorded but never answered (the turn ended or was stopped): each answered with `text`. */
  endOpenCalls(text: string): void {
    this.flush();
    for (const call of this.calls.values()) {
      if (call.actionId === null || call.answered) continue;
      call.answered = true;
      this.append(
        toNewV0(
          errorObservation(text, {
            cause: call.actionId,
            toolCall: callFromV0(metadataOf(call, actionOf(call).call) as unknown as Record<string, unknown>),
          }),
        ),
      );
    }
    this.calls.clear();
  }

  private toolCall(update: ToolCallUpdate & { title?: string | null }): void {
    const call = this.merge(update);
    if (call.status === 'in_progress' || call.status === 'completed' || call.status === 'failed') {
      if (call.actionId === null) this.recordAction(call, 'confirmed', {});
    }
    if (
      (call.status === 'completed' || call.status === 'failed') &&
      !call.answered &&
      call.actionId !== null
    ) {
      call.answered = true;
      this.append(observationOf(call, call.actionId, metadataOf(call, actionOf(call).call)));
    }
  }

  private merge(update: ToolCallUpdate): Call {
    const known = this.calls.get(update.toolCallId);
    const call: Call = known ?? {
      id: update.toolCallId,
      title: update.title ?? 'Tool call',
      kind: update.kind ?? 'other',
      status: update.status ?? 'pending',
      content: [],
      locations: [],
      rawInput: undefined,
      rawOutput: undefined,
      terminalOutput: '',
      exitCode: null,
      actionId: null,
      answered: false,
    };
    if (update.title) call.title = update.title;
    if (update.kind) call.kind = update.kind;
    if (update.status) call.status = update.status;
    if (update.content) call.content = update.content;
    if (update.locations) call.locations = update.locations;
    if (update.rawInput !== undefined) call.rawInput = update.rawInput;
    if (update.rawOutput !== undefined) call.rawOutput = update.rawOutput;
    const meta = record(update._meta);
    const delta = str(record(meta.terminal_output_delta).data);
    if (delta) call.terminalOutput += delta;
    const exit = record(meta.terminal_exit).exit_code;
    if (typeof exit === 'number') call.exitCode = exit;
    this.calls.set(call.id, call);
    return call;
  }

  private recordAction(call: Call, confirmation: string, extra: Record<string, unknown>): V0Event {
    const action = actionOf(call);
    const event = this.append({
      source: 'agent',
      message: action.message,
      action: action.action,
      args: { ...action.args, confirmation_state: confirmation, security_risk: -1, ...extra },
      tool_call_metadata: metadataOf(call, action.call) as unknown as Record<string, unknown>,
    });
    call.actionId = event.id;
    return event;
  }

  private plan(entries: PlanEntry[]): void {
    const taskList = entries.map((entry, index) => ({
      id: String(index + 1),
      title: entry.content,
      status: PLAN_STATUS[entry.status],
    }));
    const metadata = {
      function_name: 'task_tracker',
      tool_call_id: `plan-${Date.now()}`,
      model_response: { id: 'plan' },
      total_calls_in_response: 1,
      arguments: { command: 'plan', task_list: taskList },
    };
    const action = this.append({
      source: 'agent',
      message: `Updating the task list (${taskList.length} items)`,
      action: 'task_tracking',
      args: { command: 'plan', task_list: taskList, thought: '' },
      tool_call_metadata: metadata,
    });
    const content = `Task list has been updated with ${taskList.length} items.`;
    this.append({
      source: 'agent',
      message: content,
      observation: 'task_tracking',
      content,
      extras: { command: 'plan', task_list: taskList },
      cause: action.id,
      tool_call_metadata: metadata,
    });
  }
}
