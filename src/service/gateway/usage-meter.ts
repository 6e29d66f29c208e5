import { estimatedUsage, type LlmUsage } from '../agent/llm/usage-and-cost';
import type { SseEvent } from './sse';
import { eventJson } from './sse';

/** The wire format of the provider a call goes out to. */
export type UpstreamApi = 'anthropic' | 'chat' | 'responses';

type Json = Record<string, unknown>;

const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const obj = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {});

/**
 * The tokens of one upstream call, read from what the provider sent (a whole body or its stream's events),
 * whatever the client's format: Chat's `usage`, Anthropic's `message_start`/`message_delta` usage, the
 * Responses `usage` of the final response. Characters / 4 when the provider reported none.
 */
export class UsageMeter {
  /** The provider's usage object, for a cost it reports (OpenRouter's `usage.cost`). */
  raw: Json | undefined;
  private usage: LlmUsage | undefined;
  private completionChars = 0;

  constructor(
    private readonly api: UpstreamApi,
    private readonly promptChars: number,
  ) {}

  /** A non-streamed reply's body. */
  body(json: unknown): void {
    const body = obj(json);
    if (this.api === 'anthropic') {
      this.anthropic(obj(body.usage));
      for (const block of Array.isArray(body.content) ? body.content : []) this.count(obj(block).text);
    } else if (this.api === 'chat') {
      this.chat(body.usage);
      this.count(obj(obj((body.choices as unknown[] | undefined)?.[0]).message).content);
    } else {
      this.responses(body.usage);
    }
  }

  /** One event of a streamed reply. */
  event(event: SseEvent): void {
    const json = eventJson(event);
    if (!json) return;
    if (this.api === 'chat') {
      if (json.usage) this.chat(json.usage);
      const delta = obj(obj((json.choices as unknown[] | undefined)?.[0]).delta);
      this.count(delta.content);
      for (const call of Array.isArray(delta.tool_calls) ? delta.tool_calls : [])
        this.count(obj(obj(call).function).arguments);
    } else if (this.api === 'anthropic') {
      if (json.type === 'message_start') this.anthropic(obj(obj(json.message).usage));
      if (json.type === 'message_delta') this.anthropic(obj(json.usage));
      const delta = obj(json.delta);
      this.count(delta.text);
      this.count(delta.partial_json);
    } else {
      if (json.type === 'response.completed' || json.type === 'response.incomplete')
        this.responses(obj(json.response).usage);
      this.count(json.type === 'response.output_text.delta' ? json.delta : undefined);
    }
  }

  /** The usage reported, else the estimate from what was sent and received. */
  result(): LlmUsage {
    return this.usage ?? estimatedUsage(this.promptChars, this.completionChars);
  }

  private count(text: unknown): void {
    if (typeof text === 'string') this.completionChars += text.length;
  }

  private chat(raw: unknown): void {
    const usage = obj(raw);
    if (usage.prompt_tokens === undefined && usage.completion_tokens === undefined) return;
    this.raw = usage;
    this.usage = {
      prompt: num(usage.prompt_tokens),
      completion: num(usage.completion_tokens),
      cache_read: num(obj(usage.prompt_tokens_details).cached_tokens),
      cache_write: 0,
      estimated: false,
    };
  }

  /** Anthropic counts the cached parts apart from `input_tokens`; a later event's counts replace earlier ones. */
  private anthropic(usage: Json): void {
    if (Object.keys(usage).length === 0) return;
    const previous = this.usage;
    const has = (name: string) => typeof usage[name] === 'number';
    const cacheRead = has('cache_read_input_tokens')
      ? num(usage.cache_read_input_tokens)
      : (previous?.cache_read ?? 0);
    const cacheWrite = has('cache_creation_input_tokens')
      ? num(usage.cache_creation_input_tokens)
      : (previous?.cache_write ?? 0);
    const uncached = has('input_tokens')
      ? num(usage.input_tokens)
      : (previous?.prompt ?? 0) - (previous?.cache_read ?? 0) - (previous?.cache_write ?? 0);
    this.raw = usage;
    this.usage = {
      prompt: uncached + cacheRead + cacheWrite,
      completion: has('output_tokens') ? num(usage.output_tokens) : (previous?.completion ?? 0),
      cache_read: cacheRead,
      cache_write: cacheWrite,
      estimated: false,
    };
  }

  private responses(raw: unknown): void {
    const usage = obj(raw);
    if (usage.input_tokens === undefined && usage.output_tokens === undefined) return;
    this.raw = usage;
    this.usage = {
      prompt: num(usage.input_tokens),
      completion: num(usage.output_tokens),
      cache_read: num(obj(usage.input_tokens_details).cached_tokens),
      cache_write: 0,
      estimated: false,
    };
  }
}
