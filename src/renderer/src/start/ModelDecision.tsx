import { useModelProbe } from '../api/model-probe-queries';
import { ContextWarning, ModelFactsLine, NoToolUse } from '../settings/ModelFacts';

/** What was decided for a model on a local server: the context it runs in and its tool mode. */
export function ModelDecision({ model, baseUrl }: { model: string; baseUrl: string }) {
  const probe = useModelProbe(model, baseUrl);
  if (!probe.data || probe.data.server === null) return null;
  return (
    <div className="model-probe">
      <ModelFactsLine probe={probe.data} />
      <ContextWarning probe={probe.data} />
      <NoToolUse probe={probe.data} />
    </div>
  );
}
