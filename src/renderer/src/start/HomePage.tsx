import { useApi } from '../api/ApiProvider';
import { useSettings, type StoredSettings } from '../api/settings-queries';
import { RecentConversations } from '../conversation/RecentConversations';
import { ROUTES } from '../routing';
import { Notice } from '../ui/Notice';
import { TextWithCode } from '../ui/TextWithCode';
import { LocalModelOffer } from './LocalModelOffer';
import { ModelDecision } from './ModelDecision';
import { listingProviders, StartConversationForm } from './StartConversationForm';
import { SuggestedTasks } from './SuggestedTasks';

/** The first screen until a model is chosen: one thing to do, and why. */
function Onboarding() {
  return (
    <section className="card onboarding" aria-labelledby="onboarding-heading">
      <h1>Welcome to Dockhand</h1>
      <h2 id="onboarding-heading">Connect a language model to get started</h2>
      <p>
        Dockhand runs software-engineering agents on your computer, each in its own Docker sandbox. The agent
        thinks with the language model you choose: a hosted one (Anthropic, OpenAI, OpenRouter) with your API
        key, or a local server such as Ollama or LM Studio.
      </p>
      <ol className="onboarding-steps">
        <li>Choose a model and enter its API key or server address, then test the connection.</li>
        <li>Optionally add a GitHub, GitLab or Bitbucket token to work on your repositories.</li>
        <li>Come back here and tell the agent what to do.</li>
      </ol>
      <a className="button-primary" href={ROUTES.settings}>
        Set up a language model
      </a>
      <LocalModelOffer />
    </section>
  );
}

function ModelLine({ settings }: { settings: StoredSettings }) {
  return (
    <>
      <p className="model-line">
        Model: <code>{settings.llm_model}</code>
        {settings.llm_api_key_set ? ' (API key set)' : ''} · <a href={ROUTES.settings}>Change in Settings</a>
      </p>
      <ModelDecision model={settings.llm_model ?? ''} baseUrl={settings.llm_base_url ?? ''} />
    </>
  );
}

function ApiPanel() {
  const api = useApi();
  return (
    <section className="panel" aria-labelledby="api-heading">
      <h2 id="api-heading">Use Dockhand from other tools</h2>
      <p>
        The same service answers an OpenHands-compatible HTTP API at <code>{api.baseUrl}</code>. Send the
        session key in the <code>X-Session-API-Key</code> header; <code>dockhand key</code> prints it. The{' '}
        <a href={`${api.baseUrl}/api/openapi.json`} target="_blank" rel="noreferrer">
          OpenAPI description
        </a>{' '}
        lists every route.
      </p>
    </section>
  );
}

function SettingsProblem({ error, retry }: { error: Error; retry: () => void }) {
  return (
    <Notice tone="error" title="Settings could not be loaded">
      <p>
        <TextWithCode text={error.message} />
      </p>
      <p>
        <button type="button" className="button-secondary" onClick={retry}>
          Try again
        </button>
      </p>
    </Notice>
  );
}

export function HomePage() {
  const settings = useSettings();
  if (settings.isPending) return <p className="muted">Loading settings…</p>;
  // Settings that cannot be read (the secret store is down) must not hide the conversations.
  if (!settings.isError && !settings.data?.llm_model) return <Onboarding />;
  const tokens = settings.data?.provider_tokens_set ?? {};
  return (
    <>
      <h1>Home</h1>
      {settings.isError ? (
        <SettingsProblem error={settings.error} retry={() => void settings.refetch()} />
      ) : (
        settings.data && <ModelLine settings={settings.data} />
      )}
      <section className="panel">
        <StartConversationForm providerTokens={tokens} />
      </section>
      {listingProviders(tokens).length > 0 && <SuggestedTasks />}
      <RecentConversations />
      <ApiPanel />
    </>
  );
}
