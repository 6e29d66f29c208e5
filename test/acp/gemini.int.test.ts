import { describeAgentConversation, toolNames } from './agent-conversation';

const tool = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, args }] });

// Gemini CLI (`gemini --acp`) speaks Gemini's API to the gateway, which translates each call (streamed) to
// the scripted OpenAI-compatible Chat Completions server.
await describeAgentConversation({
  kind: 'gemini',
  variant: ' on an OpenAI-compatible model',
  llmModel: 'openai/gpt-4o',
  api: 'openai',
  bash: (command) => tool('run_shell_command', { command, description: command }),
  read: (path) => tool('read_file', { file_path: path }),
  edit: (path, oldText, newText) =>
    tool('replace', {
      file_path: path,
      old_string: oldText,
      new_string: newText,
      instruction: 'Edit the greeting.',
    }),
  isTurn: (request) => toolNames(request).includes('run_shell_command'),
  silentCommands: true,
  forgetsLoadedSession: true,
  process: 'gemini.j[s]',
});
