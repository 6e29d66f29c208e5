import { useSettings } from '../api/settings-queries';
import { Notice } from '../ui/Notice';
import { TextWithCode } from '../ui/TextWithCode';
import { AddSecretForm } from './AddSecretForm';
import { GitProvidersForm } from './GitProvidersForm';
import { UnverifiedTokens } from './UnverifiedTokens';
import { LlmSettingsForm } from './LlmSettingsForm';
import { McpServersForm } from './McpServersForm';
import { SecretList } from './SecretList';
import { WarmPoolForm } from './WarmPoolForm';

export function SettingsPage() {
  const settings = useSettings();
  if (settings.isPending) {
    return (
      <>
        <h1>Settings</h1>
        <p className="muted">Loading settings…</p>
      </>
    );
  }
  if (settings.isError) {
    return (
      <>
        <h1>Settings</h1>
        <Notice tone="error" title="Settings could not be loaded">
          <p>
            <TextWithCode text={settings.error.message} />
          </p>
          <p>
            <button type="button" className="button-secondary" onClick={() => void settings.refetch()}>
              Try again
            </button>
          </p>
        </Notice>
      </>
    );
  }
  return (
    <>
      <h1>Settings</h1>
      <section className="panel">
        <LlmSettingsForm settings={settings.data} />
      </section>
      <section className="panel" aria-labelledby="git-heading">
        <h2 id="git-heading">Git providers</h2>
        <p className="muted">
          A token lets the agent clone and push your repositories, and Home list them. Each token is checked
          with the provider when saved and kept with Dockhand’s secrets.
        </p>
        <UnverifiedTokens providers={settings.data?.provider_tokens_unverified ?? []} />
        <GitProvidersForm stored={settings.data?.provider_tokens_set ?? {}} />
      </section>
      <section className="panel">
        <McpServersForm settings={settings.data} />
      </section>
      <section className="panel">
        <WarmPoolForm settings={settings.data} />
      </section>
      <section className="panel" aria-labelledby="secrets-heading">
        <h2 id="secrets-heading">Custom secrets</h2>
        <p className="muted">
          The agent gets each secret as an environment variable of the commands it runs, and sees only its
          name and description. Values are kept with Dockhand’s secrets and never shown again.
        </p>
        <SecretList />
        <AddSecretForm />
      </section>
    </>
  );
}
