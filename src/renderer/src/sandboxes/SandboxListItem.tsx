import { useState } from 'react';
import type { ConversationInfo } from '../../../shared/api/conversations';
import type { SandboxInfo } from '../../../shared/api/sandboxes';
import { useSandboxAction } from '../api/sandbox-queries';
import { StatePill } from '../conversation/StatePill';
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

/**
 * A sandbox, named by the conversation that uses it (its container id is a detail): the conversation's
 * state, the image, app URLs, with Suspend/Resume and Delete after a question.
 */
export function SandboxListItem({ sandbox, conversations }: SandboxListItemProps) {
  const action = useSandboxAction(sandbox.id);
  const [confirming, setConfirming] = useState(false);
  const [backFromQuestion, setBackFromQuestion] = useState(false);
  const busy = action.isPending;
  const name =
    conversations.length > 0 ? conversations.map((c) => c.title).join(', ') : `Unused sandbox ${sandbox.id}`;

  return (
    <li className="sandbox-item">
      <div className="sandbox-summary">
        <p className="sandbox-title">
          {conversations.length === 0 ? (
            <span>Unused sandbox</span>
          ) : (
            conversations.map((conversation) => (
              <span key={conversation.conversation_id} className="sandbox-conversation">
                <a href={conversationHref(conversation.conversation_id)}>{conversation.title}</a>
                <StatePill state={conversation.dockhand_state} />
              </span>
            ))
          )}
          {!sandbox.isolated && <span className="badge badge-warning">Not isolated</span>}
        </p>
        <p className="conversation-meta">
          <span>
            Container <SandboxStatusBadge status={sandbox.status} />
          </span>
          <span>
            Image <code>{sandbox.sandbox_spec_id}</code>
          </span>
          <span>Created {formatWhen(sandbox.created_at)}</span>
          <span className="sandbox-id" title="Sandbox id">
            {sandbox.id}
          </span>
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
        {action.isError && <p className="field-error">{action.error.message}</p>}
      </div>
      {confirming ? (
        <ConfirmChoice
          label={`Confirm deleting the sandbox of ${name}`}
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
          <PauseResumeButton status={sandbox.status} action={action} namedFor={`the sandbox of ${name}`} />
          <button
            type="button"
            className="button-secondary button-small"
            aria-label={`Delete the sandbox of ${name}`}
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
