import { estimatedUsage, type LlmUsage } from '../agent/llm/usage-and-cost';
import type { SseEvent } from './sse';
import { eventJson } from './sse';
import { asArray, asNumber, asObject, type Json } from './translate/json';

/** The wire format of the provider a call goes out to. */
export type UpstreamApi = 'anthropic' | 'chat' | 'responses';

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
    const body = asObject(json);
    if (this.api === 'anthropic') {
      this.anthropic(asObject(body.usage));
      for (const block of asArray(body.content)) this.count(asObject(block).text);
    } else if (this.api === 'chat') {
      this.chat(body.usage);
      this.count(asObject(asObject(asArray(body.choices)[0]).message).content);
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
      const delta = asObject(asObject(asArray(json.choices)[0]).delta);
      this.count(delta.content);
      this.count(delta.reasoning_content ?? delta.reasoning);
      for (const call of asArray(delta.tool_calls)) this.count(asObject(asObject(call).function).arguments);
    } else if (this.api === 'anthropic') {
      if (json.type === 'message_start') this.anthropic(asObject(asObject(json.message).usage));
      if (json.type === 'message_delta') this.anthropic(asObject(json.usage));
      const delta = asObject(json.delta);
      this.count(delta.text);
      this.count(delta.partial_json);
    } else {
      if (json.type === 'response.completed' || json.type === 'response.incomplete')
        this.responses(asObject(json.response).usage);
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
    const usage = asObject(raw);
    if (usage.prompt_tokens === undefined && usage.completion_tokens === undefined) return;
    this.raw = usage;
    this.usage = {
      prompt: asNumber(usage.prompt_tokens),
      completion: asNumber(usage.completion_tokens),
      cache_read: asNumber(asObject(usage.prompt_tokens_details).cached_tokens),
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
      ? asNumber(usage.cache_read_input_tokens)
      : (previous?.cache_read ?? 0);
    const cacheWrite = has('cache_creation_input_tokens')
      ? asNumber(usage.cache_creation_input_tokens)
      : (previous?.cache_write ?? 0);
    const uncached = has('input_tokens')
      ? asNumber(usage.input_tokens)
      : (previous?.prompt ?? 0) - (previous?.cache_read ?? 0) - (previous?.cache_write ?? 0);
    this.raw = usage;
    this.usage = {
      prompt: uncached + cacheRead + cacheWrite,
      completion: has('output_tokens') ? asNumber(usage.output_tokens) : (previous?.completion ?? 0),
      cache_read: cacheRead,
      cache_write: cacheWrite,
      estimated: false,
    };
  }

  private responses(raw: unknown): void {
    const usage = asObject(raw);
    if (usage.input_tokens === undefined && usage.output_tokens === undefined) return;
    this.raw = usage;
    this.usage = {
      prompt: asNumber(usage.input_tokens),
      completion: asNumber(usage.output_tokens),
      cache_read: asNumber(asObject(usage.input_tokens_details).cached_tokens),
      cache_write: 0,
      estimated: false,
    };
  }
}
