import { describeAgentConversation } from './agent-conversation';
import { CLAUDE_CODE } from './claude-code-dialect';

// Claude Code (claude-agent-acp) against scripted Anthropic Messages, streamed.
await describeAgentConversation({
  ...CLAUDE_CODE,
  llmModel: 'anthropic/claude-sonnet-4-5',
  api: 'anthropic',
});
