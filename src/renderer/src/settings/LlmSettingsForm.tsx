import { useState, type FormEvent } from 'react';
import {
  useLlmCheck,
  useModels,
  useSaveSettings,
  type SettingsEdits,
  type StoredSettings,
} from '../api/settings-queries';
import { ROUTES } from '../routing';
import { Field, InputField } from '../ui/Field';
import { formErrors } from '../ui/form-errors';
import { FormProblems, SubmitActions } from '../ui/FormFooter';
import {
  defaultBaseUrl,
  exampleModel,
  LLM_PROVIDERS,
  modelsOf,
  providerOfModel,
  type LlmProviderId,
} from './llm-providers';
import { LlmCheckOutcome } from './LlmCheckOutcome';
import { ModelProbePanel } from './ModelProbePanel';

const DEFAULT_MAX_ITERATIONS = 500;
const DEFAULT_CONDENSER_SIZE = 120;
const DEFAULT_WARM_POOL = 1;

interface Draft {
  provider: LlmProviderId;
  model: string;
  baseUrl: string;
  apiKey: string;
  confirmationMode: boolean;
  securityAnalyzer: string;
  maxIterations: string;
  budget: string;
  condenser: boolean;
  condenserSize: string;
  sandboxImage: string;
  sandboxProvider: 'docker' | 'process';
  warmPool: string;
  network: 'gated' | 'bridge' | 'host';
  egressPolicy: 'open' | 'balanced' | 'model_only' | 'offline';
  /** One entry a line. */
  egressAllow: string;
  egressDeny: string;
}

/** What each network of Docker sandboxes gives, and gives up. */
const NETWORK_HINTS: Record<Draft['network'], string> = {
  gated:
    'Only loopback inside the sandbox: everything it reaches goes through Dockhand, by the policy below, and each refusal shows in the conversation. Ports its apps open are forwarded to this computer.',
  bridge:
    'Direct internet access on Dockhand’s own network: no policy and no record of what the sandbox reaches; anything the agent runs can send the workspace and its secrets anywhere.',
  host: 'The host’s own network: no isolation of the network at all. The sandbox reaches every service of this computer (Dockhand’s own API excepted only by its key) and its ports are the host’s.',
};

const POLICY_HINTS: Record<Draft['egressPolicy'], string> = {
  open: 'Any public address. Loopback, private and link-local addresses stay refused unless you list them.',
  balanced:
    'Package registries (npm, PyPI, crates.io, Go, RubyGems, Maven Central, Debian, Ubuntu and Alpine mirrors), your git providers’ hosts, your model and MCP hosts, and your own list.',
  model_only: 'Only your model’s host, and your own list.',
  offline: 'Nothing leaves this computer but what you list yourself.',
};

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

const FIELDS = [
  'llm_model',
  'llm_base_url',
  'llm_api_key',
  'confirmation_mode',
  'security_analyzer',
  'max_iterations',
  'max_budget_per_task',
  'enable_default_condenser',
  'condenser_max_size',
  'sandbox_base_container_image',
  'sandbox_provider',
  'sandbox_warm_pool',
  'sandbox_network',
  'egress_policy',
  'egress_allow',
  'egress_deny',
] as const;

/** The section each field is shown in, to name a section whose fields were rejected while another shows. */
const SECTION_OF: Record<(typeof FIELDS)[number], { key: LlmFormSection; label: string }> = {
  llm_model: { key: 'llm', label: 'Language model' },
  llm_base_url: { key: 'llm', label: 'Language model' },
  llm_api_key: { key: 'llm', label: 'Language model' },
  confirmation_mode: { key: 'agent', label: 'Agent' },
  security_analyzer: { key: 'agent', label: 'Agent' },
  max_iterations: { key: 'agent', label: 'Agent' },
  max_budget_per_task: { key: 'agent', label: 'Agent' },
  enable_default_condenser: { key: 'agent', label: 'Agent' },
  condenser_max_size: { key: 'agent', label: 'Agent' },
  sandbox_base_container_image: { key: 'sandboxes', label: 'Sandboxes' },
  sandbox_provider: { key: 'sandboxes', label: 'Sandboxes' },
  sandbox_warm_pool: { key: 'sandboxes', label: 'Sandboxes' },
  sandbox_network: { key: 'sandboxes', label: 'Sandboxes' },
  egress_policy: { key: 'sandboxes', label: 'Sandboxes' },
  egress_allow: { key: 'sandboxes', label: 'Sandboxes' },
  egress_deny: { key: 'sandboxes', label: 'Sandboxes' },
};

