import { useState, type FormEvent } from 'react';
import type { ConversationInfo } from '../../../shared/api/conversations';
import { isApiError } from '../api/api-error';
import { useSendMessage } from '../api/conversation-queries';
import { isSubmitShortcut, submitShortcutLabel } from '../keyboard';
import { Notice } from '../ui/Notice';

interface ComposerProps {
  conversation: ConversationInfo;
  /** Why no message can be sent now (the box is disabled and says so), or null. */
  blocked: string | null;
}

/** Writes to the agent; while it cannot take a message the box is disabled and says why. */
export function Composer({ conversation, blocked }: ComposerProps) {
  const id = conversation.conversation_id;
  const [draft, setDraft] = useState('');
  const send = useSendMessage(id);
  // The conversation stopped between the last refresh and the message: say so as the state would.
  const reason =
    blocked ??
    (isApiError(send.error, 409) ? 'The conversation is stopped. Start it to send messages.' : null);
  const disabled = reason !== null;

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (disabled || send.isPending || draft.trim() === '') return;
    send.mutate(draft, { onSuccess: () => setDraft('') });
  }

  return (
    <form className="composer" onSubmit={submit} noValidate aria-label="Message the agent">
      {send.error && !isApiError(send.error, 409) && (
        <Notice tone="error" title="The message was not sent" live>
          <p>{send.error.message}</p>
        </Notice>
      )}
      <div className="composer-row">
        <label className="visually-hidden" htmlFor="composer-message">
          Message
        </label>
        <textarea
          id="composer-message"
          rows={2}
          value={draft}
          disabled={disabled}
          aria-describedby={disabled ? 'composer-blocked' : undefined}
          placeholder={disabled ? '' : `Message the agent (${submitShortcutLabel()} to send)`}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (!isSubmitShortcut(e)) return;
            e.preventDefault();
            submit();
          }}
        />
        <button
          type="submit"
          className="button-primary"
          disabled={disabled || send.isPending || draft.trim() === ''}
        >
          {send.isPending ? 'Sending…' : 'Send'}
        </button>
      </div>
      {disabled && (
        <p id="composer-blocked" className="composer-blocked" role="status">
          {reason}
        </p>
      )}
    </form>
  );
}
