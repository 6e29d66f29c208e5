import { useSettings } from '../api/queries';
import { AddSecretForm } from '../components/AddSecretForm';
import { LlmSettingsForm } from '../components/LlmSettingsForm';
import { Notice } from '../components/Notice';
import { SecretList } from '../components/SecretList';

function LlmSettings() {
  const settings = useSettings();
  if (settings.isPending) return <p className="muted">Loading settings…</p>;
  if (settings.isError) {
    return (
      <Notice tone="error" title="Settings could not be loaded">
        <p>{settings.error.message}</p>
      </Notice>
    );
  }
  return <LlmSettingsForm settings={settings.data} />;
}

export function SettingsPage() {
  return (
    <>
      <h1>Settings</h1>
      <section className="panel">
        <LlmSettings />
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
