import type { ReactNode } from 'react';

interface ConfirmChoiceProps {
  /** Names the group for assistive technology: "Confirm deleting …". */
  label: string;
  question: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  pending: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * An inline question before a destructive action. Focus starts on Cancel, the safe choice; Escape cancels.
 */
export function ConfirmChoice(props: ConfirmChoiceProps) {
  const { label, question, confirmLabel, pendingLabel, pending, onConfirm, onCancel } = props;
  return (
    <div
      className="item-actions"
      role="group"
      aria-label={label}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        onCancel();
      }}
    >
      <span>{question}</span>
      <button type="button" className="button-danger button-small" disabled={pending} onClick={onConfirm}>
        {pending ? pendingLabel : confirmLabel}
      </button>
      <button type="button" className="button-secondary button-small" autoFocus onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
