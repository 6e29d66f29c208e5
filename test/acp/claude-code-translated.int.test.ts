import { describeAgentConversation } from './agent-conversation';
import { CLAUDE_CODE } from './claude-code-dialect';

// Claude Code on an OpenAI-compatible model: it speaks Anthropic Messages to the gateway, which translates
// each call (streamed) to the scripted Chat Completions server and the answers back.
await describeAgentConversation({
  ...CLAUDE_CODE,
  variant: ' on an OpenAI-compatible model',
  llmModel: 'openai/gpt-4o',
  api: 'openai',
});
