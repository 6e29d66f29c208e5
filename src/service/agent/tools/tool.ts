import type { z } from 'zod';
import type { ShellSession } from '../../sandbox/shell/shell-session';
import type { AnalyzedAction } from '../security/rules-analyzer';
import type { Editor } from './str-replace-editor/editor';
import type { TaskList } from './task-list';

/** What a tool may use while it runs. */
export interface ToolContext {
  shell: ShellSession;
  editor: Editor;
  tasks: TaskList;
}

/** The V0 action event a call becomes (`action`, `args`, summary `message`). */
export interface ToolAction {
  action: string;
  args: Record<string, unknown>;
  message: string;
}

/** The V0 observation a call produces. */
export interface ToolObservation {
  observation: string;
  content: string;
  extras: Record<string, unknown>;
  message: string;
  success?: boolean;
}

/**
 * What a tool file declares: its name, description (a text file beside it), zod parameters, how a call is
 * shown as an event, how the security analyzer sees it, and what running it does. `defineTool` makes it an
 * `AgentTool`.
 */
export interface ToolSpec<P = Record<string, unknown>> {
  name: string;
  description: string;
  parameters: z.ZodType<P>;
  /** The JSON schema the model is given, when the tool has one of its own (MCP); else made from `parameters`. */
  jsonSchema?: Record<string, unknown>;
  /**
   * Whether the model declares a `security_risk` with each call (added to the schema it sees): `true` as a
   * required property, `'optional'` as an optional one (MCP tools).
   */
  declaresRisk: boolean | 'optional';
  /** Whether a call changes anything (confirmation mode asks only about these). */
  hasSideEffects(args: P): boolean;
  toAction(args: P, thought: string): ToolAction;
  /** The call as the rules analyzer sees it. */
  analyzed(args: P): AnalyzedAction;
  /** Runs the call. Absent for `finish`, which only ends the task. */
  execute?(args: P, context: ToolContext): Promise<ToolObservation>;
}

/** The model's arguments read as a tool's parameters, or the text that tells the model what was wrong. */
export type ParsedArguments<P> = { ok: true; args: P } | { ok: false; error: string };

/** One tool the model can call: its declaration and the reading of the arguments the model wrote. */
export interface AgentTool<P = Record<string, unknown>> extends ToolSpec<P> {
  /**
   * `args` as the tool's parameters; `args` is undefined when the model's text was not a JSON object, and
   * `unreadable` then says why.
   */
  parse(args: Record<string, unknown> | undefined, unreadable?: string): ParsedArguments<P>;
}
