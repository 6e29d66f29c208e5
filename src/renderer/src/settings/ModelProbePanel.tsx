import { useEffect } from 'react';
import type { ModelProbe } from '../../../shared/api/model-probe';
import { useModelProbe } from '../api/model-probe-queries';
import { useDebouncedValue } from '../start/useDebouncedValue';
import { ContextWarning, ModelFactsLine, NoToolUse } from './ModelFacts';

/**
 * What the chosen model's server says about it, read when the model is selected (once typing pauses), and
 * after "Test connection" with the tool mode it found.
 */
export function ModelProbePanel({
  model,
  baseUrl,
  checked,
}: {
  model: string;
  baseUrl: string;
  checked: ModelProbe | null;
}) {
  const settledModel = useDebouncedValue(model.trim(), 500);
  const settledBaseUrl = useDebouncedValue(baseUrl.trim(), 500);
  const probe = useModelProbe(settledModel, settledBaseUrl);
  const { refetch } = probe;
  // The check read the server again and ran the tool-call probe: the cached view is out of date.
  useEffect(() => {
    if (checked) void refetch();
  }, [checked, refetch]);
  const shown = checked ?? probe.data;
  if (!shown || shown.model !== model.trim()) return null;
  return (
    <div className="model-probe" aria-live="polite" aria-label="What the model's server says">
      <ModelFactsLine probe={shown} />
      <ContextWarning probe={shown} />
      <NoToolUse probe={shown} />
    </div>
  );
}
