import { useState, type FormEvent } from 'react';
import { useModels, useSaveSettings, type SettingsEdits, type StoredSettings } from '../api/queries';
import { Field } from './Field';
import { formErrors } from './form-errors';
import { Notice } from './Notice';
import { TextWithCode } from './TextWithCode';

const DEFAULT_MAX_ITERATIONS = 500;

interface Draft {
  model: string;
  baseUrl: string;
  apiKey: string;
  confirmationMode: boolean;
  maxIterations: string;
}

const FIELDS = ['llm_model', 'llm_base_url', 'llm_api_key', 'confirmation_mode', 'max_iterations'] as const;

const PATTERN_HINTS = {
  llm_base_url: 'Enter a URL that starts with http:// or https://, or leave it empty.',
};

function draftOf(settings: StoredSettings | null): Draft {
  return {
    model: settings?.llm_model ?? '',
    baseUrl: settings?.llm_base_url ?? '',
    apiKey: '',
    confirmationMode: settings?.confirmation_mode ?? false,
    maxIterations: settings?.max_iterations?.toString() ?? '',
  };
}

function editsOf(draft: Draft): SettingsEdits {
  const apiKey = draft.apiKey.trim();
  const maxIterations = draft.maxIterations.trim();
  return {
    llm_model: draft.model.trim(),
    llm_base_url: draft.baseUrl.trim(),
    // null keeps the stored key; only a typed key replaces it.
    llm_api_key: apiKey === '' ? null : apiKey,
    confirmation_mode: draft.confirmationMode,
    // Sent as typed: the service checks it and answers with a field error.
    max_iterations: maxIterations === '' ? null : maxIterations,
  };
}

/** Model, endpoint, key and agent limits. `settings` is null when they were never saved. */
export function LlmSettingsForm({ settings }: { settings: StoredSettings | null }) {
  const [draft, setDraft] = useState(() => draftOf(settings));
  const models = useModels();
  const save = useSaveSettings();
  const errors = formErrors(save.error, FIELDS, PATTERN_HINTS);
  const keySet = settings?.llm_api_key_set ?? false;

  function edit(change: Partial<Draft>) {
    setDraft((current) => ({ ...current, ...change }));
    if (!save.isPending) save.reset();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate(
      { loaded: settings, edits: editsOf(draft) },
      { onSuccess: () => setDraft((current) => ({ ...current, apiKey: '' })) },
    );
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-labelledby="llm-heading">
      <h2 id="llm-heading">Language model</h2>
      <Field
        id="llm-model"
        label="Model"
        hint="Provider and model, e.g. openai/gpt-4o or ollama/qwen2.5-coder. Pick a suggestion or type any name."
        error={errors.fields.llm_model}
      >
        {(control) => (
          <input
            {...control}
            type="text"
            list="llm-model-options"
            autoComplete="off"
            spellCheck={false}
            value={draft.model}
            onChange={(e) => edit({ model: e.target.value })}
          />
        )}
      </Field>
      <datalist id="llm-model-options">
        {models.data?.map((model) => (
          <option key={model} value={model} />
        ))}
      </datalist>
      <Field
        id="llm-base-url"
        label="Base URL"
        hint="Only for a self-hosted or OpenAI-compatible server, e.g. http://localhost:11434. Leave empty for the provider's own API."
        error={errors.fields.llm_base_url}
      >
        {(control) => (
          <input
            {...control}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            value={draft.baseUrl}
            onChange={(e) => edit({ baseUrl: e.target.value })}
          />
        )}
      </Field>
      <Field
        id="llm-api-key"
        label="API key"
        hint={
          keySet
            ? 'A key is stored. Leave this empty to keep it, or type a new key to replace it.'
            : 'Kept with Dockhand’s secrets (see the status bar for where) and never shown again.'
        }
        error={errors.fields.llm_api_key}
      >
        {(control) => (
          <div className="input-with-badge">
            <input
              {...control}
              type="password"
              autoComplete="off"
              spellCheck={false}
              placeholder={keySet ? 'Key set (unchanged)' : ''}
              value={draft.apiKey}
              onChange={(e) => edit({ apiKey: e.target.value })}
            />
            {keySet && <span className="badge badge-ok">Key set</span>}
          </div>
        )}
      </Field>

      <h2>Agent</h2>
      <Field
        id="confirmation-mode"
        label="Ask before risky actions (confirmation mode)"
        labelPosition="after"
        hint="The agent pauses for your approval before running commands the security analyzer rates as risky."
        error={errors.fields.confirmation_mode}
      >
        {(control) => (
          <input
            {...control}
            type="checkbox"
            checked={draft.confirmationMode}
            onChange={(e) => edit({ confirmationMode: e.target.checked })}
          />
        )}
      </Field>
      <Field
        id="max-iterations"
        label="Maximum iterations"
        hint={`Steps the agent may take in one conversation before it stops (1–10,000; empty means ${DEFAULT_MAX_ITERATIONS}).`}
        error={errors.fields.max_iterations}
      >
        {(control) => (
          <input
            {...control}
            className="input-short"
            type="number"
            inputMode="numeric"
            min={1}
            max={10_000}
            placeholder={String(DEFAULT_MAX_ITERATIONS)}
            value={draft.maxIterations}
            onChange={(e) => edit({ maxIterations: e.target.value })}
          />
        )}
      </Field>

      {errors.general.length > 0 && (
        <Notice tone="error" title="Settings were not saved" live>
          {errors.general.map((message) => (
            <p key={message}>
              <TextWithCode text={message} />
            </p>
          ))}
        </Notice>
      )}
      {Object.keys(errors.fields).length > 0 && errors.general.length === 0 && (
        <Notice tone="error" live>
          <p>Settings were not saved: correct the fields marked above.</p>
        </Notice>
      )}
      <div className="form-actions">
        <button type="submit" className="button-primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save settings'}
        </button>
        {save.isSuccess && (
          <p className="form-success" role="status">
            Settings saved.
          </p>
        )}
      </div>
    </form>
  );
}
