import type { ToolCallContent, ToolCallUpdate, ToolKind } from '@agentclientprotocol/sdk';
import type { NewEvent } from '../../shared/api/events';
import { errorObservation } from '../agent/agent-events';
import { callFromV0, toNewV0 } from '../events/model/v0-codec';
import type { CallMetadata } from '../agent/call-metadata';
import { contentText, outputText, record, str, unifiedDiff } from './acp-content';

/**
 * The shapes of an ACP tool call by its kind: the V0 action that records it, the observation that answers
 * it and the tool call metadata both carry (execute as a command and its output, edit with its diff, read,
 * think, the rest as a tool call of their own name).
 */

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
export interface Call {
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

export function metadataOf(call: Call, args: Record<string, unknown>): CallMetadata {
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
export function actionOf(call: Call): {
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
export function observationOf(call: Call, actionId: number, metadata: CallMetadata): NewEvent {
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
