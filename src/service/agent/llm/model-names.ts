/**
 * Model names as the model tables know them: the last path segment, lower-cased, without an Ollama tag,
 * dots as dashes (`openrouter/anthropic/claude-sonnet-4.5` → `claude-sonnet-4-5`).
 */
export function modelKey(model: string): string {
  const last = model.trim().toLowerCase().split('/').pop() ?? '';
  return last.replace(/:.*$/, '').replace(/\./g, '-');
}

/**
 * The entry of the longest table key that names the model or a prefix of it ending at a dash, so that
 * `gpt-4o` covers `gpt-4o-2024-08-06` while `gpt-4o-mini` keeps its own entry.
 */
export function lookupModel<T>(table: Readonly<Record<string, T>>, model: string): T | undefined {
  const key = modelKey(model);
  let best: string | undefined;
  for (const candidate of Object.keys(table)) {
    const matches = key === candidate || key.startsWith(`${candidate}-`);
    if (matches && (best === undefined || candidate.length > best.length)) best = candidate;
  }
  return best === undefined ? undefined : table[best];
}
