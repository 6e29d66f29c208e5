import type { LlmCheckResult } from '../../../shared/api/llm-check';
import { useModels } from '../api/settings-queries';
import { Field, InputField } from '../ui/Field';
import {
  defaultBaseUrl,
  exampleModel,
  LLM_PROVIDERS,
  modelsOf,
  providerOfModel,
  type LlmProviderId,
} from './llm-providers';
import type { DraftSectionProps } from './llm-settings-draft';
import { LlmCheckOutcome } from './LlmCheckOutcome';
import { ModelProbePanel } from './ModelProbePanel';

interface LanguageModelSectionProps extends DraftSectionProps {
  /** Whether a key is stored. */
  keySet: boolean;
  modelError: string | undefined;
  /** "Test connection": its answer, whether it runs, and how to start it. */
  checked: LlmCheckResult | undefined;
  testing: boolean;
  onTest: () => void;
}

/** The language model: provider, model (with suggestions), base URL, API key, and "Test connection". */
export function LanguageModelSection({
  draft,
  edit,
  errors,
  hidden,
  keySet,
  modelError,
  checked,
  testing,
  onTest,
}: LanguageModelSectionProps) {
  const models = useModels();
  const offered = modelsOf(draft.provider, models.data ?? []);

  function chooseProvider(provider: LlmProviderId) {
    const keepModel = provider === 'other' || providerOfModel(draft.model) === provider;
    const localUrl = defaultBaseUrl(provider);
    edit({
      provider,
      model: keepModel ? draft.model : '',
      // A local server usually answers at its default address; hosted providers need none.
      baseUrl: localUrl || (defaultBaseUrl(draft.provider) === draft.baseUrl ? '' : draft.baseUrl),
    });
  }

  return (
    <div className="form settings-part" hidden={hidden}>
      <h2 id="llm-heading">Language model</h2>
      <div className="form-row">
        <div className="field">
          <label htmlFor="llm-provider">Provider</label>
          <select
            id="llm-provider"
            value={draft.provider}
            onChange={(e) => chooseProvider(e.target.value as LlmProviderId)}
          >
            {LLM_PROVIDERS.map((provider) => (
              <option key={provider.id} value={provider.id}>
                {provider.label}
              </option>
            ))}
          </select>
        </div>
        <InputField
          id="llm-model"
          label="Model"
          hint={
            models.isPending
              ? 'Looking for models, including those of local servers…'
              : models.isError
                ? `The model list could not be loaded (${models.error.message}); type the model name.`
                : `${offered.length} suggestion${offered.length === 1 ? '' : 's'} for this provider; pick one or type any name, e.g. ${exampleModel(draft.provider)}.`
          }
          error={modelError}
          type="text"
          list="llm-model-options"
          autoComplete="off"
          spellCheck={false}
          placeholder={exampleModel(draft.provider)}
          value={draft.model}
          onChange={(e) => edit({ model: e.target.value })}
        />
      </div>
      <datalist id="llm-model-options">
        {offered.map((model) => (
          <option key={model} value={model} />
        ))}
      </datalist>
      <InputField
        id="llm-base-url"
        label="Base URL"
        hint="Only for a self-hosted or OpenAI-compatible server, e.g. http://localhost:11434. Leave empty for the provider's own API."
        error={errors.llm_base_url}
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder={defaultBaseUrl(draft.provider)}
        value={draft.baseUrl}
        onChange={(e) => edit({ baseUrl: e.target.value })}
      />
      <Field
        id="llm-api-key"
        label="API key"
        hint={
          keySet
            ? 'A key is stored. Leave this empty to keep it, or type a new key to replace it.'
            : 'Kept with Dockhand’s secrets (see the status bar for where) and never shown again. Local servers need none.'
        }
        error={errors.llm_api_key}
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
      <div className="form-actions">
        <button type="button" className="button-secondary" disabled={testing} onClick={onTest}>
          {testing ? 'Testing…' : 'Test connection'}
        </button>
        <span className="field-hint">Sends one short request with the values above; nothing is saved.</span>
      </div>
      {checked && <LlmCheckOutcome result={checked} />}
      <ModelProbePanel model={draft.model} baseUrl={draft.baseUrl} checked={checked?.probe ?? null} />
    </div>
  );
}
