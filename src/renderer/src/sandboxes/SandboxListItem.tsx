import { useState } from 'react';
import type { ConversationInfo } from '../../../shared/api/conversations';
import type { SandboxInfo } from '../../../shared/api/sandboxes';
import { useSandboxAction } from '../api/sandbox-queries';
import { formatWhen } from '../conversation/when';
import { conversationHref } from '../routing';
import { ConfirmChoice } from '../ui/ConfirmChoice';
import { PauseResumeButton } from './PauseResumeButton';
import { SandboxStatusBadge } from './SandboxStatusBadge';

interface SandboxListItemProps {
  sandbox: SandboxInfo;
  /** The conversations that run in it. */
  conversations: readonly ConversationInfo[];
}

/** A sandbox: status, image, app URLs and conversations, with Pause/Resume and Delete after a question. */
export function SandboxListItem({ sandbox, conversations }: SandboxListItemProps) {
  const action = useSandboxAction(sandbox.id);
  const [confirming, setConfirming] = useState(false);
  const [backFromQuestion, setBackFromQuestion] = useState(false);
  const busy = action.isPending;

  return (
    <li className="sandbox-item">
      <div className="sandbox-summary">
        <p className="sandbox-title">
          <span className="sandbox-id">{sandbox.id}</span>
          <SandboxStatusBadge status={sandbox.status} />
          {!sandbox.isolated && <span className="badge badge-warning">Not isolated</span>}
        </p>
        <p className="conversation-meta">
          <span>
            Image <code>{sandbox.sandbox_spec_id}</code>
          </span>
          <span>Created {formatWhen(sandbox.created_at)}</span>
        </p>
        {sandbox.error && <p className="field-error">{sandbox.error}</p>}
        {sandbox.exposed_urls && sandbox.exposed_urls.length > 0 && (
          <p className="conversation-meta">
            {sandbox.exposed_urls.map((exposed) => (
              <a key={exposed.name} href={exposed.url} target="_blank" rel="noreferrer">
                {exposed.url}
              </a>
            ))}
          </p>
        )}
        <p className="conversation-meta">
          {conversations.length === 0
            ? 'No conversation uses it.'
            : conversations.map((conversation) => (
                <a key={conversation.conversation_id} href={conversationHref(conversation.conversation_id)}>
                  {conversation.title}
                </a>
              ))}
        </p>
        {action.isError && <p className="field-error">{action.error.message}</p>}
      </div>
      {confirming ? (
        <ConfirmChoice
          label={`Confirm deleting ${sandbox.id}`}
          question="Delete the container and its workspace?"
          confirmLabel="Delete"
          pendingLabel="Deleting…"
          pending={busy}
          onConfirm={() => action.mutate('delete')}
          onCancel={() => {
            setConfirming(false);
            setBackFromQuestion(true);
          }}
        />
      ) : (
        <div className="item-actions">
          <PauseResumeButton status={sandbox.status} action={action} namedFor={sandbox.id} />
          <button
            type="button"
            className="button-secondary button-small"
            aria-label={`Delete ${sandbox.id}`}
            autoFocus={backFromQuestion}
            disabled={busy}
            onClick={() => setConfirming(true)}
          >
            Delete
          </button>
        </div>
      )}
    </li>
  );
}
