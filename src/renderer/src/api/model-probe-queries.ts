import { useQuery } from '@tanstack/react-query';
import { LocalModelServers, ModelProbe } from '../../../shared/api/model-probe';
import { useApi } from './ApiProvider';

export const modelProbeKeys = {
  probe: (model: string, baseUrl: string) => ['settings', 'llm-probe', model, baseUrl] as const,
  localModels: ['settings', 'local-models'] as const,
};

/** What a model's server says about it and the context decided (cached by the service per model). */
export function useModelProbe(model: string, baseUrl: string) {
  const api = useApi();
  return useQuery({
    queryKey: modelProbeKeys.probe(model, baseUrl),
    queryFn: () =>
      api.send('POST', '/api/settings/llm-probe', ModelProbe, { llm_model: model, llm_base_url: baseUrl }),
    enabled: model.trim() !== '',
    retry: false,
  });
}

/** The Ollama and LM Studio servers answering on this machine, with their models' probed facts. */
export function useLocalModels(enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: modelProbeKeys.localModels,
    queryFn: () => api.get('/api/settings/local-models', LocalModelServers),
    enabled,
    retry: false,
  });
}
