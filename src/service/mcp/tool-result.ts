/** The longest MCP result the model is given (agent-behaviour §3.4). */
export const MAX_RESULT_CHARS = 30_000;
export const IMAGE_OMITTED = '[image omitted]';
/** The image types models take (as user-message images, agent-behaviour §6.6). */
const MODEL_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** An image of a result, kept for vision models. */
export interface ResultImage {
  data: string;
  mimeType: string;
}

export interface FormattedResult {
  text: string;
  images: ResultImage[];
  isError: boolean;
}

interface ContentPart {
  type: string;
  text?: unknown;
  data?: unknown;
  mimeType?: unknown;
  uri?: unknown;
  resource?: { text?: unknown; uri?: unknown };
}

function partText(part: ContentPart, vision: boolean, images: ResultImage[]): string | null {
  switch (part.type) {
    case 'text':
      return typeof part.text === 'string' ? part.text : null;
    case 'image': {
      const mimeType = typeof part.mimeType === 'string' ? part.mimeType.toLowerCase() : 'image/png';
      if (!vision || typeof part.data !== 'string' || !MODEL_IMAGE_TYPES.has(mimeType)) return IMAGE_OMITTED;
      images.push({ data: part.data, mimeType });
      return null;
    }
    case 'resource':
      if (typeof part.resource?.text === 'string') return part.resource.text;
      return typeof part.resource?.uri === 'string' ? `[resource ${part.resource.uri}]` : null;
    case 'resource_link':
      return typeof part.uri === 'string' ? `[resource ${part.uri}]` : null;
    default:
      return null;
  }
}

/** Cuts text to the cap, keeping its start and end. */
function capped(text: string): string {
  if (text.length <= MAX_RESULT_CHARS) return text;
  const marker = '\n[... MCP result truncated due to length ...]\n';
  const half = Math.floor((MAX_RESULT_CHARS - marker.length) / 2);
  return `${text.slice(0, half)}${marker}${text.slice(-half)}`;
}

/**
 * A `tools/call` result as the model reads it: its text parts joined by newlines; PNG/JPEG/GIF/WebP images
 * kept aside for vision models, else `[image omitted]`; `structuredContent` as JSON when there is no text; at most 30,000
 * characters. An `isError` result becomes `{"isError":true,"error":"<text>"}`.
 */
export function formatToolResult(result: unknown, vision: boolean): FormattedResult {
  const record = (typeof result === 'object' && result !== null ? result : {}) as {
    content?: unknown;
    structuredContent?: unknown;
    isError?: unknown;
    toolResult?: unknown;
  };
  const images: ResultImage[] = [];
  const parts = Array.isArray(record.content) ? (record.content as ContentPart[]) : [];
  const texts = parts.map((part) => partText(part, vision, images)).filter((t): t is string => t !== null);
  let text = texts.join('\n');
  if (!text && record.structuredContent !== undefined) text = JSON.stringify(record.structuredContent);
  if (!text && record.toolResult !== undefined) text = JSON.stringify(record.toolResult);
  if (record.isError === true) return { text: errorResult(capped(text)), images: [], isError: true };
  return { text: capped(text), images, isError: false };
}

/** The result the model gets for a failed call. */
export function errorResult(message: string): string {
  return JSON.stringify({ isError: true, error: message });
}

export function timeoutResult(tool: string, seconds: number): string {
  return errorResult(`Tool "${tool}" timed out after ${seconds} seconds`);
}

export function unavailableResult(server: string, reason: string): string {
  return errorResult(`MCP server "${server}" is not available: ${reason}`);
}
