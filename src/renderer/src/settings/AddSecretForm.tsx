import { useState, type FormEvent } from 'react';
import { isApiError } from '../api/api-error';
import { useCreateSecret } from '../api/secret-queries';
import { InputField } from '../ui/Field';
import { formErrors } from '../ui/form-errors';
import { FormProblems, SubmitActions } from '../ui/FormFooter';

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
        <InputField
          id="secret-name"
          label="Name"
          hint="Becomes the variable name, e.g. NPM_TOKEN."
          error={nameError}
          type="text"
          autoComplete="off"
          spellCheck={false}
          value={draft.name}
          onChange={(e) => edit({ name: e.target.value })}
        />
        <InputField
          id="secret-value"
          label="Value"
          error={errors.fields.value}
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={draft.value}
          onChange={(e) => edit({ value: e.target.value })}
        />
      </div>
      <InputField
        id="secret-description"
        label="Description (optional)"
        error={errors.fields.description}
        type="text"
        value={draft.description}
        onChange={(e) => edit({ description: e.target.value })}
      />
      <FormProblems title="The secret was not added" general={general} />
      <SubmitActions
        label="Add secret"
        pendingLabel="Adding…"
        pending={create.isPending}
        done={added && <>Secret {added} added.</>}
      />
    </form>
  );
}
