import type { ModelProbe } from '../../../shared/api/model-probe';
import { useLocalModels } from '../api/model-probe-queries';
import { useLlmCheck, useSaveSettings, useSettings } from '../api/settings-queries';
import { ContextWarning, ModelFactsLine } from '../settings/ModelFacts';
import { Notice } from '../ui/Notice';
import { TextWithCode } from '../ui/TextWithCode';

const SERVER_NAMES = { ollama: 'Ollama', lm_studio: 'LM Studio' } as const;

/**
 * The first run with a local server: the models of the Ollama or LM Studio server answering on this computer,
 * each with its probed facts. One click tests the model (its tool calls included) and saves it.
 */
export function LocalModelOffer() {
  const local = useLocalModels(true);
  const settings = useSettings();
  const check = useLlmCheck();
  const save = useSaveSettings();
  const servers = local.data?.servers ?? [];
  if (servers.length === 0) return null;
  const busy = check.isPending || save.isPending;

  function use(probe: ModelProbe, baseUrl: string) {
    check.mutate(
      { llm_model: probe.model, llm_base_url: baseUrl, llm_api_key: '' },
      {
        onSuccess: (result) => {
          if (result.ok)
            save.mutate({
              loaded: settings.data ?? null,
              edits: { llm_model: probe.model, llm_base_url: baseUrl },
            });
        },
      },
    );
  }

  return (
    <section className="panel local-model-offer" aria-labelledby="local-models-heading">
      <h2 id="local-models-heading">Or use a model already on this computer</h2>
      {servers.map((server) => (
        <div key={server.server}>
          <h3>
            {SERVER_NAMES[server.server]} at <code>{server.base_url}</code>
          </h3>
          <ul className="local-models">
            {server.models.map((probe) => (
              <li key={probe.model}>
                <code>{probe.model}</code>
                <ModelFactsLine probe={probe} />
                <ContextWarning probe={probe} />
                <button
                  type="button"
                  className="button-secondary"
                  disabled={busy}
                  onClick={() => use(probe, server.base_url)}
                >
                  Use this model
                </button>
              </li>
            ))}
          </ul>
        </div>
      ))}
      {check.data && !check.data.ok && (
        <Notice tone="error" title="The model did not answer" live>
          <p>
            <TextWithCode text={check.data.message} />
          </p>
        </Notice>
      )}
    </section>
  );
}