const PATTERN_HINTS = {
  llm_base_url: 'Enter a URL that starts with http:// or https://, or leave it empty.',
};

function draftOf(settings: StoredSettings | null): Draft {
  const model = settings?.llm_model ?? '';
  return {
    provider: model ? providerOfModel(model) : 'anthropic',
    model,
    baseUrl: settings?.llm_base_url ?? '',
    apiKey: '',
    confirmationMode: settings?.confirmation_mode ?? false,
    securityAnalyzer: settings?.security_analyzer ?? 'rules',
    maxIterations: settings?.max_iterations?.toString() ?? '',
    budget: settings?.max_budget_per_task?.toString() ?? '',
    condenser: settings?.enable_default_condenser ?? true,
    condenserSize: settings?.condenser_max_size?.toString() ?? '',
    sandboxImage: settings?.sandbox_base_container_image ?? '',
    sandboxProvider: settings?.sandbox_provider ?? 'docker',
    warmPool: String(settings?.sandbox_warm_pool ?? DEFAULT_WARM_POOL),
    network: settings?.sandbox_network ?? 'gated',
    egressPolicy: settings?.egress_policy ?? 'balanced',
    egressAllow: (settings?.egress_allow ?? []).join('\n'),
    egressDeny: (settings?.egress_deny ?? []).join('\n'),
  };
}

/** Empty means the default (null); anything else is sent as typed, for the service to check. */
function orNull(text: string): string | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : trimmed;
}

function editsOf(draft: Draft): SettingsEdits {
  return {
    llm_model: draft.model.trim(),
    llm_base_url: draft.baseUrl.trim(),
    // null keeps the stored key; only a typed key replaces it.
    llm_api_key: orNull(draft.apiKey),
    confirmation_mode: draft.confirmationMode,
    security_analyzer: draft.securityAnalyzer as SettingsEdits['security_analyzer'],
    max_iterations: orNull(draft.maxIterations),
    max_budget_per_task: orNull(draft.budget),
    enable_default_condenser: draft.condenser,
    condenser_max_size: orNull(draft.condenserSize),
    sandbox_base_container_image: orNull(draft.sandboxImage),
    sandbox_provider: draft.sandboxProvider,
    // Sent as typed: the service answers 422 for anything but a whole number from 0 to 5.
    sandbox_warm_pool: orNull(draft.warmPool),
    sandbox_network: draft.network,
    egress_policy: draft.egressPolicy,
    egress_allow: lines(draft.egressAllow),
    egress_deny: lines(draft.egressDeny),
  };
}

/** The parts of Settings this form holds; it stays mounted (keeping unsaved edits) while another shows. */
export type LlmFormSection = 'llm' | 'agent' | 'sandboxes';

interface LlmSettingsFormProps {
  /** Null when never saved. */
  settings: StoredSettings | null;
  /** The part shown, or null while Settings shows a section of another form. */
  section: LlmFormSection | null;
}

/**
 * The language model, the agent and the sandbox settings: one draft, shown a section at a time, each with
 * the one Save that saves them all.
 */
