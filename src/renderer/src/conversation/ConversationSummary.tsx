import type { ConversationInfo } from '../../../shared/api/conversations';
import { conversationHref } from '../routing';
import { StatusBadge } from './StatusBadge';
import { formatWhen } from './when';
import { agentStateText, runtimeStatusText } from './words';

/** A conversation's title (a link to it), status and when it last changed. */
export function ConversationSummary({ conversation }: { conversation: ConversationInfo }) {
  const detail =
    conversation.status === 'RUNNING'
      ? agentStateText(conversation.agent_state)
      : runtimeStatusText(conversation.runtime_status);
  return (
    <div className="conversation-summary">
      <a className="conversation-link" href={conversationHref(conversation.conversation_id)}>
        {conversation.title}
      </a>
      <p className="conversation-meta">
        <StatusBadge status={conversation.status} />
        {detail && <span>{detail}</span>}
        <span>Updated {formatWhen(conversation.last_updated_at)}</span>
      </p>
    </div>
  );
}
