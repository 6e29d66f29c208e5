import { useApi } from '../api/ApiProvider';
import { useSettings } from '../api/queries';
import { Notice } from '../components/Notice';
import { RecentConversations } from '../components/RecentConversations';
import { StartConversationForm } from '../components/StartConversationForm';
import { ROUTES } from '../routing';

/** Points to Settings until a model is chosen; afterwards names the model in use. */
function ModelSetup() {
  const settings = useSettings();
  if (settings.isPending) return null;
  if (settings.isError) {
    return (
      <Notice tone="error" title="Settings could not be loaded">
        <p>{settings.error.message}</p>
      </Notice>
    );
  }
  const model = settings.data?.llm_model;
  if (!model) {
    return (
      <section className="panel panel-callout" aria-labelledby="setup-heading">
        <h2 id="setup-heading">Connect a language model</h2>
        <p>
          Agents need a language model. Choose a model and enter its API key (or the address of a local server
          such as Ollama) to get started.
        </p>
        <a className="button-primary" href={ROUTES.settings}>
          Open Settings
        </a>
      </section>
    );
  }
  return (
    <p className="model-line">
      Model: <code>{model}</code>
      {settings.data?.llm_api_key_set ? ' (API key set)' : ''} ·{' '}
      <a href={ROUTES.settings}>Change in Settings</a>
    </p>
  );
}

export function HomePage() {
  const api = useApi();
  return (
    <>
      <h1>Welcome to Dockhand</h1>
      <p className="lead">
        Dockhand runs software-engineering agents on your computer. Each conversation gets its own Docker
        sandbox; the agent writes and edits code and runs commands inside that container, and you follow every
        step it takes.
      </p>
      <ModelSetup />
      <section className="panel">
        <StartConversationForm />
      </section>
      <RecentConversations />
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
    </>
  );
}
