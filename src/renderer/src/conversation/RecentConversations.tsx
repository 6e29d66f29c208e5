import { useConversationUsage, useRecentConversations } from '../api/conversation-queries';
import { ROUTES } from '../routing';
import { Notice } from '../ui/Notice';
import { ConversationSummary } from './ConversationSummary';

const RECENT = 10;

/** The latest conversations, or an empty state before the first one. */
export function RecentConversations() {
  const recent = useRecentConversations(RECENT);
  const usage = useConversationUsage();
  return (
    <section className="panel" aria-labelledby="recent-heading">
      <div className="panel-heading">
        <h2 id="recent-heading">Recent conversations</h2>
        {recent.data?.results.length ? <a href={ROUTES.conversations}>All conversations</a> : null}
      </div>
      {recent.isPending && <p className="muted">Loading conversations…</p>}
      {recent.isError && (
        <Notice tone="error" title="Conversations could not be loaded">
          <p>{recent.error.message}</p>
        </Notice>
      )}
      {recent.data?.results.length === 0 && (
        <div className="empty-state">
          <p className="empty-state-title">No conversations yet</p>
          <p className="muted">Conversations you start appear here, with their status.</p>
        </div>
      )}
      {recent.data && recent.data.results.length > 0 && (
        <ul className="conversation-list" aria-label="Recent conversations">
          {recent.data.results.map((conversation) => (
            <li key={conversation.conversation_id} className="conversation-item">
              <ConversationSummary
                conversation={conversation}
                usage={usage.get(conversation.conversation_id)}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
