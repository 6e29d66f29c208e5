import { describeAgentConversation } from './agent-conversation';
import { OPENCODE } from './opencode-dialect';

// opencode in a gated sandbox (loopback only): its model calls reach the gateway through the sandbox's link.
await describeAgentConversation({ ...OPENCODE, variant: ' (gated network)', network: 'gated' });
