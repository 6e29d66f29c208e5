import { useState, type FormEvent } from 'react';
import { useSaveSettings, type StoredSettings } from '../api/settings-queries';
import { ROUTES } from '../routing';
import { InputField } from '../ui/Field';
import { formErrors } from '../ui/form-errors';
import { FormProblems, SubmitActions } from '../ui/FormFooter';

const DEFAULT_WARM_POOL = 1;
const FIELDS = ['sandbox_warm_pool'] as const;

/** How many paused containers of the default sandbox image to keep ready (`sandbox_warm_pool`). */
export function WarmPoolForm({ settings }: { settings: StoredSettings | null }) {
  const [size, setSize] = useState(() => String(settings?.sandbox_warm_pool ?? DEFAULT_WARM_POOL));
  const save = useSaveSettings();
  const errors = formErrors(save.error, FIELDS);

  function submit(event: FormEvent) {
    event.preventDefault();
    // Sent as typed: the service answers 422 for anything but a whole number from 0 to 5.
    save.mutate({ loaded: settings, edits: { sandbox_warm_pool: size.trim() === '' ? null : size.trim() } });
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-labelledby="warm-pool-heading">
      <h3 id="warm-pool-heading">Warm pool</h3>
      <InputField
        id="warm-pool-size"
        label="Warm containers"
        hint={
          <>
            Containers of the default image made ahead of time and paused, so a new conversation starts at
            once. 0 turns this off; at most 5. Each one holds some memory while paused; see{' '}
            <a href={ROUTES.sandboxes}>Sandboxes</a>.
          </>
        }
        error={errors.fields.sandbox_warm_pool}
        type="number"
        inputMode="numeric"
        min={0}
        max={5}
        value={size}
        onChange={(e) => {
          setSize(e.target.value);
          if (!save.isPending) save.reset();
        }}
      />
      <FormProblems
        title="The sandbox settings were not saved"
        general={errors.general}
        fieldsMarked={Object.keys(errors.fields).length > 0}
      />
      <SubmitActions
        label="Save"
        pendingLabel="Saving…"
        pending={save.isPending}
        done={save.isSuccess && 'Saved.'}
      />
    </form>
  );
}
