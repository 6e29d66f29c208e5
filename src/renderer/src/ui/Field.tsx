import type { InputHTMLAttributes, ReactNode } from 'react';

/** Attributes that tie a control to its label, hint and error. */
export interface ControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

interface FieldProps {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string;
  /** `after`: the label follows the control (checkboxes). */
  labelPosition?: 'before' | 'after';
  children: (control: ControlProps) => ReactNode;
}

/** A labelled form control with its hint and, after a rejected save, its error. */
export function Field({ id, label, hint, error, labelPosition = 'before', children }: FieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  const control = children({
    id,
    ...(describedBy ? { 'aria-describedby': describedBy } : {}),
    ...(error ? { 'aria-invalid': true as const } : {}),
  });
  const labelElement = <label htmlFor={id}>{label}</label>;
  return (
    <div className={`field field-label-${labelPosition}${error ? ' field-invalid' : ''}`}>
      {labelPosition === 'before' ? (
        <>
          {labelElement}
          {control}
        </>
      ) : (
        <div className="field-inline">
          {control}
          {labelElement}
        </div>
      )}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
    </div>
  );
}

type InputFieldProps = Omit<FieldProps, 'children'> &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | keyof ControlProps>;

/** A `Field` whose control is a single `<input>`; the remaining props go to the input. */
export function InputField({ id, label, hint, error, labelPosition, ...input }: InputFieldProps) {
  return (
    <Field id={id} label={label} hint={hint} error={error} labelPosition={labelPosition}>
      {(control) => <input {...input} {...control} />}
    </Field>
  );
}
