import type { AgentDialect } from './agent-conversation';
import { toolNames } from './agent-conversation';

const tool = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, args }] });

/** How Claude Code's model calls look, whatever model serves them: its tools and its process. */
export const CLAUDE_CODE: Omit<AgentDialect, 'llmModel' | 'api' | 'variant'> = {
  kind: 'claude-code',
  bash: (command) => tool('Bash', { command, description: command }),
  read: (path) => tool('Read', { file_path: path }),
  edit: (path, oldText, newText) =>
    tool('Edit', { file_path: path, old_string: oldText, new_string: newText }),
  isTurn: (request) => toolNames(request).includes('Bash'),
  process: 'claude-agent-ac[p]',
};
