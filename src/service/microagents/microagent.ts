import type { z } from 'zod';
import type { MCPStdioServer } from '../../shared/api/mcp';

/** repo: always in context; knowledge: recalled when a trigger appears in a user message; task: knowledge with inputs. */
export type MicroagentType = 'repo' | 'knowledge' | 'task';

export interface MicroagentInput {
  name: string;
  description: string;
}

export type McpStdioServer = z.infer<typeof MCPStdioServer>;

export interface Microagent {
  name: string;
  type: MicroagentType;
  content: string;
  /** Keywords that recall a knowledge or task microagent (case-insensitive substrings); empty for repo. */
  triggers: string[];
  inputs: MicroagentInput[];
  /** The names of its MCP stdio servers. */
  tools: string[];
  /** Where it came from: a file path, or `builtin:<file>`. */
  source: string;
  mcpStdioServers: McpStdioServer[];
}
