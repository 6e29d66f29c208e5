import { describeAgentConversation, toolNames } from './agent-conversation';

const tool = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, args }] });

// Claude Code on an OpenAI-compatible model: it speaks Anthropic Messages to the gateway, which translates
// each call (streamed) to the scripted Chat Completions server and the answers back.
await describeAgentConversation({
  kind: 'claude-code',
  variant: ' on an OpenAI-compatible model',
  llmModel: 'openai/gpt-4o',
  api: 'openai',
  bash: (command) => tool('Bash', { command, description: command }),
  read: (path) => tool('Read', { file_path: path }),
  edit: (path, oldText, newText) =>
    tool('Edit', { file_path: path, old_string: oldText, new_string: newText }),
  isTurn: (request) => toolNames(request).includes('Bash'),
  process: 'claude-agent-ac[p]',
});
