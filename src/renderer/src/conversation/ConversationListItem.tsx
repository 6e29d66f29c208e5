import { useState, type FormEvent } from 'react';
import type { ConversationInfo } from '../../../shared/api/conversations';
import {
  type ConversationUsage,
  useDeleteConversation,
  useRenameConversation,
} from '../api/conversation-queries';
import { ActionMenu } from '../ui/ActionMenu';
import { ConfirmChoice } from '../ui/ConfirmChoice';
import { formErrors } from '../ui/form-errors';
import { ConversationSummary } from './ConversationSummary';

function RenameForm({ conversation, onDone }: { conversation: ConversationInfo; onDone: () => void }) {
  const [title, setTitle] = useState(conversation.title);
  const rename = useRenameConversation();
  const errors = formErrors(rename.error, ['title']);
  const error = errors.fields.title ?? errors.general[0];
  const inputId = `rename-${conversation.conversation_id}`;

  function submit(event: FormEvent) {
    event.preventDefault();
    rename.mutate({ id: conversation.conversation_id, title }, { onSuccess: onDone });
  }

  return (
    <form className="rename-form" onSubmit={submit} noValidate>
      <label className="visually-hidden" htmlFor={inputId}>
        New title for {conversation.title}
      </label>
      <input
        id={inputId}
        type="text"
        autoFocus
        value={title}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${inputId}-error` : undefined}
        onChange={(e) => {
          setTitle(e.target.value);
          if (!rename.isPending) rename.reset();
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onDone();
        }}
      />
      <button type="submit" className="button-primary button-small" disabled={rename.isPending}>
        {rename.isPending ? 'Saving…' : 'Save'}
      </button>
      <button type="button" className="button-secondary button-small" onClick={onDone}>
        Cancel
      </button>
      {error && (
        <p id={`${inputId}-error`} className="field-error rename-error">
          {error}
        </p>
      )}
    </form>
  );
}

type Mode = 'view' | 'rename' | 'delete';
type Action = Exclude<Mode, 'view'>;

interface ConversationListItemProps {
  conversation: ConversationInfo;
  usage: ConversationUsage | undefined;
}

/** A conversation in the full list, renamed in place or deleted after a question (both in its ⋯ menu). */
export function ConversationListItem({ conversation, usage }: ConversationListItemProps) {
  const [mode, setMode] = useState<Mode>('view');
  // Back from renaming or from the question, focus returns to the menu button that started it.
  const [returnTo, setReturnTo] = useState<Action | null>(null);
  const remove = useDeleteConversation();
  const { title } = conversation;
  const back = (from: Action) => {
    setMode('view');
    setReturnTo(from);
  };

  if (mode === 'rename') {
    return (
      <li className="conversation-item">
        <RenameForm conversation={conversation} onDone={() => back('rename')} />
      </li>
    );
  }
  return (
    <li className="conversation-item">
      <ConversationSummary conversation={conversation} usage={usage} />
      {remove.isError && <p className="field-error">{remove.error.message}</p>}
      {mode === 'delete' ? (
        <ConfirmChoice
          label={`Confirm deleting ${title}`}
          question="Delete it and its sandbox?"
          confirmLabel="Delete"
          pendingLabel="Deleting…"
          pending={remove.isPending}
          onConfirm={() => remove.mutate(conversation.conversation_id)}
          onCancel={() => back('delete')}
        />
      ) : (
        <ActionMenu
          label={`More actions for ${title}`}
          autoFocus={returnTo !== null}
          actions={[
            { label: 'Rename', onSelect: () => setMode('rename') },
            { label: 'Delete', onSelect: () => setMode('delete') },
          ]}
        />
      )}
    </li>
  );
}
