import { useState, type FormEvent } from 'react';
import { useLlmCheck, useSaveSettings, type StoredSettings } from '../api/settings-queries';
import { ROUTES } from '../routing';
import { formErrors } from '../ui/form-errors';
import { FormProblems, SubmitActions } from '../ui/FormFooter';
import { AgentSection } from './AgentSection';
import { LanguageModelSection } from './LanguageModelSection';
import {
  draftOf,
  editsOf,
  LLM_FORM_FIELDS,
  LLM_FORM_PATTERN_HINTS,
  orNull,
  sectionsWithErrors,
  type LlmFormSection,
  type LlmSettingsDraft,
} from './llm-settings-draft';
import { SandboxesSection } from './SandboxesSection';

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
  const save = useSaveSettings();
  const check = useLlmCheck();
  const errors = formErrors(save.error ?? check.error, LLM_FORM_FIELDS, LLM_FORM_PATTERN_HINTS);
  const keySet = settings?.llm_api_key_set ?? false;
  const [modelMissing, setModelMissing] = useState(false);
  const modelError = errors.fields.llm_model ?? (modelMissing ? 'Choose or type a model first.' : undefined);
  const elsewhere = sectionsWithErrors(errors.fields, section);

  function edit(change: Partial<LlmSettingsDraft>) {
    setDraft((current) => ({ ...current, ...change }));
    if (!save.isPending) save.reset();
    if (!check.isPending) check.reset();
    if (change.model) setModelMissing(false);
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
      <LanguageModelSection
        draft={draft}
        edit={edit}
        errors={errors.fields}
        hidden={section !== 'llm'}
        keySet={keySet}
        modelError={modelError}
        checked={check.data}
        testing={check.isPending}
        onTest={testConnection}
      />
      <AgentSection draft={draft} edit={edit} errors={errors.fields} hidden={section !== 'agent'} />
      <SandboxesSection draft={draft} edit={edit} errors={errors.fields} hidden={section !== 'sandboxes'} />

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
