import { useState, type FormEvent } from 'react';
import type { ConversationInfo } from '../../../shared/api/conversations';
import { isApiError } from '../api/api-error';
import { useSendMessage, useStartConversation } from '../api/conversation-queries';
import { isSubmitShortcut, submitShortcutLabel } from '../keyboard';
import { StartFailure } from '../start/StartFailure';
import { Notice } from '../ui/Notice';

/** Writes to the agent; a stopped conversation offers to start instead. */
export function Composer({ conversation }: { conversation: ConversationInfo }) {
  const id = conversation.conversation_id;
  const [draft, setDraft] = useState('');
  const send = useSendMessage(id);
  const start = useStartConversation(id);
  const needsStart = conversation.status === 'STOPPED' || isApiError(send.error, 409);

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (send.isPending || draft.trim() === '') return;
    send.mutate(draft, { onSuccess: () => setDraft('') });
  }

  return (
    <form className="composer" onSubmit={submit} noValidate aria-label="Message the agent">
      {needsStart && (
        <Notice tone="info" title="Start the conversation to send messages" live>
          <p>It is stopped: its agent is not running. Starting it resumes the sandbox where it was.</p>
          <button
            type="button"
            className="button-primary button-small"
            disabled={start.isPending}
            onClick={() => start.mutate(undefined, { onSuccess: () => send.reset() })}
          >
            {start.isPending ? 'Starting…' : 'Start conversation'}
          </button>
        </Notice>
      )}
      {start.error && <StartFailure error={start.error} />}
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
          placeholder={`Message the agent (${submitShortcutLabel()} to send)`}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (!isSubmitShortcut(e)) return;
            e.preventDefault();
            submit();
          }}
        />
        <button type="submit" className="button-primary" disabled={send.isPending || draft.trim() === ''}>
          {send.isPending ? 'Sending…' : 'Send'}
        </button>
      </div>
    </form>
  );
}
