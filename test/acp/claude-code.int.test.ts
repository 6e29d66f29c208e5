import { describeAgentConversation, toolNames } from './agent-conversation';

const tool = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, args }] });

// Claude Code (claude-agent-acp) against scripted Anthropic Messages, streamed.
await describeAgentConversation({
  kind: 'claude-code',
  llmModel: 'anthropic/claude-sonnet-4-5',
  api: 'anthropic',
  bash: (command) => tool('Bash', { command, description: command }),
  read: (path) => tool('Read', { file_path: path }),
  edit: (path, oldText, newText) =>
    tool('Edit', { file_path: path, old_string: oldText, new_string: newText }),
  isTurn: (request) => toolNames(request).includes('Bash'),
  process: 'claude-agent-ac[p]',
});
