import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { anthropicFormat } from './anthropic-format';
import { geminiFormat } from './gemini-format';
import { openAiFormat } from './openai-format';
import { responsesFormat } from './responses-format';
import { isFault } from './steps';
import type { RecordedLlmRequest, ScriptedApi, ScriptedOutcome, ScriptedStep } from './steps';
import { jsonResponse, type WireContext, type WireFormat, type WireResponse } from './wire';

export * from './steps';

/**
 * A real HTTP server on 127.0.0.1 that answers model calls from a script: OpenAI Chat Completions
 * (`POST /v1/chat/completions`), OpenAI Responses (`POST /v1/responses`), Anthropic Messages
 * (`POST /v1/messages`) and Gemini (`POST /v1beta/models/{model}:generateContent`, and
 * `:streamGenerateContent`), streamed or not, plus `GET /v1/models` and Ollama's `GET /api/tags`. Each model call takes the next step; every request
 * is recorded.
 */
export interface ScriptedLlm {
  /** `http://127.0.0.1:<port>/v1`: the base URL to configure a provider with. */
  baseUrl: string;
  /** `http://127.0.0.1:<port>`: the root, as Ollama's native API and Gemini's base URL are addressed. */
  origin: string;
  /** Every request received, in order. */
  requests: RecordedLlmRequest[];
  /** The model calls among them (chat completions, responses, messages, Gemini generateContent). */
  readonly calls: RecordedLlmRequest[];
  /** Steps not yet played. */
  readonly remaining: number;
  push(...steps: ScriptedStep[]): void;
  /** Resolves once the server has received `count` model calls. */
  waitForCalls(count: number): Promise<void>;
  close(): Promise<void>;
}

export interface ScriptedLlmOptions {
  /** Names served by `GET /v1/models` and `GET /api/tags`. */
  models?: string[];
  /**
   * Side channels (titles, condenser summaries), told apart by a marker in the request: a request containing
   * `marker` is answered by `step` every time, without using the ordered steps of the agent.
   */
  channels?: { marker: string; step: ScriptedStep }[];
}

const FORMATS: Partial<Record<ScriptedApi, WireFormat>> = {
  openai: openAiFormat,
  anthropic: anthropicFormat,
  responses: responsesFormat,
  gemini: geminiFormat,
};

const MODEL_CALLS: ScriptedApi[] = ['openai', 'anthropic', 'responses', 'gemini'];

/** Gemini names the model and the streaming in the path: `/v1beta/models/{model}:{method}`. */
const GEMINI_CALL = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

function apiOf(method: string, path: string): ScriptedApi {
  if (method === 'POST' && path === '/v1/chat/completions') return 'openai';
  if (method === 'POST' && path === '/v1/messages') return 'anthropic';
  if (method === 'POST' && path === '/v1/responses') return 'responses';
  if (method === 'POST' && GEMINI_CALL.test(path)) return 'gemini';
  if (method === 'GET' && path === '/v1/models') return 'models';
  if (method === 'GET' && path === '/api/tags') return 'ollama-tags';
  return 'unknown';
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function headersOf(req: IncomingMessage): Record<string, string> {
  return Object.fromEntries(
    Object.entries(req.headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(', ') : (value ?? ''),
    ]),
  );
}

function write(res: ServerResponse, chunk: string): Promise<void> {
  return new Promise((resolve) => (res.write(chunk) ? resolve() : res.once('drain', resolve)));
}

function modelList(models: string[]): WireResponse {
  return jsonResponse(200, {
    object: 'list',
    data: models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'scripted' })),
  });
}

function ollamaTags(models: string[]): WireResponse {
  return jsonResponse(200, {
    models: models.map((name) => ({
      name,
      model: name,
      modified_at: '2025-01-01T00:00:00Z',
      size: 1,
      digest: 'scripted',
      details: { format: 'gguf', family: 'scripted' },
    })),
  });
}

/** Writes a response: a whole body, or its events one by one (`limit` cuts the stream short). */
async function play(
  res: ServerResponse,
  wire: WireResponse,
  chunkDelayMs: number,
  limit = Infinity,
): Promise<void> {
  res.writeHead(wire.status, wire.headers);
  if (wire.body !== undefined) {
    if (limit === Infinity) res.end(wire.body);
    else await write(res, wire.body.slice(0, Math.floor(wire.body.length / 2)));
    return;
  }
  res.flushHeaders();
  const events = wire.events ?? [];
  for (const event of events.slice(0, limit)) {
    if (chunkDelayMs > 0) await delay(chunkDelayMs);
    if (res.destroyed) return;
    await write(res, event);
  }
  if (limit === Infinity) res.end();
}

