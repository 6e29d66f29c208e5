import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { ModelRoute } from '../agent/llm/model-routing';
import type { PriceTable } from '../agent/llm/prices';
import { providerReportedCost, resolveCost } from '../agent/llm/usage-and-cost';
import type { GatewayBudget } from './gateway-budget';
import { eventJson, SseParser } from './sse';
import { ChatStreamReader, chatReplyOf } from './translate/chat-reply';
import type { ClientFormat } from './translate/client-format';
import type { Json } from './translate/json';
import { passthroughBody, shownUrl, upstreamRequest, withoutKey, type UpstreamRequest } from './upstream';
import { UsageMeter, type UpstreamApi } from './usage-meter';
import { errorBody, errorMessageOf, type ClientApi } from './wire-api';

/** What one model call through the gateway needs. */
export interface GatewayCall {
  req: IncomingMessage;
  res: ServerResponse;
  api: ClientApi;
  conversationId: string;
  body: Json;
  /** The client asked for a streamed reply; `sse` false for Gemini's JSON-array stream. */
  stream: { requested: boolean; sse: boolean };
  route: ModelRoute;
  apiKey: string | null;
}

export interface CallDeps {
  logger: Logger;
  budget: GatewayBudget;
  prices: PriceTable;
  fetch: () => Promise<typeof fetch>;
  /** Something the conversation should show. */
  notify(status: GatewayStatus): void;
}

/** Something about a conversation's model calls to show in it: a refusal, or a budget no longer enforced. */
export interface GatewayStatus {
  conversationId: string;
  type: 'error' | 'info';
  id: string;
  message: string;
}

