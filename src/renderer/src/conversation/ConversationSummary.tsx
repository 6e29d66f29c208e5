import type { ConversationInfo } from '../../../shared/api/conversations';
import type { ConversationUsage } from '../api/conversation-queries';
import { conversationHref } from '../routing';
import { costLabel } from './cost-label';
import { RepositoryLabel } from './RepositoryLabel';
import { StatePill } from './StatePill';
import { formatWhen } from './when';

interface ConversationSummaryProps {
  conversation: ConversationInfo;
  /** Its model and metrics, once the V1 listing is loaded. */
  usage?: ConversationUsage | undefined;
}

/** The changed-file count of a row, as the service last counted it. */
function changedFilesText(count: number): string {
  if (count === 0) return 'No changes';
  return count === 1 ? '1 file changed' : `${count} files changed`;
}

/**
 * A conversation's title (a link to it), state, repository@branch, changed files, model, cost and when it
 * last changed.
 */
export function ConversationSummary({ conversation, usage }: ConversationSummaryProps) {
  const changed = conversation.changed_files;
  const cost = costLabel(usage?.metrics ?? null);
  return (
    <div className="conversation-summary">
      <a className="conversation-link" href={conversationHref(conversation.conversation_id)}>
        {conversation.title}
      </a>
      <p className="conversation-meta">
        <StatePill state={conversation.dockhand_state} />
        <RepositoryLabel conversation={conversation} />
        {changed !== null && (
          <span
            className="conversation-changes"
            title="Files changed in its repository, when the agent last stopped"
          >
            {changedFilesText(changed)}
          </span>
        )}
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
