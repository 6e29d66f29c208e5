import { describeAgentConversation, toolNames } from './agent-conversation';

const tool = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, args }] });

// opencode in a gated sandbox (loopback only): its model calls reach the gateway through the sandbox's link.
await describeAgentConversation({
  kind: 'opencode',
  variant: ' (gated network)',
  llmModel: 'openai/gpt-4o',
  api: 'openai',
  bash: (command) => tool('bash', { command, description: command }),
  read: (path) => tool('read', { filePath: path }),
  edit: (path, oldText, newText) => tool('edit', { filePath: path, oldString: oldText, newString: newText }),
  isTurn: (request) => toolNames(request).includes('bash'),
  rejectionEndsTurn: true,
  process: 'opencode ac[p]',
  network: 'gated',
});