const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
};
/** Provider reply headers a client may read; no other (cookies, the provider's request ids) comes back. */
const REPLY_HEADERS = ['content-type', 'retry-after', 'cache-control'];

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** Writes a chunk, waiting for the client to take it (or to go away). */
function write(res: ServerResponse, chunk: string | Uint8Array): Promise<void> {
  return new Promise((resolve) => {
    if (res.write(chunk) || res.destroyed) return resolve();
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}

/** OpenAI's own API takes the output limit only as `max_completion_tokens` (its reasoning models refuse the other). */
function forOpenAi(body: Json, route: ModelRoute): Json {
  if (route.provider !== 'openai' || body.max_tokens === undefined) return body;
  const { max_tokens: limit, ...rest } = body;
  return { ...rest, max_completion_tokens: limit };
}

/**
 * Sends the request to the provider. When it cannot be reached the client gets a 502 in its format (the
 * reason without the key) and the result is null; also null, with nothing sent, when the client went away.
 */
export async function callProvider(
  call: Pick<GatewayCall, 'res' | 'api' | 'conversationId' | 'route' | 'apiKey'>,
  request: UpstreamRequest,
  deps: Pick<CallDeps, 'fetch' | 'logger'>,
  signal?: AbortSignal,
): Promise<Response | null> {
  try {
    return await (
      await deps.fetch()
    )(request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (signal?.aborted) return null;
    const reason = withoutKey(String((error as Error).cause ?? error), call.apiKey);
    deps.logger.warn(
      { conversation_id: call.conversationId, url: shownUrl(request.url), reason },
      'Model gateway: provider unreachable',
    );
    const message = `The model provider at ${shownUrl(call.route.baseUrl)} cannot be reached: ${reason}`;
    sendJson(call.res, 502, errorBody(call.api, 502, message, 'api_error'));
    return null;
  }
}

/** Forwards one call as is, or translated through Chat Completions, and counts it into the conversation. */
export async function runCall(
  call: GatewayCall,
  upstream: UpstreamApi,
  format: ClientFormat | null,
  deps: CallDeps,
) {
  const { req, res, route } = call;
  const outBody = format
    ? forOpenAi(format.toChat(call.body, route.modelId, call.stream.requested), route)
    : passthroughBody(upstream, call.body, route.modelId);
  const request = upstreamRequest(upstream, route, call.apiKey, req, outBody);
  const meter = new UsageMeter(upstream, request.body.length);
  const abort = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  const response = await callProvider(call, request, deps, abort.signal);
  if (!response) return;
  if (!response.ok) return relayError(call, response, format !== null, deps);
  try {
    if (format) await translated(call, response, format, meter, abort.signal);
    else await passthrough(res, response, meter);
  } finally {
    account(call, request, response, meter, deps);
  }
}

/** A provider error, its key hidden; in the client's format when the call was translated. */
async function relayError(call: GatewayCall, response: Response, translated: boolean, deps: CallDeps) {
  const text = withoutKey(await response.text(), call.apiKey);
  deps.logger.warn(
    { conversation_id: call.conversationId, status: response.status },
    'Model gateway: the provider refused the call',
  );
  if (!translated) {
    const headers = Object.fromEntries(
      REPLY_HEADERS.flatMap((name) => {
        const value = response.headers.get(name);
        return value === null ? [] : [[name, value]];
      }),
    );
    return void call.res.writeHead(response.status, headers).end(text);
  }
  let message = text.slice(0, 2000);
  try {
    message = errorMessageOf(JSON.parse(text)) ?? message;
  } catch {
    // not JSON: the text itself
  }
  sendJson(call.res, response.status, errorBody(call.api, response.status, message, 'upstream_error'));
}

async function passthrough(res: ServerResponse, response: Response, meter: UsageMeter) {
  const headers: Record<string, string> = {};
  for (const name of REPLY_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  res.writeHead(response.status, headers);
  const sse = (response.headers.get('content-type') ?? '').includes('text/event-stream');
  const parser = new SseParser();
  const chunks: Uint8Array[] = [];
  try {
    for await (const chunk of response.body ?? []) {
      if (sse) for (const event of parser.push(chunk)) meter.event(event);
      else chunks.push(chunk);
      await write(res, chunk);
    }
  } catch {
    // The provider's stream broke off: the client sees it end as the provider left it.
  }
  if (sse) for (const event of parser.end()) meter.event(event);
  else {
    try {
      meter.body(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    } catch {
      // not JSON: nothing to count but its length
    }
  }
  res.end();
}

async function translated(
  call: GatewayCall,
  response: Response,
  format: ClientFormat,
  meter: UsageMeter,
  signal: AbortSignal,
) {
  const { res, route } = call;
  if (!call.stream.requested) {
    let json: unknown;
    try {
      json = await response.json();
    } catch {
      const message = `The model provider at ${shownUrl(route.baseUrl)} sent a reply that is not JSON.`;
      return sendJson(res, 502, errorBody(call.api, 502, message, 'api_error'));
    }
    meter.body(json);
    return sendJson(res, 200, format.fromChat(chatReplyOf(json), route.modelId, call.body));
  }
  if (!call.stream.sse) {
    // Gemini's stream without `alt=sse` is one JSON array of its chunks: the whole reply is one.
    const reader = await readChatStream(response, meter, null);
    return sendJson(res, 200, [format.fromChat(reader.reply, route.modelId, call.body)]);
  }
  res.writeHead(200, SSE_HEADERS);
  let pending = '';
  const writer = format.writer((chunk) => (pending += chunk), route.modelId, call.body);
  const flush = async () => {
    if (!pending) return;
    const out = pending;
    pending = '';
    await write(res, out);
  };
  writer.start(randomBytes(12).toString('hex'));
  try {
    const reader = await readChatStream(response, meter, writer, flush);
    writer.finish(reader.reply);
  } catch (error) {
    if (signal.aborted) return void res.end();
    writer.fail(
      `The model provider's stream broke off: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  await flush();
  res.end();
}

/** Reads a streamed Chat reply (counting it), telling `writer` each part and flushing after each chunk. */
async function readChatStream(
  response: Response,
  meter: UsageMeter,
  writer: ConstructorParameters<typeof ChatStreamReader>[0] | null,
  flush: () => Promise<void> = async () => undefined,
): Promise<ChatStreamReader> {
  const reader = new ChatStreamReader(
    writer ?? { reasoning() {}, text() {}, toolStart() {}, toolArguments() {} },
  );
  const parser = new SseParser();
  const take = (events: ReturnType<SseParser['push']>) => {
    for (const event of events) {
      meter.event(event);
      const json = eventJson(event);
      if (!json) continue;
      if (json.error) throw new Error(errorMessageOf(json) ?? 'the provider sent an error');
      reader.chunk(json);
    }
  };
  for await (const chunk of response.body ?? []) {
    take(parser.push(chunk));
    await flush();
  }
  take(parser.end());
  return reader;
}

function account(
  call: GatewayCall,
  request: UpstreamRequest,
  response: Response,
  meter: UsageMeter,
  deps: CallDeps,
) {
  const usage = meter.result();
  const cost = resolveCost({
    route: call.route,
    usage,
    providerCostUsd: providerReportedCost(meter.raw, Object.fromEntries(response.headers)),
    prices: deps.prices,
  });
  try {
    if (deps.budget.account(call.conversationId, usage, cost)) {
      deps.notify({
        conversationId: call.conversationId,
        type: 'info',
        id: 'STATUS$BUDGET_NOT_ENFORCED',
        message: `Budget not enforced: no price known for ${call.route.model}`,
      });
    }
  } catch (error) {
    // The conversation was deleted while its call ran: nothing is left to count it into.
    deps.logger.warn(
      { conversation_id: call.conversationId, err: error },
      'Model gateway: the call could not be counted',
    );
  }
  deps.logger.info(
    {
      conversation_id: call.conversationId,
      api: call.api,
      url: shownUrl(request.url),
      status: response.status,
      prompt_tokens: usage.prompt,
      completion_tokens: usage.completion,
      estimated: usage.estimated,
      cost_usd: cost.usd,
      cost_known: cost.known,
    },
    'Model gateway call',
  );
}
