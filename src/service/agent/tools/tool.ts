import type { z } from 'zod';
import type { NewDockhandEvent } from '../../events/model/dockhand-event';
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

type Fields<E> = E extends NewDockhandEvent ? Omit<E, 'source' | 'timestamp'> : never;

/** The action event a call becomes: its kind and the kind's own fields (the loop adds the call's facts). */
export type ToolAction = Fields<
  Extract<
    NewDockhandEvent,
    { kind: 'thought' | 'command' | 'read' | 'edit' | 'fetch' | 'plan' | 'mcp_call' | 'finish' }
  >
>;

/** The result event a call produces. */
export type ToolObservation = Fields<
  Extract<
    NewDockhandEvent,
    {
      kind:
        | 'thought_result'
        | 'command_result'
        | 'read_result'
        | 'edit_result'
        | 'fetch_result'
        | 'plan_result'
        | 'mcp_result';
    }
  >
>;

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
