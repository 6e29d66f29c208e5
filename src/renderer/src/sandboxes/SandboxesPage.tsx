import { useMemo } from 'react';
import type { ConversationInfo } from '../../../shared/api/conversations';
import { useRecentConversations } from '../api/conversation-queries';
import { useSandboxes } from '../api/sandbox-queries';
import { Notice } from '../ui/Notice';
import { SandboxListItem } from './SandboxListItem';
import { SandboxSpecList } from './SandboxSpecList';
import { WarmPoolStatus } from './WarmPoolStatus';

/** Conversations looked at to name each sandbox's users (the API's largest page). */
const CONVERSATIONS_SHOWN = 100;
const NONE: readonly ConversationInfo[] = [];

function bySandbox(conversations: readonly ConversationInfo[]): Map<string, ConversationInfo[]> {
  const groups = new Map<string, ConversationInfo[]>();
  for (const conversation of conversations) {
    if (!conversation.sandbox_id) continue;
    const group = groups.get(conversation.sandbox_id) ?? [];
    group.push(conversation);
    groups.set(conversation.sandbox_id, group);
  }
  return groups;
}

/** The Docker sandboxes conversations run in, and the images they are made from. */
export function SandboxesPage() {
  const sandboxes = useSandboxes();
  const conversations = useRecentConversations(CONVERSATIONS_SHOWN);
  const users = useMemo(() => bySandbox(conversations.data?.results ?? []), [conversations.data]);

  return (
    <>
      <h1>Sandboxes</h1>
      <p className="lead">
        Each conversation works in a Docker container with its own workspace volume. A suspended sandbox keeps
        its files and frees its CPU and memory; deleting one removes its workspace.
      </p>
      <section className="panel" aria-labelledby="sandboxes-heading">
        <h2 id="sandboxes-heading">Containers</h2>
        {sandboxes.isPending && <p className="muted">Loading sandboxes…</p>}
        {sandboxes.isError && (
          <Notice tone="error" title="Sandboxes could not be loaded">
            <p>{sandboxes.error.message}</p>
          </Notice>
        )}
        {sandboxes.data?.length === 0 && (
          <div className="empty-state">
            <p className="empty-state-title">No sandboxes</p>
            <p className="muted">A sandbox is created when a conversation starts.</p>
          </div>
        )}
        {sandboxes.data && sandboxes.data.length > 0 && (
          <ul className="conversation-list" aria-label="Sandboxes">
            {sandboxes.data.map((sandbox) => (
              <SandboxListItem
                key={sandbox.id}
                sandbox={sandbox}
                conversations={users.get(sandbox.id) ?? NONE}
              />
            ))}
          </ul>
        )}
      </section>
      <section className="panel" aria-labelledby="warm-pool-heading">
        <h2 id="warm-pool-heading">Warm pool</h2>
        <WarmPoolStatus />
      </section>
      <section className="panel" aria-labelledby="images-heading">
        <h2 id="images-heading">Images</h2>
        <SandboxSpecList />
      </section>
    </>
  );
}
