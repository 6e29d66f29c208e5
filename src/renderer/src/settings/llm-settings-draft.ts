import type { SettingsEdits, StoredSettings } from '../api/settings-queries';
import { providerOfModel, type LlmProviderId } from './llm-providers';

const DEFAULT_WARM_POOL = 1;

/** The parts of Settings the language-model form holds; it stays mounted (keeping unsaved edits) while another shows. */
export type LlmFormSection = 'llm' | 'agent' | 'sandboxes';

/** The form's values as typed: the language model, the agent and the sandbox settings. */
export interface LlmSettingsDraft {
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

/** What each section of the form gets: the draft, a way to change it, and the errors of its fields. */
export interface DraftSectionProps {
  draft: LlmSettingsDraft;
  edit: (change: Partial<LlmSettingsDraft>) => void;
  /** Error messages by settings field. */
  errors: Record<string, string>;
  hidden: boolean;
}

export const LLM_FORM_FIELDS = [
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
const SECTION_OF: Record<(typeof LLM_FORM_FIELDS)[number], { key: LlmFormSection; label: string }> = {
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

export const LLM_FORM_PATTERN_HINTS = {
  llm_base_url: 'Enter a URL that starts with http:// or https://, or leave it empty.',
};

/** The labels of the sections other than `shown` that hold a field with an error. */
export function sectionsWithErrors(errors: Record<string, string>, shown: LlmFormSection | null): string[] {
  return [
    ...new Set(
      LLM_FORM_FIELDS.filter((field) => errors[field] && SECTION_OF[field].key !== shown).map(
        (field) => SECTION_OF[field].label,
      ),
    ),
  ];
}

export function draftOf(settings: StoredSettings | null): LlmSettingsDraft {
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
export function orNull(text: string): string | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : trimmed;
}

export function editsOf(draft: LlmSettingsDraft): SettingsEdits {
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

/** The non-empty lines of a text, trimmed. */
const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
