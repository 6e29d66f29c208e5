/** Reading JSON of unknown shape, as client requests and provider replies are. */

export type Json = Record<string, unknown>;

export const asObject = (value: unknown): Json =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
export const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
export const asString = (value: unknown): string => (typeof value === 'string' ? value : '');
export const asNumber = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0;

/** The fields of `source` that are set, under their new names. */
export function renamed(source: Json, names: Record<string, string>): Json {
  const out: Json = {};
  for (const [from, to] of Object.entries(names)) if (source[from] !== undefined) out[to] = source[from];
  return out;
}

/** Parsed JSON, or the text itself when it is not JSON (a tool's arguments as the model wrote them). */
export function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text || '{}');
  } catch {
    return text;
  }
}
