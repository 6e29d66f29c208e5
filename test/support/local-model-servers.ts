import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { openAiFormat } from './scripted-llm/openai-format';
import type { ScriptedReply, ScriptedToolCall } from './scripted-llm/steps';
import { argumentText, textPieces, type WireResponse } from './scripted-llm/wire';

/**
 * Fakes of the local model servers Dockhand probes, on 127.0.0.1, answering as their documented APIs do:
 *
 * - Ollama: `GET /api/tags`, `POST /api/show` (`capabilities`, `model_info.<arch>.context_length`),
 *   `GET /api/ps` (`context_length`, `size_vram` of loaded models), `POST /api/chat` (NDJSON; takes
 *   `options.num_ctx`), and the OpenAI-compatible `POST /v1/chat/completions`, which ignores `num_ctx` and runs
 *   the model with the default context (4096 tokens below 24 GiB of VRAM).
 * - LM Studio: `GET /api/v1/models` (`max_context_length`, `loaded_instances[].config.context_length`,
 *   `capabilities.trained_for_tool_use`), `POST /api/v1/models/load` (`config.context_length`), and
 *   `POST /v1/chat/completions` (a model not loaded is loaded with the default context).
 * - llama.cpp's server: `GET /props` (`default_generation_settings.n_ctx`), `GET /v1/models`
 *   (`meta.n_ctx_train`), `POST /v1/chat/completions`; a prompt beyond `n_ctx` is refused with a 400.
 * - vLLM: `GET /v1/models` (`max_model_len`), `POST /v1/chat/completions`; a prompt beyond `max_model_len`
 *   is refused with a 400.
 *
 * Ollama and LM Studio cut a prompt longer than the context silently: the start goes, `prompt_eval_count`
 * (or `usage.prompt_tokens`) counts what was kept, and the model, having lost its instructions and tools,
 * answers with a tool call written as raw JSON text. Tokens are characters / 4 of the messages and tools.
 */

export type LocalServerKind = 'ollama' | 'lm_studio' | 'llama_cpp' | 'vllm';

export interface FakeModel {
  name: string;
  /** Context the model was trained for. */
  trainedContext: number;
  /** How the model answers a tool-call request: native calls, the text format, or neither. */
  tools: 'native' | 'text' | 'none';
  vision?: boolean;
  /** LM Studio: loaded with this context at the start (null: not loaded). */
  loadedContext?: number | null;
}

export interface LocalServerOptions {
  kind: LocalServerKind;
  models: FakeModel[];
  /** The agent turns: each request carrying tools takes the next reply ("done" text once they run out). */
  turns?: ScriptedReply[];
  /** llama.cpp's `n_ctx` or vLLM's `max_model_len` (the context the server was started with). */
  serverContext?: number;
  /** The port on 127.0.0.1 (a free one by default). */
  port?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** `performance.now()` when the request arrived. */
  at: number;
  body: Record<string, unknown> | undefined;
  /** Prompt tokens of a chat request (characters / 4), and the context it ran in. */
  promptTokens?: number;
  context?: number;
  truncated?: boolean;
  /** An agent turn (a request with tools that is not the tool-call probe). */
  turn?: boolean;
}

export interface FakeLocalServer {
  kind: LocalServerKind;
  origin: string;
  /** The OpenAI-compatible base URL (`<origin>/v1`). */
  baseUrl: string;
  requests: RecordedRequest[];
  /** The chat requests (native or OpenAI-compatible) that were agent turns. */
  readonly turns: RecordedRequest[];
  /** LM Studio's loads: model and context length. */
  loads: { model: string; contextLength: number }[];
  close(): Promise<void>;
}

/** Ollama's default context below 24 GiB of VRAM. */
export const OLLAMA_DEFAULT_CONTEXT = 4096;
/** LM Studio's default context when it loads a model on demand. */
export const LM_STUDIO_DEFAULT_CONTEXT = 4096;
const PROBE_MARKER = 'You are a tool-call check.';
const TEXT_FORMAT_MARKER = 'You have access to the following functions';

type Json = Record<string, unknown>;

function contentChars(content: unknown): number {
  if (typeof content === 'string') return content.length;
  if (!Array.isArray(content)) return 0;
  return content.reduce<number>((sum, part: unknown) => {
    const text = (part as { text?: unknown }).text;
    return sum + (typeof text === 'string' ? text.length : 0);
  }, 0);
}

function promptTokens(body: Json): number {
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  const chars =
    messages.reduce(
      (sum, m) => sum + contentChars(m.content) + (m.tool_calls ? JSON.stringify(m.tool_calls).length : 0),
      0,
    ) + (body.tools ? JSON.stringify(body.tools).length : 0);
  return Math.ceil(chars / 4);
}

function systemText(body: Json): string {
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  return messages
    .filter((m) => m.role === 'system')
    .map((m) => (typeof m.content === 'string' ? m.content : ''))
    .join('\n');
}

