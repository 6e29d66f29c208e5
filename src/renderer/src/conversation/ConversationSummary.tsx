import type { ConversationInfo } from '../../../shared/api/conversations';
import type { SandboxInfo } from '../../../shared/api/sandboxes';
import type { ConversationUsage } from '../api/conversation-queries';
import { conversationState } from '../../../shared/conversation-state';
import { conversationHref } from '../routing';
import { costLabel } from './cost-label';
import { RepositoryLabel } from './RepositoryLabel';
import { StatePill } from './StatePill';
import { formatWhen } from './when';

interface ConversationSummaryProps {
  conversation: ConversationInfo;
  /** Its sandbox, when the list of sandboxes is at hand. */
  sandbox?: SandboxInfo | undefined;
  /** Its model and metrics, once the V1 listing is loaded. */
  usage?: ConversationUsage | undefined;
}

/** A conversation's title (a link to it), state, repository@branch, model, cost and when it last changed. */
export function ConversationSummary({ conversation, sandbox, usage }: ConversationSummaryProps) {
  const state = conversationState({
    ...conversation,
    sandbox_status: sandbox?.status,
    sandbox_error: sandbox?.error,
  });
  const cost = costLabel(usage?.metrics ?? null);
  return (
    <div className="conversation-summary">
      <a className="conversation-link" href={conversationHref(conversation.conversation_id)}>
        {conversation.title}
      </a>
      <p className="conversation-meta">
        <StatePill state={state} />
        <RepositoryLabel conversation={conversation} />
        {usage?.llm_model && (
          <span className="conversation-model" title="Model">
            {usage.llm_model}
          </span>
        )}
        {usage && (
          <span className="conversation-cost" title={cost.title}>
            {cost.text}
          </span>
        )}
        <span>Updated {formatWhen(conversation.last_updated_at)}</span>
      </p>
    </div>
  );
}
