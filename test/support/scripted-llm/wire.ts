import type { ScriptedFault, ScriptedReply, ScriptedToolCall, ScriptedUsage } from './steps';

/** A response ready to be written: either whole (`body`) or as server-sent events (`events`). */
export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  body?: string;
  events?: string[];
}

/** What a wire format needs to know about the request it answers. */
export interface WireContext {
  /** The model call's number, from 1: makes ids unique and predictable. */
  n: number;
  model: string;
  stream: boolean;
  /** OpenAI `stream_options.include_usage`. */
  includeUsage: boolean;
}

/** How a reply or fault is written in one API's format. */
export interface WireFormat {
  reply(reply: ScriptedReply, context: WireContext): WireResponse;
  error(fault: Extract<ScriptedFault, { fault: 'status' }>): WireResponse;
  malformed(context: WireContext): WireResponse;
}

export const DEFAULT_USAGE: ScriptedUsage = { input: 100, output: 20 };

const JSON_HEADERS = { 'content-type': 'application/json' };
const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

/** Splits text into word-sized pieces so that a reply streams as several deltas. */
export function textPieces(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
}

/** The raw argument text of a tool call. */
export function argumentText(call: ScriptedToolCall): string {
  if (typeof call.args === 'string') return call.args;
  return JSON.stringify(call.args ?? {});
}

/** A text cut in two, so that tool arguments stream as two deltas. */
export function halves(text: string): string[] {
  const middle = Math.ceil(text.length / 2);
  return [text.slice(0, middle), text.slice(middle)].filter((piece) => piece.length > 0);
}

export function errorHeaders(fault: Extract<ScriptedFault, { fault: 'status' }>): Record<string, string> {
  return {
    ...JSON_HEADERS,
    ...(fault.retryAfter === undefined ? {} : { 'retry-after': String(fault.retryAfter) }),
    ...fault.headers,
  };
}

export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): WireResponse {
  return { status, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

export function sseResponse(events: string[], headers: Record<string, string> = {}): WireResponse {
  return { status: 200, headers: { ...SSE_HEADERS, ...headers }, events };
}

export function defaultErrorMessage(status: number): string {
  return `Scripted error ${status}`;
}