/** What the fake model says to a request it fully read. */
function answer(
  body: Json,
  model: FakeModel,
  turns: ScriptedReply[],
): { reply: ScriptedReply; turn: boolean } {
  const system = systemText(body);
  const nativeTools = Array.isArray(body.tools) && body.tools.length > 0;
  const textTools = system.includes(TEXT_FORMAT_MARKER);
  if (system.includes(PROBE_MARKER)) {
    if (nativeTools && model.tools === 'native')
      return { reply: { toolCalls: [{ name: 'report_number', args: { number: 7 } }] }, turn: false };
    if (textTools && model.tools !== 'none')
      return { reply: { text: '<function=report_number>\n<parameter=number>7</parameter>\n' }, turn: false };
    return { reply: { text: 'The number is 7.' }, turn: false };
  }
  if (!nativeTools && !textTools) return { reply: { text: 'OK' }, turn: false };
  const next = turns.shift() ?? { text: 'done' };
  if (textTools && next.toolCalls?.length) {
    const call = next.toolCalls[0] as ScriptedToolCall;
    const args = typeof call.args === 'object' ? call.args : {};
    const parameters = Object.entries(args).map(([k, v]) => `<parameter=${k}>${String(v)}</parameter>\n`);
    return { reply: { text: `<function=${call.name}>\n${parameters.join('')}` }, turn: true };
  }
  return { reply: next, turn: true };
}

/** The answer of a model that lost the start of its prompt: the call it meant, as raw JSON text. */
function confused(reply: ScriptedReply): ScriptedReply {
  const call = reply.toolCalls?.[0];
  if (!call) return reply;
  return { text: `{"name": "${call.name}", "arguments": ${argumentText(call)}}` };
}

function ollamaNdjson(reply: ScriptedReply, model: string, prompt: number): WireResponse {
  const at = '2026-01-01T00:00:00Z';
  const lines = textPieces(reply.text ?? '').map((piece) =>
    JSON.stringify({ model, created_at: at, message: { role: 'assistant', content: piece }, done: false }),
  );
  if (reply.toolCalls?.length) {
    lines.push(
      JSON.stringify({
        model,
        created_at: at,
        message: {
          role: 'assistant',
          content: '',
          tool_calls: reply.toolCalls.map((call) => ({
            function: { name: call.name, arguments: typeof call.args === 'object' ? call.args : {} },
          })),
        },
        done: false,
      }),
    );
  }
  lines.push(
    JSON.stringify({
      model,
      created_at: at,
      message: { role: 'assistant', content: '' },
      done: true,
      done_reason: 'stop',
      total_duration: 1_000_000,
      prompt_eval_count: prompt,
      eval_count: 20,
    }),
  );
  return {
    status: 200,
    headers: { 'content-type': 'application/x-ndjson' },
    events: lines.map((line) => `${line}\n`),
  };
}

