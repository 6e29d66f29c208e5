import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { ModelRoutingError, resolveModelRoute, type ModelRoute } from '../agent/llm/model-routing';
import { PriceTable } from '../agent/llm/prices';
import type { Db } from '../storage/database';
import { listenOnLoopback } from '../listen';
import { GatewayBudget, type BudgetLimits } from './gateway-budget';
import { callProvider, runCall, sendJson, type CallDeps, type GatewayStatus } from './gateway-call';
import { isGatewayHost } from './gateway-host';
import type { GatewayTarget, TargetOf } from './gateway-target';
import { GatewayTokens } from './gateway-tokens';
import { TRANSLATED } from './translate/formats';
import type { Json } from './translate/json';
import { passthroughBody, upstreamRequest, withoutKey } from './upstream';
import type { UpstreamApi } from './usage-meter';
import {
  errorBody,
  operationOf,
  presentedCredentials,
  type ClientApi,
  type GatewayOperation,
} from './wire-api';

export interface ModelGatewayOptions {
  logger: Logger;
  db: Db;
  /** The conversation's model, base URL and key (null once the conversation is gone). */
  targets: TargetOf;
  budgetLimits: () => BudgetLimits;
  prices?: PriceTable;
  /** The transport of provider calls; Dockhand's model-call transport by default. */
  fetch?: typeof fetch;
}

/** The addresses and credential an agent in a sandbox is configured with. */
export interface GatewayEndpoint {
  /** The placeholder key: `ANTHROPIC_API_KEY`/`OPENAI_API_KEY`/`GEMINI_API_KEY` of the agent. */
  token: string;
  /** `ANTHROPIC_BASE_URL` (the SDK appends `/v1/messages`). */
  anthropicBaseUrl: string;
  /** OpenAI's base URL, with `/v1` (clients append `/chat/completions` or `/responses`). */
  openaiBaseUrl: string;
  /** `GOOGLE_GEMINI_BASE_URL` (the SDK appends `/v1beta/models/…`). */
  geminiBaseUrl: string;
}

export type { GatewayStatus } from './gateway-call';

/** Request bodies above this are refused (a long conversation with images stays well below). */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

class ClientError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code = 'invalid_request_error',
  ) {
    super(message);
  }
}

async function readJson(req: IncomingMessage): Promise<Json> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES)
      throw new ClientError(413, `The request body is over ${MAX_BODY_BYTES} bytes.`, 'request_too_large');
    chunks.push(chunk as Buffer);
  }
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Json;
  } catch {
    // reported below
  }
  throw new ClientError(400, 'The request body is not a JSON object.');
}

/**
 * The model gateway: an HTTP server on 127.0.0.1 that the agents in a conversation's sandbox call in their own
 * provider's wire format with a placeholder token; it calls the conversation's configured model with the
 * real key, translating between formats where they differ, and counts each call into the conversation's
 * metrics and budget.
 */
export class ModelGateway {
  readonly tokens = new GatewayTokens();
  private server: Server | null = null;
  private listening = 0;
  private readonly statusListeners = new Set<(status: GatewayStatus) => void>();
  private readonly deps: CallDeps;

  constructor(private readonly options: ModelGatewayOptions) {
    const given = options.fetch;
    this.deps = {
      logger: options.logger,
      budget: new GatewayBudget(options.db, options.budgetLimits),
      prices: options.prices ?? new PriceTable(),
      // The transport loads undici on the first call, not at the service's start.
      fetch: async () => given ?? (await import('../agent/llm/http-transport')).modelFetch,
      notify: (status) => this.statusListeners.forEach((listener) => listener(status)),
    };
  }

  /** The port on 127.0.0.1 (0 before `start`). */
  get port(): number {
    return this.listening;
  }

  async start(): Promise<void> {
    const { server, port } = await listenOnLoopback(
      (req, res) => {
        this.handle(req, res).catch((error: unknown) => {
          this.options.logger.error({ err: error }, 'Model gateway: request failed');
          sendJson(res, 500, errorBody(null, 500, 'The model gateway failed on this request.', 'api_error'));
        });
      },
      { port: 0, strict: true },
    );
    this.server = server;
    this.listening = port;
  }

  /**
   * The conversation's endpoint on `baseUrl`, the address at which its sandbox reaches this gateway
   * (`http://127.0.0.1:<port>` for a process sandbox or host networking, a forwarded port otherwise).
   */
  endpointFor(conversationId: string, baseUrl: string): GatewayEndpoint {
    const base = baseUrl.replace(/\/+$/, '');
    return {
      token: this.tokens.issue(conversationId),
      anthropicBaseUrl: base,
      openaiBaseUrl: `${base}/v1`,
      geminiBaseUrl: base,
    };
  }

  /** The conversation's token opens nothing any more (called when it is deleted). */
  revoke(conversationId: string): void {
    this.tokens.revoke(conversationId);
  }

