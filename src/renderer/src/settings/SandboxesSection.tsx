import { ROUTES } from '../routing';
import { Field, InputField } from '../ui/Field';
import type { DraftSectionProps, LlmSettingsDraft } from './llm-settings-draft';
import { SandboxNetworkFields } from './SandboxNetworkFields';

/** Where commands run: the sandbox provider, the sandbox image, the warm pool's size and the network. */
export function SandboxesSection({ draft, edit, errors, hidden }: DraftSectionProps) {
  return (
    <div className="form settings-part" hidden={hidden}>
      <h2 id="sandboxes-heading">Sandboxes</h2>
      <Field
        id="sandbox-provider"
        label="Run commands in"
        hint={
          draft.sandboxProvider === 'process'
            ? 'Host processes run the agent’s commands unsandboxed on this computer, as your user, with access to your files, and with no control of what they reach on the network. No Docker is needed; Linux only.'
            : 'Docker containers isolate the agent’s commands from this computer. They need a running Docker engine.'
        }
        error={errors.sandbox_provider}
      >
        {(control) => (
          <select
            {...control}
            value={draft.sandboxProvider}
            onChange={(e) => edit({ sandboxProvider: e.target.value as LlmSettingsDraft['sandboxProvider'] })}
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
        error={errors.sandbox_base_container_image}
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
        error={errors.sandbox_warm_pool}
        className="input-short"
        type="number"
        inputMode="numeric"
        min={0}
        max={5}
        value={draft.warmPool}
        onChange={(e) => edit({ warmPool: e.target.value })}
      />
      <SandboxNetworkFields draft={draft} edit={edit} errors={errors} />
    </div>
  );
}
