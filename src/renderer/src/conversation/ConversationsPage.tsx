import { useState } from 'react';
import { useConversationUsage, useConversationPages } from '../api/conversation-queries';
import { ROUTES } from '../routing';
import { Notice } from '../ui/Notice';
import { ConversationListItem } from './ConversationListItem';

/** Every conversation, newest first: search by title, rename, delete, and more pages on request. */
export function ConversationsPage() {
  const pages = useConversationPages();
  const usage = useConversationUsage();
  const [search, setSearch] = useState('');
  const all = pages.data?.pages.flatMap((page) => page.results) ?? [];
  const needle = search.trim().toLowerCase();
  const shown = needle ? all.filter((c) => c.title.toLowerCase().includes(needle)) : all;

  return (
    <>
      <h1>Conversations</h1>
      <section className="panel">
        {pages.isPending && <p className="muted">Loading conversations…</p>}
        {pages.isError && (
          <Notice tone="error" title="Conversations could not be loaded">
            <p>{pages.error.message}</p>
          </Notice>
        )}
        {pages.data && all.length === 0 && (
          <div className="empty-state">
            <p className="empty-state-title">No conversations yet</p>
            <p className="muted">
              <a href={ROUTES.home}>Start one from Home</a>.
            </p>
          </div>
        )}
        {all.length > 0 && (
          <>
            <div className="field list-search">
              <label htmlFor="conversation-search">Search by title</label>
              <input
                id="conversation-search"
                type="search"
                autoComplete="off"
                value={search}
                onChange={(e) => setSearch(e.target.value)}
                aria-describedby="conversation-search-hint"
              />
              <p id="conversation-search-hint" className="field-hint" role="status">
                {needle
                  ? `${shown.length} of ${all.length} ${pages.hasNextPage ? 'loaded ' : ''}conversations match.`
                  : `${all.length} ${pages.hasNextPage ? 'loaded ' : ''}conversations.`}
              </p>
            </div>
            {shown.length === 0 ? (
              <p className="empty-inline">No title contains “{search.trim()}”.</p>
            ) : (
              <ul className="conversation-list" aria-label="Conversations">
                {shown.map((conversation) => (
                  <ConversationListItem
                    key={conversation.conversation_id}
                    conversation={conversation}
                    usage={usage.get(conversation.conversation_id)}
                  />
                ))}
              </ul>
            )}
          </>
        )}
        {pages.hasNextPage && (
          <div className="form-actions">
            <button
              type="button"
              className="button-secondary"
              disabled={pages.isFetchingNextPage}
              onClick={() => void pages.fetchNextPage()}
            >
              {pages.isFetchingNextPage ? 'Loading…' : 'Load more'}
            </button>
          </div>
        )}
      </section>
    </>
  );
}