  /** What to show in a conversation (a refusal, a budget no longer enforced); returns the unsubscribe. */
  onStatus(listener: (status: GatewayStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return Promise.resolve();
    return new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://gateway');
    const op = operationOf(req.method ?? 'GET', url.pathname);
    const api = op?.api ?? null;
    // No page may call the gateway: no CORS, and a browser's request (it always sends Origin) is refused.
    if (req.headers.origin !== undefined || !isGatewayHost(req.headers.host)) {
      return sendJson(
        res,
        403,
        errorBody(api, 403, 'The model gateway takes no request from this host or page.', 'permission_error'),
      );
    }
    const conversationId = this.authenticate(req, url.searchParams, api);
    const target = conversationId ? await this.options.targets(conversationId) : null;
    if (!conversationId || !target) {
      return sendJson(
        res,
        401,
        errorBody(
          api,
          401,
          'Invalid API key: use the Dockhand gateway token of this conversation.',
          'invalid_api_key',
        ),
      );
    }
    if (!op)
      return sendJson(
        res,
        404,
        errorBody(null, 404, `No such endpoint: ${req.method} ${url.pathname}`, 'not_found_error'),
      );
    try {
      const route = this.routeOf(target);
      if (op.kind === 'models') return sendJson(res, 200, modelList(op.api, route.modelId));
      const body = await readJson(req);
      if (op.kind === 'count_tokens')
        return await this.countTokens(req, res, op.api, conversationId, body, route, target);
      const refusal = this.deps.budget.refusal(conversationId);
      if (refusal) {
        this.deps.notify({ conversationId, type: 'error', id: 'STATUS$ERROR', message: refusal });
        return sendJson(res, 402, errorBody(api, 402, refusal, 'budget_exceeded'));
      }
      await this.call(req, res, op, url.searchParams, conversationId, body, route, target);
    } catch (error) {
      if (error instanceof ClientError)
        return sendJson(res, error.status, errorBody(api, error.status, error.message, error.code));
      if (error instanceof ModelRoutingError)
        return sendJson(res, 400, errorBody(api, 400, error.message, 'invalid_request_error'));
      throw error;
    }
  }

  /** The conversation of the token every credential presents, or null. */
  private authenticate(req: IncomingMessage, query: URLSearchParams, api: ClientApi | null): string | null {
    const presented = presentedCredentials(req, query, api);
    const ids = presented.map((token) => this.tokens.check(token));
    const first = ids[0];
    return first && ids.every((id) => id === first) ? first : null;
  }

  private routeOf(target: GatewayTarget): ModelRoute {
    if (!target.model) throw new ClientError(400, 'No model is configured: choose one in the settings.');
    return resolveModelRoute(target.model, target.baseUrl);
  }

  private async call(
    req: IncomingMessage,
    res: ServerResponse,
    op: GatewayOperation,
    query: URLSearchParams,
    conversationId: string,
    body: Json,
    route: ModelRoute,
    target: GatewayTarget,
  ): Promise<void> {
    const upstream = upstreamApiOf(op.api, route);
    // Translation goes through Chat Completions only: an Anthropic model takes Anthropic clients alone.
    const format = op.api === upstream || upstream !== 'chat' ? null : (TRANSLATED[op.api] ?? null);
    if (op.api !== upstream && !format) {
      throw new ClientError(
        400,
        `The model ${route.model} is served by Anthropic's Messages API, which only an Anthropic Messages client (Claude Code) can call through the gateway: choose an OpenAI-compatible model for this agent.`,
      );
    }
    const requested = op.streamPath ?? body.stream === true;
    await runCall(
      {
        req,
        res,
        api: op.api,
        conversationId,
        body,
        stream: { requested, sse: op.api !== 'gemini' || query.get('alt') === 'sse' },
        route,
        apiKey: target.apiKey,
      },
      upstream,
      format,
      this.deps,
    );
  }

  /** Anthropic's count, from Anthropic itself when it serves the model, else characters / 4. */
  private async countTokens(
    req: IncomingMessage,
    res: ServerResponse,
    api: ClientApi,
    conversationId: string,
    body: Json,
    route: ModelRoute,
    target: GatewayTarget,
  ) {
    if (api === 'anthropic' && route.provider === 'anthropic') {
      const request = upstreamRequest(
        'anthropic',
        route,
        target.apiKey,
        req,
        passthroughBody('anthropic', body, route.modelId),
        '/messages/count_tokens',
      );
      const call = { res, api, conversationId, route, apiKey: target.apiKey };
      const response = await callProvider(call, request, this.deps);
      if (!response) return;
      const text = withoutKey(await response.text(), target.apiKey);
      return void res.writeHead(response.status, { 'content-type': 'application/json' }).end(text);
    }
    // The model's name is no part of the prompt (undefined leaves it out of the JSON).
    const tokens = Math.ceil(JSON.stringify({ ...body, model: undefined }).length / 4);
    sendJson(res, 200, api === 'gemini' ? { totalTokens: tokens } : { input_tokens: tokens });
  }
}

/** Anthropic models are called in Messages; OpenAI's own in Responses when the client speaks it; others in Chat. */
function upstreamApiOf(api: ClientApi, route: ModelRoute): UpstreamApi {
  if (route.provider === 'anthropic') return 'anthropic';
  return api === 'responses' && route.provider === 'openai' ? 'responses' : 'chat';
}

/** The one model a conversation's agent may use, listed in its API's format. */
function modelList(api: ClientApi, modelId: string): Json {
  if (api === 'gemini') {
    return {
      models: [
        {
          name: `models/${modelId}`,
          displayName: modelId,
          supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
        },
      ],
    };
  }
  // OpenAI's and Anthropic's list fields together: each client reads its own.
  return {
    object: 'list',
    data: [
      {
        id: modelId,
        object: 'model',
        type: 'model',
        display_name: modelId,
        created: 0,
        created_at: '1970-01-01T00:00:00Z',
        owned_by: 'dockhand',
      },
    ],
    has_more: false,
    first_id: modelId,
    last_id: modelId,
  };
}
