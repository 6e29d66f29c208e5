import { useState, type FormEvent } from 'react';
import { isApiError } from '../api/api-error';
import { useCreateSecret } from '../api/queries';
import { Field } from './Field';
import { formErrors } from './form-errors';
import { Notice } from './Notice';
import { TextWithCode } from './TextWithCode';

const EMPTY = { name: '', value: '', description: '' };
const FIELDS = ['name', 'value', 'description'] as const;
const PATTERN_HINTS = {
  name: 'Use letters, digits and _ only, starting with a letter or _ (at most 64 characters).',
};

/** Adds a custom secret; its value is sent once and never shown again. */
export function AddSecretForm() {
  const [draft, setDraft] = useState(EMPTY);
  const [added, setAdded] = useState<string | null>(null);
  const create = useCreateSecret();
  const errors = formErrors(create.error, FIELDS, PATTERN_HINTS);
  // A name that is taken is a mistake in the name field, though the service answers 409.
  const nameError = isApiError(create.error, 409) ? create.error.message : errors.fields.name;
  const general = isApiError(create.error, 409) ? [] : errors.general;

  function edit(change: Partial<typeof EMPTY>) {
    setDraft((current) => ({ ...current, ...change }));
    setAdded(null);
    if (!create.isPending) create.reset();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const name = draft.name.trim();
    const description = draft.description.trim();
    create.mutate(
      { name, value: draft.value, description: description === '' ? null : description },
      {
        onSuccess: () => {
          setDraft(EMPTY);
          setAdded(name);
        },
      },
    );
  }

  return (
    <form className="form form-compact" onSubmit={submit} noValidate aria-labelledby="add-secret-heading">
      <h3 id="add-secret-heading">Add a secret</h3>
      <div className="form-row">
        <Field
          id="secret-name"
          label="Name"
          hint="Becomes the variable name, e.g. NPM_TOKEN."
          error={nameError}
        >
          {(control) => (
            <input
              {...control}
              type="text"
              autoComplete="off"
              spellCheck={false}
              value={draft.name}
              onChange={(e) => edit({ name: e.target.value })}
            />
          )}
        </Field>
        <Field id="secret-value" label="Value" error={errors.fields.value}>
          {(control) => (
            <input
              {...control}
              type="password"
              autoComplete="off"
              spellCheck={false}
              value={draft.value}
              onChange={(e) => edit({ value: e.target.value })}
            />
          )}
        </Field>
      </div>
      <Field id="secret-description" label="Description (optional)" error={errors.fields.description}>
        {(control) => (
          <input
            {...control}
            type="text"
            value={draft.description}
            onChange={(e) => edit({ description: e.target.value })}
          />
        )}
      </Field>
      {general.length > 0 && (
        <Notice tone="error" title="The secret was not added" live>
          {general.map((message) => (
            <p key={message}>
              <TextWithCode text={message} />
            </p>
          ))}
        </Notice>
      )}
      <div className="form-actions">
        <button type="submit" className="button-primary" disabled={create.isPending}>
          {create.isPending ? 'Adding…' : 'Add secret'}
        </button>
        {added && (
          <p className="form-success" role="status">
            Secret {added} added.
          </p>
        )}
      </div>
    </form>
  );
}
