import type { ConversationInfo } from '../../../shared/api/conversations';
import type { SandboxInfo } from '../../../shared/api/sandboxes';
import { conversationState } from '../../../shared/conversation-state';
import { conversationHref } from '../routing';
import { RepositoryLabel } from './RepositoryLabel';
import { StatePill } from './StatePill';
import { formatWhen } from './when';

interface ConversationSummaryProps {
  conversation: ConversationInfo;
  /** Its sandbox, when the list of sandboxes is at hand. */
  sandbox?: SandboxInfo | undefined;
  /** Its model, when known. */
  model?: string | undefined;
}

/** A conversation's title (a link to it), state, repository@branch, model and when it last changed. */
export function ConversationSummary({ conversation, sandbox, model }: ConversationSummaryProps) {
  const state = conversationState({
    ...conversation,
    sandbox_status: sandbox?.status,
    sandbox_error: sandbox?.error,
  });
  return (
    <div className="conversation-summary">
      <a className="conversation-link" href={conversationHref(conversation.conversation_id)}>
        {conversation.title}
      </a>
      <p className="conversation-meta">
        <StatePill state={state} />
        <RepositoryLabel conversation={conversation} />
        {model && (
          <span className="conversation-model" title="Model">
            {model}
          </span>
        )}
        <span>Updated {formatWhen(conversation.last_updated_at)}</span>
      </p>
    </div>
  );
}
