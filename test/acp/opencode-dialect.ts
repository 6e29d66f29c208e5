import type { AgentDialect } from './agent-conversation';
import { toolNames } from './agent-conversation';

const tool = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, args }] });

/** How opencode's model calls look (`opencode acp`, its baseline Linux binary, on an OpenAI-compatible API). */
export const OPENCODE: AgentDialect = {
  kind: 'opencode',
  llmModel: 'openai/gpt-4o',
  api: 'openai',
  bash: (command) => tool('bash', { command, description: command }),
  read: (path) => tool('read', { filePath: path }),
  edit: (path, oldText, newText) => tool('edit', { filePath: path, oldString: oldText, newString: newText }),
  isTurn: (request) => toolNames(request).includes('bash'),
  rejectionEndsTurn: true,
  process: 'opencode ac[p]',
};
