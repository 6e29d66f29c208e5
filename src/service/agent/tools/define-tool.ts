import type { z } from 'zod';
import type { AgentTool, ParsedArguments, ToolSpec } from './tool';

/** A tool that always runs something (all but `finish`). */
export type RunnableTool<P> = AgentTool<P> & Pick<Required<AgentTool<P>>, 'execute'>;

/** The zod issues in one line: `path: message` each, `arguments` for the object itself. */
function issuesText(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ');
}

/** What the model reads when a call's arguments do not fit the tool; it is asked to retry. */
export function invalidArgumentsText(tool: string, reason: string | undefined): string {
  return `Invalid arguments for tool ${tool}: ${reason}. Please retry with valid arguments.`;
}

/**
 * A tool from its declaration: the tool owns the reading of its arguments (its zod parameters, defaults and
 * transforms applied) and the text a model gets for arguments that do not fit, so callers never parse them.
 */
export function defineTool<P>(spec: ToolSpec<P> & Pick<Required<ToolSpec<P>>, 'execute'>): RunnableTool<P>;
export function defineTool<P>(spec: ToolSpec<P>): AgentTool<P>;
export function defineTool<P>(spec: ToolSpec<P>): AgentTool<P> {
  return {
    ...spec,
    parse(args, unreadable): ParsedArguments<P> {
      if (!args) return { ok: false, error: invalidArgumentsText(spec.name, unreadable) };
      const parsed = spec.parameters.safeParse(args);
      return parsed.success
        ? { ok: true, args: parsed.data }
        : { ok: false, error: invalidArgumentsText(spec.name, issuesText(parsed.error)) };
    },
  };
}