export async function startScriptedLlm(
  steps: ScriptedStep[] = [],
  options: ScriptedLlmOptions = {},
): Promise<ScriptedLlm> {
  const queue = [...steps];
  const requests: RecordedLlmRequest[] = [];
  const callWaiters: { count: number; resolve: () => void }[] = [];
  let callCount = 0;
  const models = options.models ?? ['scripted-model'];

  const notifyCallWaiters = () => {
    for (const waiter of callWaiters.filter((w) => callCount >= w.count)) {
      callWaiters.splice(callWaiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };

  async function answerCall(
    res: ServerResponse,
    format: WireFormat,
    request: RecordedLlmRequest,
  ): Promise<void> {
    const geminiModel = GEMINI_CALL.exec(request.path)?.[1];
    const context: WireContext = {
      n: callCount,
      model: geminiModel ?? (typeof request.body?.model === 'string' ? request.body.model : 'scripted-model'),
      stream: request.stream,
      includeUsage:
        (request.body?.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true,
    };
    const channel = options.channels?.find((c) => request.rawBody.includes(c.marker));
    const step = channel ? channel.step : queue.shift();
    if (step === undefined) {
      await play(
        res,
        format.error({
          fault: 'status',
          status: 500,
          message: `Scripted LLM has no step left for call ${callCount}`,
        }),
        0,
      );
      return;
    }
    const outcome: ScriptedOutcome = typeof step === 'function' ? await step(request) : step;
    if (!isFault(outcome)) return play(res, format.reply(outcome, context), outcome.chunkDelayMs ?? 0);
    switch (outcome.fault) {
      case 'status':
        return play(res, format.error(outcome), 0);
      case 'malformed-json':
        return play(res, format.malformed(context), 0);
      case 'drop': {
        const reply = outcome.reply ?? { text: 'This reply is cut off before its end.' };
        await play(res, format.reply(reply, context), reply.chunkDelayMs ?? 0, outcome.afterEvents ?? 2);
        // Let the written events reach the client before the connection goes.
        await delay(20);
        res.socket?.destroy();
        return;
      }
      case 'hang':
        if (outcome.afterEvents !== undefined) {
          const reply = outcome.reply ?? { text: 'This reply stalls.' };
          await play(res, format.reply(reply, context), reply.chunkDelayMs ?? 0, outcome.afterEvents);
        }
        // Nothing more is written: the client's abort (or close()) ends the connection.
        return;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const startedAt = performance.now();
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    const rawBody = await readBody(req);
    const body = parseJson(rawBody);
    const headers = headersOf(req);
    const api = apiOf(method, path);
    const request: RecordedLlmRequest = {
      index: requests.length,
      method,
      path,
      api,
      headers,
      auth:
        headers.authorization ??
        headers['x-api-key'] ??
        headers['x-goog-api-key'] ??
        url.searchParams.get('key') ??
        undefined,
      rawBody,
      body,
      stream:
        api === 'gemini' ? GEMINI_CALL.exec(path)?.[2] === 'streamGenerateContent' : body?.stream === true,
      clientClosed: false,
      startedAt,
      endedAt: null,
    };
    requests.push(request);
    res.on('close', () => {
      request.endedAt = performance.now();
      if (!res.writableFinished) request.clientClosed = true;
    });
    const format = FORMATS[api];
    if (format) {
      callCount += 1;
      notifyCallWaiters();
      return answerCall(res, format, request);
    }
    if (api === 'models') return play(res, modelList(models), 0);
    if (api === 'ollama-tags') return play(res, ollamaTags(models), 0);
    return play(res, jsonResponse(404, { error: { message: `No route ${method} ${path}` } }), 0);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`Scripted LLM failed: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl: `${origin}/v1`,
    origin,
    requests,
    get calls() {
      return requests.filter((r) => MODEL_CALLS.includes(r.api));
    },
    get remaining() {
      return queue.length;
    },
    push: (...more) => void queue.push(...more),
    waitForCalls(count) {
      if (callCount >= count) return Promise.resolve();
      return new Promise((resolve) => callWaiters.push({ count, resolve }));
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
