import { useState, type FormEvent } from 'react';
import { useCreateConversation } from '../api/conversation-queries';
import { isSubmitShortcut, submitShortcutLabel } from '../keyboard';
import { conversationHref, navigate } from '../routing';
import { Field } from './Field';
import { StartFailure } from './StartFailure';

/** A new conversation with a first message; the agent starts on it in a fresh sandbox. */
export function StartConversationForm() {
  const [message, setMessage] = useState('');
  const create = useCreateConversation();

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (create.isPending) return;
    create.mutate(message, {
      onSuccess: ({ conversation_id }) => navigate(conversationHref(conversation_id)),
    });
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-labelledby="start-heading">
      <h2 id="start-heading">Start a conversation</h2>
      <Field
        id="start-message"
        label="What should the agent do?"
        hint={`The agent works in a new sandbox in /workspace/project. ${submitShortcutLabel()} starts it.`}
      >
        {(control) => (
          <textarea
            {...control}
            rows={4}
            value={message}
            placeholder="e.g. Write a Python script that prints the first 20 prime numbers, and run it."
            onChange={(e) => {
              setMessage(e.target.value);
              if (!create.isPending) create.reset();
            }}
            onKeyDown={(e) => {
              if (!isSubmitShortcut(e)) return;
              e.preventDefault();
              submit();
            }}
          />
        )}
      </Field>
      {create.error && <StartFailure error={create.error} />}
      <div className="form-actions">
        <button type="submit" className="button-primary" disabled={create.isPending}>
          {create.isPending ? 'Starting…' : 'Start conversation'}
        </button>
      </div>
    </form>
  );
}
