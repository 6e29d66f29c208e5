import type { ReactNode } from 'react';
import { Notice } from './Notice';
import { TextWithCode } from './TextWithCode';

interface FormProblemsProps {
  /** What did not happen, e.g. "Settings were not saved". */
  title: string;
  /** Errors not tied to a shown field. */
  general: string[];
  /** Whether some shown field is marked with an error. */
  fieldsMarked?: boolean;
}

/** Why a form's last submit failed: the general errors, or else a pointer to the marked fields. */
export function FormProblems({ title, general, fieldsMarked = false }: FormProblemsProps) {
  if (general.length > 0) {
    return (
      <Notice tone="error" title={title} live>
        {general.map((message) => (
          <p key={message}>
            <TextWithCode text={message} />
          </p>
        ))}
      </Notice>
    );
  }
  if (!fieldsMarked) return null;
  return (
    <Notice tone="error" live>
      <p>{title}: correct the fields marked above.</p>
    </Notice>
  );
}

interface SubmitActionsProps {
  label: string;
  pendingLabel: string;
  pending: boolean;
  /** Shown as the status after a successful submit; nothing when falsy. */
  done?: ReactNode;
}

/** The submit button, labelled by whether the submit is under way, and the success status. */
export function SubmitActions({ label, pendingLabel, pending, done }: SubmitActionsProps) {
  return (
    <div className="form-actions">
      <button type="submit" className="button-primary" disabled={pending}>
        {pending ? pendingLabel : label}
      </button>
      {done && (
        <p className="form-success" role="status">
          {done}
        </p>
      )}
    </div>
  );
}