function json(status: number, body: unknown): WireResponse {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

async function readJson(req: IncomingMessage): Promise<Json | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return value && typeof value === 'object' ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

function send(res: ServerResponse, wire: WireResponse): void {
  res.writeHead(wire.status, wire.headers);
  if (wire.body !== undefined) res.end(wire.body);
  else {
    for (const event of wire.events ?? []) res.write(event);
    res.end();
  }
}

export async function startLocalModelServer(options: LocalServerOptions): Promise<FakeLocalServer> {
  const { kind, models } = options;
  const turns = [...(options.turns ?? [])];
  const requests: RecordedRequest[] = [];
  const loads: { model: string; contextLength: number }[] = [];
  /** The context each loaded model runs with (Ollama and LM Studio). */
  const loaded = new Map<string, number>();
  for (const m of models) if (m.loadedContext) loaded.set(m.name, m.loadedContext);
  const find = (name: unknown) =>
    models.find((m) => m.name === name || (kind === 'ollama' && `${m.name}:latest` === name));

  function chat(body: Json, model: FakeModel, context: number, native: boolean): WireResponse {
    const tokens = promptTokens(body);
    const record = requests.at(-1) as RecordedRequest;
    record.promptTokens = tokens;
    record.context = context;
    if (tokens > context && (kind === 'llama_cpp' || kind === 'vllm')) {
      const message =
        kind === 'vllm'
          ? `This model's maximum context length is ${context} tokens. However, you requested ${tokens} tokens in the messages. Please reduce the length of the messages.`
          : `the request exceeds the available context size (${tokens} > ${context}), try increasing it`;
      return json(400, { error: { message, type: 'invalid_request_error', code: 400 } });
    }
    const truncated = tokens > context;
    record.truncated = truncated;
    const { reply, turn } = answer(body, model, turns);
    record.turn = turn;
    const counted = truncated ? context - 256 : tokens;
    const played = truncated ? confused(reply) : reply;
    if (native) return ollamaNdjson(played, String(body.model), counted);
    return openAiFormat.reply(
      { ...played, usage: { input: counted, output: 20 } },
      { n: requests.length, model: String(body.model), stream: body.stream === true, includeUsage: true },
    );
  }

  function route(method: string, path: string, body: Json | undefined): WireResponse {
    const serverContext = options.serverContext ?? 4096;
    if (method === 'GET' && path === '/v1/models') {
      return json(200, {
        object: 'list',
        data: models.map((m) => ({
          id: m.name,
          object: 'model',
          created: 1_700_000_000,
          owned_by: kind === 'vllm' ? 'vllm' : kind === 'llama_cpp' ? 'llamacpp' : 'organization_owner',
          ...(kind === 'vllm' ? { root: m.name, parent: null, max_model_len: serverContext } : {}),
          ...(kind === 'llama_cpp'
            ? { meta: { vocab_type: 2, n_ctx_train: m.trainedContext, n_params: 7e9 } }
            : {}),
        })),
      });
    }
    if (method === 'POST' && path === '/v1/chat/completions' && body) {
      const model = find(body.model);
      if (!model) return json(404, { error: { message: `model "${String(body.model)}" not found` } });
      let context = serverContext;
      if (kind === 'ollama') context = OLLAMA_DEFAULT_CONTEXT; // the OpenAI layer ignores num_ctx
      if (kind === 'lm_studio') {
        if (!loaded.has(model.name)) loaded.set(model.name, LM_STUDIO_DEFAULT_CONTEXT);
        context = loaded.get(model.name) as number;
      }
      if (kind === 'ollama') loaded.set(model.name, context);
      return chat(body, model, context, false);
    }
    if (kind === 'ollama') {
      if (method === 'GET' && path === '/api/tags')
        return json(200, {
          models: models.map((m) => ({
            name: `${m.name}:latest`,
            model: `${m.name}:latest`,
            size: 4e9,
            details: { format: 'gguf' },
          })),
        });
      if (method === 'POST' && path === '/api/show') {
        const model = find(body?.model);
        if (!model) return json(404, { error: `model '${String(body?.model)}' not found` });
        return json(200, {
          details: { format: 'gguf', family: 'qwen2', parameter_size: '7.6B', quantization_level: 'Q4_K_M' },
          model_info: {
            'general.architecture': 'qwen2',
            'general.parameter_count': 7_615_616_512,
            'qwen2.context_length': model.trainedContext,
          },
          capabilities: [
            'completion',
            ...(model.tools === 'native' ? ['tools'] : []),
            ...(model.vision ? ['vision'] : []),
          ],
        });
      }
      if (method === 'GET' && path === '/api/ps')
        return json(200, {
          models: [...loaded].map(([name, context]) => ({
            name: `${name}:latest`,
            model: `${name}:latest`,
            size: 6e9,
            size_vram: 6e9,
            context_length: context,
            expires_at: '2026-01-01T00:05:00Z',
          })),
        });
      if (method === 'POST' && path === '/api/chat' && body) {
        const model = find(body.model);
        if (!model) return json(404, { error: `model '${String(body.model)}' not found` });
        const numCtx = (body.options as { num_ctx?: unknown } | undefined)?.num_ctx;
        const context = typeof numCtx === 'number' ? numCtx : OLLAMA_DEFAULT_CONTEXT;
        loaded.set(model.name, context);
        return chat(body, model, context, true);
      }
    }
    if (kind === 'lm_studio') {
      if (method === 'GET' && path === '/api/v1/models')
        return json(200, {
          models: models.map((m) => ({
            type: 'llm',
            publisher: 'lmstudio-community',
            key: m.name,
            display_name: m.name,
            architecture: 'qwen2',
            quantization: { name: 'Q4_K_M', bits_per_weight: 4 },
            size_bytes: 4e9,
            params_string: '7B',
            loaded_instances: loaded.has(m.name)
              ? [{ id: m.name, config: { context_length: loaded.get(m.name) } }]
              : [],
            max_context_length: m.trainedContext,
            format: 'gguf',
            capabilities: { vision: m.vision ?? false, trained_for_tool_use: m.tools === 'native' },
          })),
        });
      if (method === 'POST' && path === '/api/v1/models/load') {
        const model = find(body?.model);
        if (!model) return json(404, { error: { message: `model ${String(body?.model)} not found` } });
        const asked = (body?.config as { context_length?: unknown } | undefined)?.context_length;
        const context = Math.min(
          typeof asked === 'number' ? asked : LM_STUDIO_DEFAULT_CONTEXT,
          model.trainedContext,
        );
        loaded.set(model.name, context);
        loads.push({ model: model.name, contextLength: context });
        return json(200, {
          model_instance_id: model.name,
          config: { context_length: context },
          load_time_seconds: 0.1,
        });
      }
    }
    if (kind === 'llama_cpp' && method === 'GET' && path === '/props') {
      return json(200, {
        default_generation_settings: { n_ctx: serverContext, params: { temperature: 0.8 } },
        total_slots: 1,
        model_path: `/models/${models[0]?.name ?? 'model'}.gguf`,
        modalities: { vision: false },
        build_info: 'b6000',
      });
    }
    return json(404, { error: { message: `No route ${method} ${path}` } });
  }

  const server = createServer((req, res) => {
    void (async () => {
      const at = performance.now();
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      const method = req.method ?? 'GET';
      const body = await readJson(req);
      requests.push({ method, path, at, body });
      send(res, route(method, path, body));
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`Fake ${kind} failed: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    kind,
    origin,
    baseUrl: `${origin}/v1`,
    requests,
    get turns() {
      return requests.filter((r) => r.turn === true);
    },
    loads,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
