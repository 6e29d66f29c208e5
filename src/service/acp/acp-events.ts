import type {
  ContentBlock,
  PermissionOption,
  PlanEntry,
  SessionUpdate,
  ToolCallContent,
  ToolCallUpdate,
  ToolKind,
  UsageUpdate,
} from '@agentclientprotocol/sdk';
import { createPatch } from 'diff';
import type { NewEvent, V0Event } from '../../shared/api/events';
import { agentMessage, errorObservation } from '../agent/agent-events';
import { callFromV0, metricsFromV0, toNewV0 } from '../events/model/v0-codec';
import type { CallMetadata } from '../agent/call-metadata';
import { REJECTED_TEXT } from '../agent/loop-events';

/**
 * The one place where ACP's `session/update`s and permission requests become a conversation's V0 events,
 * so that the V0 socket.io and SSE streams, V1 events and the agent-server endpoint show an ACP agent's
 * work as they show Dockhand's own agent's: message and thought chunks coalesced into one message or
 * `think` action each, tool calls by ACP kind (execute as a command and its output, edit with its diff,
 * read, think, the rest as a tool call of their own name), the plan as the task list, usage on the
 * next agent message.
 */

type Append = (event: NewEvent) => V0Event;

/** How an ACP tool call shows: the V0 action and observation of its kind. */
type Shape = 'run' | 'edit' | 'read' | 'think' | 'tool';

const SHAPES: Partial<Record<ToolKind, Shape>> = {
  execute: 'run',
  edit: 'edit',
  delete: 'edit',
  move: 'edit',
  read: 'read',
  think: 'think',
};

/** The Dockhand tool whose V0 and SDK shapes an ACP kind takes (OpenHands clients know only those). */
const FUNCTIONS: Record<Exclude<Shape, 'tool'>, string> = {
  run: 'execute_bash',
  edit: 'str_replace_editor',
  read: 'str_replace_editor',
  think: 'think',
};

/** One tool call as the updates so far describe it. */
interface Call {
  id: string;
  title: string;
  kind: ToolKind;
  status: ToolCallUpdate['status'];
  content: ToolCallContent[];
  locations: { path: string }[];
  rawInput: unknown;
  rawOutput: unknown;
  /** What a terminal of the agent's own printed for it, and its exit code (Codex's `_meta` extension). */
  terminalOutput: string;
  exitCode: number | null;
  /** The id of its action event once recorded, and its confirmation state then. */
  actionId: number | null;
  answered: boolean;
}

export type PermissionAnswer = 'confirmed' | 'rejected';

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function blockText(block: ContentBlock): string {
  if (block.type === 'text') return block.text;
  if (block.type === 'resource_link') return block.uri;
  if (block.type === 'resource') return 'text' in block.resource ? block.resource.text : block.resource.uri;
  return `[${block.type}]`;
}

function unifiedDiff(path: string, oldText: string | null | undefined, newText: string): string {
  return createPatch(path, oldText ?? '', newText);
}

function contentText(content: ToolCallContent[]): string {
  return content
    .map((item) =>
      item.type === 'content'
        ? blockText(item.content)
        : item.type === 'diff'
          ? unifiedDiff(item.path, item.oldText, item.newText)
          : `[terminal ${item.terminalId}]`,
    )
    .join('\n');
}

/** What a call's raw output says, as text: a string, `output`/`stdout`+`stderr`, else its JSON. */
function outputText(raw: unknown): string {
  if (raw === undefined || raw === null) return '';
  if (typeof raw === 'string') return raw;
  const fields = record(raw);
  const joined = [fields.output, fields.stdout, fields.stderr, fields.formatted_output]
    .map(str)
    .filter(Boolean)
    .join('\n');
  return joined || JSON.stringify(raw);
}

function exitCodeOf(call: Call): number {
  if (call.exitCode !== null) return call.exitCode;
  const raw = record(call.rawOutput);
  const code = raw.exit_code ?? raw.exitCode ?? raw.returncode ?? record(raw.metadata).exit;
  if (typeof code === 'number') return code;
  return call.status === 'failed' ? 1 : 0;
}

/** The command of an execute call: `command` (a string or argv) in the raw input, else the title. */
function commandOf(call: Call): string {
  const input = record(call.rawInput);
  const command = input.command ?? input.cmd;
  if (Array.isArray(command)) return command.map(String).join(' ');
  return str(command) ?? call.title;
}

function pathOf(call: Call): string {
  const input = record(call.rawInput);
  const diff = call.content.find((item) => item.type === 'diff');
  return (
    call.locations[0]?.path ??
    (diff?.type === 'diff' ? diff.path : null) ??
    str(input.file_path) ??
    str(input.path) ??
    str(input.filePath) ??
    call.title
  );
}

