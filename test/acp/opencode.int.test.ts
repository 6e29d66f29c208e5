import { describeAgentConversation } from './agent-conversation';
import { OPENCODE } from './opencode-dialect';

// opencode against a scripted OpenAI-compatible chat API.
await describeAgentConversation(OPENCODE);