export function LlmSettingsForm({ settings, section }: LlmSettingsFormProps) {
  const [draft, setDraft] = useState(() => draftOf(settings));
  const [firstModel, setFirstModel] = useState(false);
  const models = useModels();
  const save = useSaveSettings();
  const check = useLlmCheck();
  const errors = formErrors(save.error ?? check.error, FIELDS, PATTERN_HINTS);
  const keySet = settings?.llm_api_key_set ?? false;
  const [modelMissing, setModelMissing] = useState(false);
  const offered = modelsOf(draft.provider, models.data ?? []);
  const modelError = errors.fields.llm_model ?? (modelMissing ? 'Choose or type a model first.' : undefined);
  const elsewhere = [
    ...new Set(
      FIELDS.filter((field) => errors.fields[field] && SECTION_OF[field].key !== section).map(
        (field) => SECTION_OF[field].label,
      ),
    ),
  ];

  function edit(change: Partial<Draft>) {
    setDraft((current) => ({ ...current, ...change }));
    if (!save.isPending) save.reset();
    if (!check.isPending) check.reset();
    if (change.model) setModelMissing(false);
  }

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

  function testConnection() {
    if (!draft.model.trim()) {
      setModelMissing(true);
      return;
    }
    save.reset();
    check.mutate({
      llm_model: draft.model.trim(),
      llm_base_url: draft.baseUrl.trim(),
      llm_api_key: orNull(draft.apiKey),
    });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    check.reset();
    const hadModel = Boolean(settings?.llm_model);
    save.mutate(
      { loaded: settings, edits: editsOf(draft) },
      {
        onSuccess: () => {
          setDraft((current) => ({ ...current, apiKey: '' }));
          setFirstModel(!hadModel && Boolean(draft.model.trim()));
        },
      },
    );
  }

  return (
    <form
      className="form"
      onSubmit={submit}
      noValidate
      aria-labelledby={`${section ?? 'llm'}-heading`}
      hidden={section === null}
    >
      <div className="form settings-part" hidden={section !== 'llm'}>
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
          error={errors.fields.llm_base_url}
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
        <div className="form-actions">
          <button
            type="button"
            className="button-secondary"
            disabled={check.isPending}
            onClick={testConnection}
          >
            {check.isPending ? 'Testing…' : 'Test connection'}
          </button>
          <span className="field-hint">Sends one short request with the values above; nothing is saved.</span>
        </div>
        {check.data && <LlmCheckOutcome result={check.data} />}
        <ModelProbePanel model={draft.model} baseUrl={draft.baseUrl} checked={check.data?.probe ?? null} />
      </div>

      <div className="form settings-part" hidden={section !== 'agent'}>
        <h2 id="agent-heading">Agent</h2>
        <InputField
          id="confirmation-mode"
          label="Ask before risky actions (confirmation mode)"
          labelPosition="after"
          hint="The agent pauses for your approval before running commands the security analyzer rates as risky."
          error={errors.fields.confirmation_mode}
          type="checkbox"
          checked={draft.confirmationMode}
          onChange={(e) => edit({ confirmationMode: e.target.checked })}
        />
        <Field
          id="security-analyzer"
          label="Security analyzer"
          hint="Rates each action’s risk in confirmation mode. Without one, every action with side effects asks first."
          error={errors.fields.security_analyzer}
        >
          {(control) => (
            <select
              {...control}
              disabled={!draft.confirmationMode}
              value={draft.securityAnalyzer}
              onChange={(e) => edit({ securityAnalyzer: e.target.value })}
            >
              <option value="rules">Built-in rules</option>
              <option value="llm">The language model</option>
              <option value="">None: ask before every action</option>
            </select>
          )}
        </Field>
        <div className="form-row">
          <InputField
            id="max-iterations"
            label="Maximum iterations"
            hint={`Steps per conversation before the agent stops (1–10,000; empty means ${DEFAULT_MAX_ITERATIONS}).`}
            error={errors.fields.max_iterations}
            className="input-short"
            type="number"
            inputMode="numeric"
            min={1}
            max={10_000}
            placeholder={String(DEFAULT_MAX_ITERATIONS)}
            value={draft.maxIterations}
            onChange={(e) => edit({ maxIterations: e.target.value })}
          />
          <InputField
            id="max-budget"
            label="Budget per conversation (USD)"
            hint="The agent stops when a conversation has cost this much. Empty means no limit."
            error={errors.fields.max_budget_per_task}
            className="input-short"
            type="number"
            inputMode="decimal"
            min={0}
            step="0.01"
            placeholder="No limit"
            value={draft.budget}
            onChange={(e) => edit({ budget: e.target.value })}
          />
        </div>
        <InputField
          id="condenser"
          label="Summarize older events when the context fills up (condenser)"
          labelPosition="after"
          hint="Off: older events are only dropped. On: the model also summarizes them, which costs a call."
          error={errors.fields.enable_default_condenser}
          type="checkbox"
          checked={draft.condenser}
          onChange={(e) => edit({ condenser: e.target.checked })}
        />
        <InputField
          id="condenser-size"
          label="Events kept before condensing"
          hint={`At least 20; empty means ${DEFAULT_CONDENSER_SIZE}.`}
          error={errors.fields.condenser_max_size}
          className="input-short"
          type="number"
          inputMode="numeric"
          min={20}
          placeholder={String(DEFAULT_CONDENSER_SIZE)}
          value={draft.condenserSize}
          onChange={(e) => edit({ condenserSize: e.target.value })}
        />
      </div>

      <div className="form settings-part" hidden={section !== 'sandboxes'}>
        <h2 id="sandboxes-heading">Sandboxes</h2>
        <Field
          id="sandbox-provider"
          label="Run commands in"
          hint={
            draft.sandboxProvider === 'process'
              ? 'Host processes run the agent’s commands unsandboxed on this computer, as your user, with access to your files, and with no control of what they reach on the network. No Docker is needed; Linux only.'
              : 'Docker containers isolate the agent’s commands from this computer. They need a running Docker engine.'
          }
          error={errors.fields.sandbox_provider}
        >
          {(control) => (
            <select
              {...control}
              value={draft.sandboxProvider}
              onChange={(e) => edit({ sandboxProvider: e.target.value as Draft['sandboxProvider'] })}
            >
              <option value="docker">Docker containers (isolated)</option>
              <option value="process">Host processes (unsandboxed, Linux only, no Docker needed)</option>
            </select>
          )}
        </Field>
        <InputField
          id="sandbox-image"
          label="Sandbox image"
          hint="The Docker image each new conversation’s sandbox runs. Empty uses Dockhand’s default image."
          error={errors.fields.sandbox_base_container_image}
          type="text"
          autoComplete="off"
          spellCheck={false}
          placeholder="e.g. dockhand/sandbox:1.0.0"
          value={draft.sandboxImage}
          onChange={(e) => edit({ sandboxImage: e.target.value })}
        />
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
          className="input-short"
          type="number"
          inputMode="numeric"
          min={0}
          max={5}
          value={draft.warmPool}
          onChange={(e) => edit({ warmPool: e.target.value })}
        />
        <h3 id="network-heading">Network</h3>
        <Field
          id="sandbox-network"
          label="Network of new Docker sandboxes"
          hint={NETWORK_HINTS[draft.network]}
          error={errors.fields.sandbox_network}
        >
          {(control) => (
            <select
              {...control}
              value={draft.network}
              onChange={(e) => edit({ network: e.target.value as Draft['network'] })}
            >
              <option value="gated">Gated (through Dockhand, by policy)</option>
              <option value="bridge">Bridge (direct internet, no policy)</option>
              <option value="host">Host (the host’s network, no isolation)</option>
            </select>
          )}
        </Field>
        <Field
          id="egress-policy"
          label="What gated sandboxes may reach"
          hint={`${POLICY_HINTS[draft.egressPolicy]} A conversation may start with another policy.`}
          error={errors.fields.egress_policy}
        >
          {(control) => (
            <select
              {...control}
              value={draft.egressPolicy}
              onChange={(e) => edit({ egressPolicy: e.target.value as Draft['egressPolicy'] })}
            >
              <option value="balanced">Balanced (registries and configured hosts)</option>
              <option value="open">Open (any public address)</option>
              <option value="model_only">Model only</option>
              <option value="offline">Offline</option>
            </select>
          )}
        </Field>
        <Field
          id="egress-allow"
          label="Always allow"
          hint="One a line: a host (example.com), *.example.com, host:port, an address or a range (10.0.0.0/8). Naming a host also lets its private addresses through."
          error={errors.fields.egress_allow}
        >
          {(control) => (
            <textarea
              {...control}
              rows={3}
              spellCheck={false}
              value={draft.egressAllow}
              onChange={(e) => edit({ egressAllow: e.target.value })}
            />
          )}
        </Field>
        <Field
          id="egress-deny"
          label="Never allow"
          hint="Same forms; a refusal here wins over every allow."
          error={errors.fields.egress_deny}
        >
          {(control) => (
            <textarea
              {...control}
              rows={2}
              spellCheck={false}
              value={draft.egressDeny}
              onChange={(e) => edit({ egressDeny: e.target.value })}
            />
          )}
        </Field>
      </div>

      <FormProblems
        title={check.error ? 'The connection was not tested' : 'Settings were not saved'}
        general={
          elsewhere.length > 0
            ? [...errors.general, `Also correct the fields marked in ${elsewhere.join(' and ')}.`]
            : errors.general
        }
        fieldsMarked={Object.keys(errors.fields).length > 0}
      />
      <SubmitActions
        label="Save settings"
        pendingLabel="Saving…"
        pending={save.isPending}
        done={
          save.isSuccess && (
            <>
              Settings saved.
              {firstModel && (
                <>
                  {' '}
                  <a href={ROUTES.home}>Start your first conversation</a>
                </>
              )}
            </>
          )
        }
      />
    </form>
  );
}