function diffOf(call: Call): { path: string; oldText: string; newText: string } | null {
  const diff = call.content.find((item) => item.type === 'diff');
  return diff?.type === 'diff'
    ? { path: diff.path, oldText: diff.oldText ?? '', newText: diff.newText }
    : null;
}

function shapeOf(call: Call): Shape {
  return SHAPES[call.kind] ?? 'tool';
}

/** The tool's own name for calls shown as such: the ACP `title`'s first word, made a tool name. */
function toolName(call: Call): string {
  return `${call.kind}_${call.title.split(/\s/)[0]?.replace(/[^A-Za-z0-9_-]/g, '') || 'tool'}`;
}

function metadataOf(call: Call, args: Record<string, unknown>): CallMetadata {
  const shape = shapeOf(call);
  return {
    function_name: shape === 'tool' ? toolName(call) : FUNCTIONS[shape],
    tool_call_id: call.id,
    model_response: { id: call.id },
    total_calls_in_response: 1,
    arguments: args,
  };
}

/** The call's action: `run`, `edit`, `read`, `think` or `call_tool_mcp`, with what the agent gave. */
function actionOf(call: Call): {
  action: string;
  args: Record<string, unknown>;
  message: string;
  call: Record<string, unknown>;
} {
  const acp = { tool_call_id: call.id, kind: call.kind, title: call.title };
  switch (shapeOf(call)) {
    case 'run': {
      const command = commandOf(call);
      return {
        action: 'run',
        args: {
          command,
          is_input: false,
          thought: '',
          blocking: false,
          is_static: false,
          cwd: null,
          hidden: false,
          acp,
        },
        message: `Running command: ${command}`,
        call: { command },
      };
    }
    case 'edit': {
      const path = pathOf(call);
      const diff = diffOf(call);
      return {
        action: 'edit',
        args: {
          path,
          command: call.kind === 'edit' ? 'str_replace' : call.kind,
          file_text: null,
          old_str: diff?.oldText ?? null,
          new_str: diff?.newText ?? null,
          insert_line: null,
          content: '',
          start: 1,
          end: -1,
          thought: '',
          acp,
        },
        message: `Editing file: ${path}`,
        call: { command: 'str_replace', path },
      };
    }
    case 'read': {
      const path = pathOf(call);
      return {
        action: 'read',
        args: { path, start: 0, end: -1, thought: '', view_range: null, acp },
        message: `Reading file: ${path}`,
        call: { command: 'view', path },
      };
    }
    case 'think':
      return {
        action: 'think',
        args: { thought: call.title, acp },
        message: call.title,
        call: { thought: call.title },
      };
    case 'tool': {
      const input = record(call.rawInput);
      return {
        action: 'call_tool_mcp',
        args: { name: toolName(call), arguments: input, thought: '', acp },
        message: call.title,
        call: input,
      };
    }
  }
}

/** The observation answering a finished call. */
function observationOf(call: Call, actionId: number, metadata: CallMetadata): NewEvent {
  const text = contentText(call.content) || outputText(call.rawOutput);
  const answer = { cause: actionId, tool_call_metadata: metadata as unknown as Record<string, unknown> };
  if (call.status === 'failed') {
    return toNewV0(
      errorObservation(text || `${call.title} failed`, {
        cause: actionId,
        toolCall: callFromV0(metadata as unknown as Record<string, unknown>),
      }),
    );
  }
  switch (shapeOf(call)) {
    case 'run': {
      const command = commandOf(call);
      const exitCode = exitCodeOf(call);
      return {
        source: 'agent',
        message: `Command \`${command}\` executed with exit code ${exitCode}.`,
        observation: 'run',
        content: call.terminalOutput || outputText(call.rawOutput) || text,
        extras: { command, hidden: false, metadata: { exit_code: exitCode } },
        success: exitCode === 0,
        ...answer,
      };
    }
    case 'edit': {
      const path = pathOf(call);
      const diff = diffOf(call);
      return {
        source: 'agent',
        message: `I edited the file ${path}.`,
        observation: 'edit',
        content: text,
        extras: {
          path,
          prev_exist: Boolean(diff?.oldText),
          old_content: diff?.oldText ?? null,
          new_content: diff?.newText ?? null,
          diff: diff ? unifiedDiff(path, diff.oldText, diff.newText) : null,
        },
        ...answer,
      };
    }
    case 'read': {
      const path = pathOf(call);
      return {
        source: 'agent',
        message: `I read the file ${path}.`,
        observation: 'read',
        content: text,
        extras: { path },
        ...answer,
      };
    }
    case 'think':
      return { source: 'agent', message: text, observation: 'think', content: text, extras: {}, ...answer };
    case 'tool':
      return {
        source: 'agent',
        message: text,
        observation: 'mcp',
        content: text,
        extras: { name: toolName(call), arguments: record(call.rawInput) },
        ...answer,
      };
  }
}

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
