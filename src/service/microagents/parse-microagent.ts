import { z } from 'zod';
import { MCPStdioServer } from '../../shared/api/mcp';
import { splitFrontmatter } from './frontmatter';
import type { Microagent } from './microagent';

export const MISSING_INPUTS_SENTENCE =
  "If the user didn't provide any of these variables, ask the user to provide them first.";

// `version` and `agent` are accepted and ignored, like any other unknown key.
const MicroagentFrontmatter = z.object({
  name: z.string().trim().min(1).nullish(),
  // Declared types are checked, but the type is always inferred from inputs and triggers.
  type: z.enum(['repo', 'knowledge', 'task']).nullish(),
  triggers: z.array(z.string().trim().min(1)).nullish(),
  inputs: z.array(z.object({ name: z.string().trim().min(1), description: z.string().nullish() })).nullish(),
  mcp_tools: z.object({ stdio_servers: z.array(MCPStdioServer).nullish() }).nullish(),
});

export interface MicroagentFile {
  text: string;
  /** The name when the frontmatter gives none: the path below the microagents folder, without `.md`. */
  defaultName: string;
  source: string;
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || 'frontmatter'}: ${issue.message}`).join('; ');
}

/**
 * A microagent from a Markdown file with optional YAML frontmatter. The type is inferred: inputs make a task
 * (recalled by `/<name>`), triggers a knowledge microagent, anything else a repo microagent.
 * Throws an Error saying what is wrong with the file.
 */
export function parseMicroagent(file: MicroagentFile): Microagent {
  const { data, body } = splitFrontmatter(file.text);
  const parsed = MicroagentFrontmatter.safeParse(data);
  if (!parsed.success) throw new Error(describeIssues(parsed.error));
  const meta = parsed.data;
  const name = meta.name ?? file.defaultName;
  const triggers = meta.triggers ?? [];
  const inputs = (meta.inputs ?? []).map((input) => ({
    name: input.name,
    description: input.description ?? '',
  }));
  const servers = meta.mcp_tools?.stdio_servers ?? [];
  const common = {
    name,
    inputs,
    tools: servers.map((server) => server.name),
    source: file.source,
    mcpStdioServers: servers,
  };
  if (inputs.length > 0) {
    const command = `/${name}`;
    return {
      ...common,
      type: 'task',
      content: `${body}\n\n${MISSING_INPUTS_SENTENCE}`,
      triggers: triggers.includes(command) ? triggers : [...triggers, command],
    };
  }
  return { ...common, type: triggers.length > 0 ? 'knowledge' : 'repo', content: body, triggers };
}

/** A repo microagent from a file read as plain text (AGENTS.md, .cursorrules, .openhands_instructions). */
export function plainRepoMicroagent(name: string, text: string, source: string): Microagent {
  return {
    name,
    type: 'repo',
    content: text.trim(),
    triggers: [],
    inputs: [],
    tools: [],
    source,
    mcpStdioServers: [],
  };
}
