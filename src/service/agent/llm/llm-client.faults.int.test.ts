import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { instantTiming } from '../../../../test/support/scripted-llm/instant-timing';
import { faults, startScriptedLlm, type ScriptedLlm } from '../../../../test/support/scripted-llm';
import { createLlmClient } from './llm-client';
import { LlmError } from './llm-errors';
import type { LlmClientConfig, LlmRequest, LlmRetryInfo } from './llm-types';
import { abortableSleep, type LlmTiming } from './retry-policy';

const KEY = 'sk-fault-test-9a8b7c6d5e4f';
const ASK: LlmRequest = { system: 'sys', messages: [{ role: 'user', content: 'hello' }] };

let llm: ScriptedLlm;

beforeEach(async () => {
  llm = await startScriptedLlm();
});

afterEach(async () => {
  await llm.close();
});

async function failure(promise: Promise<unknown>): Promise<LlmError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LlmError);
  return error as LlmError;
}

describe.each([
  { api: 'OpenAI', model: 'openai/gpt-4o' },
  { api: 'Anthropic', model: 'anthropic/claude-sonnet-4-5' },
])('LlmClient faults over $api', ({ model }) => {
  function client(
    timing: Partial<LlmTiming> = instantTiming().timing,
    config: Partial<LlmClientConfig> = {},
  ) {
    return createLlmClient({ model, apiKey: KEY, baseUrl: llm.baseUrl, timing, ...config });
  }

  it('retries a 429 after its Retry-After and reports the retry as n / 5', async () => {
    llm.push(faults.rateLimited(3), { text: 'recovered' });
    const { timing, waits } = instantTiming();
    const retries: LlmRetryInfo[] = [];

    const reply = await client(timing).complete({ ...ASK, onRetry: (info) => retries.push(info) });

    expect(reply.text).toBe('recovered');
    expect(reply.attempts).toBe(2);
    expect(waits).toEqual([3000]);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({
      attempt: 1,
      maxRetries: 5,
      retryInS: 3,
      kind: 'rate_limit',
      agentState: 'rate_limited',
      statusId: 'STATUS$LLM_RETRY',
      message: 'Retrying LLM request, 1 / 5',
    });
    expect(llm.calls).toHaveLength(2);
  });

  it('backs off 8 s (±10%) after a 429 whose Retry-After exceeds 120 s', async () => {
    llm.push(faults.rateLimited(600), { text: 'ok' });
    const { timing, waits } = instantTiming({ random: () => 1 });

    await client(timing).complete(ASK);

    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeCloseTo(8800, 6);
  });

  it('gives up after 5 rate-limited retries with the rate-limit stop message', async () => {
    llm.push(...Array.from({ length: 6 }, () => faults.rateLimited()));
    const { timing, waits } = instantTiming();
    const retries: LlmRetryInfo[] = [];

    const error = await failure(client(timing).complete({ ...ASK, onRetry: (info) => retries.push(info) }));

    expect(error.kind).toBe('rate_limit');
    expect(error.statusId).toBe('CHAT_INTERFACE$AGENT_RATE_LIMITED_STOPPED_MESSAGE');
    expect(error.attempts).toBe(6);
    expect(waits).toEqual([8000, 16000, 32000, 64000, 64000]);
    expect(retries.map((r) => r.message)).toEqual(
      [1, 2, 3, 4, 5].map((n) => `Retrying LLM request, ${n} / 5`),
    );
    expect(llm.calls).toHaveLength(6);
  });

  it('retries a 500 while staying running, then succeeds', async () => {
    llm.push(faults.serverError(), { text: 'second time lucky' });
    const retries: LlmRetryInfo[] = [];

    const reply = await client().complete({ ...ASK, onRetry: (info) => retries.push(info) });

    expect(reply.text).toBe('second time lucky');
    expect(retries).toMatchObject([{ kind: 'transient', agentState: 'running', retryInS: 8 }]);
  });

  it('reports exhausted 500s as an internal server error and 503s as service unavailable', async () => {
    llm.push(...Array.from({ length: 6 }, () => faults.serverError(500)));
    const internal = await failure(client().complete(ASK));
    expect(internal).toMatchObject({
      kind: 'transient',
      statusId: 'STATUS$ERROR_LLM_INTERNAL_SERVER_ERROR',
      attempts: 6,
    });

    llm.push(...Array.from({ length: 6 }, () => faults.serverError(503)));
    const unavailable = await failure(client().complete(ASK));
    expect(unavailable).toMatchObject({
      kind: 'transient',
      statusId: 'STATUS$ERROR_LLM_SERVICE_UNAVAILABLE',
    });
  });

  it('fails a 401 at once as an authentication error whose message hides the key', async () => {
    llm.push(faults.status(401, `Incorrect API key provided: ${KEY}`));

    const error = await failure(client().complete(ASK));

    expect(error.kind).toBe('auth');
    expect(error.statusId).toBe('STATUS$ERROR_LLM_AUTHENTICATION');
    expect(error.attempts).toBe(1);
    expect(error.message).not.toContain(KEY);
    expect(error.message).toContain('<secret_hidden>');
    expect(llm.calls).toHaveLength(1);
  });

  it('fails a 402 as out of credits', async () => {
    llm.push(faults.outOfCredits());
    const error = await failure(client().complete(ASK));
    expect(error).toMatchObject({ kind: 'out_of_credits', statusId: 'STATUS$ERROR_LLM_OUT_OF_CREDITS' });
    expect(llm.calls).toHaveLength(1);
  });

  it('reports a context-length 400 as an overflow, without retrying', async () => {
    llm.push(faults.contextExceeded());
    const error = await failure(client().complete(ASK));
    expect(error).toMatchObject({ kind: 'context_overflow', statusId: null });
    expect(llm.calls).toHaveLength(1);
  });

  it('reports a safety refusal as a content policy violation', async () => {
    llm.push(faults.contentPolicy());
    const error = await failure(client().complete(ASK));
    expect(error).toMatchObject({
      kind: 'content_policy',
      statusId: 'STATUS$ERROR_LLM_CONTENT_POLICY_VIOLATION',
    });
  });

  it('names the model and the base URL on a 404', async () => {
    llm.push(faults.modelNotFound());
    const error = await failure(client().complete(ASK));
    expect(error.kind).toBe('not_found');
    expect(error.message).toBe(`Model ${model} not found at ${llm.baseUrl}`);
  });

  it('reports other 4xx as a failed request with the masked provider message', async () => {
    llm.push(faults.status(422, `Unprocessable request from key ${KEY}`));
    const error = await failure(client().complete(ASK));
    expect(error.kind).toBe('other');
    expect(error.message).toMatch(/^LLM request failed: /);
    expect(error.message).not.toContain(KEY);
  });

  it('retries malformed JSON as transient, then fails with service unavailable', async () => {
    llm.push(faults.malformedJson(), { text: 'fine now' });
    expect((await client().complete(ASK)).text).toBe('fine now');

    llm.push(...Array.from({ length: 6 }, () => faults.malformedJson()));
    const error = await failure(client().complete(ASK));
    expect(error).toMatchObject({
      kind: 'transient',
      statusId: 'STATUS$ERROR_LLM_SERVICE_UNAVAILABLE',
      attempts: 6,
    });
  });

  it('retries a stream dropped mid-way as transient, then fails', async () => {
    llm.push(faults.dropStream(), { text: 'whole reply' });
    expect((await client().complete(ASK)).text).toBe('whole reply');

    llm.push(...Array.from({ length: 6 }, () => faults.dropStream()));
    const error = await failure(client().complete(ASK));
    expect(error).toMatchObject({ kind: 'transient', statusId: 'STATUS$ERROR_LLM_SERVICE_UNAVAILABLE' });
  });

  it('stops a hanging request when the signal aborts (Stop), and the server sees the close', async () => {
    llm.push(faults.hang());
    const stop = new AbortController();
    const pending = client().complete({ ...ASK, signal: stop.signal });
    await llm.waitForCalls(1);

    stop.abort();
    const error = await failure(pending);

    expect(error.kind).toBe('aborted');
    expect(error.statusId).toBeNull();
    await expect.poll(() => llm.calls[0]?.clientClosed).toBe(true);
  });

  it('aborts a silent server after the idle timeout and retries it as transient', async () => {
    llm.push(faults.hang(), { fault: 'hang', afterEvents: 2, reply: { text: 'stalls half way' } });
    const { timing } = instantTiming({ idleTimeoutMs: 200, maxRetries: 1 });

    const error = await failure(client(timing).complete(ASK));

    expect(error.kind).toBe('transient');
    expect(error.message).toBe('The LLM sent nothing for 0.2 s.');
    expect(error.attempts).toBe(2);
    await expect.poll(() => llm.calls.every((call) => call.clientClosed)).toBe(true);
  });

  it('waits for slow chunks as long as each arrives within the idle timeout', async () => {
    llm.push({ text: 'one two three four five six', chunkDelayMs: 50 });
    const { timing } = instantTiming({ idleTimeoutMs: 1000 });
    expect((await client(timing).complete(ASK)).text).toBe('one two three four five six');
  });

  it('cancels a retry wait when Stop is pressed', async () => {
    llm.push(faults.rateLimited());
    const stop = new AbortController();
    const timing = { sleep: abortableSleep, backoffS: [60] };

    const error = await failure(
      client(timing).complete({ ...ASK, signal: stop.signal, onRetry: () => stop.abort() }),
    );

    expect(error.kind).toBe('aborted');
    expect(llm.calls).toHaveLength(1);
  });

  it('retries an empty reply with temperature 1', async () => {
    llm.push({ text: '' }, { text: 'now with words' });

    const reply = await client().complete({ ...ASK, temperature: 0 });

    expect(reply.text).toBe('now with words');
    expect(llm.calls.map((c) => c.body?.temperature)).toEqual([0, 1]);
  });

  it('asks to switch to the text tool format when a 400 rejects the tools', async () => {
    llm.push(faults.status(400, 'This model does not support tools'));
    const tools = [
      { name: 'think', description: 'Think', parameters: { type: 'object' as const, properties: {} } },
    ];
    const error = await failure(client().complete({ ...ASK, tools }));
    expect(error).toMatchObject({ kind: 'tools_unsupported', statusId: null });
  });
});

describe('LlmClient, provider-specific faults', () => {
  it("treats OpenAI's 429 insufficient_quota as out of credits", async () => {
    llm.push(faults.status(429, 'You exceeded your current quota', { code: 'insufficient_quota' }));
    const client = createLlmClient({ model: 'openai/gpt-4o', apiKey: KEY, baseUrl: llm.baseUrl });
    const error = await failure(client.complete(ASK));
    expect(error).toMatchObject({ kind: 'out_of_credits', statusId: 'STATUS$ERROR_LLM_OUT_OF_CREDITS' });
    expect(llm.calls).toHaveLength(1);
  });

  it('stops every call of a client when its own signal aborts', async () => {
    llm.push(faults.hang());
    const closing = new AbortController();
    const client = createLlmClient({
      model: 'openai/gpt-4o',
      apiKey: KEY,
      baseUrl: llm.baseUrl,
      signal: closing.signal,
    });
    const pending = client.complete(ASK);
    await llm.waitForCalls(1);
    closing.abort();
    expect((await failure(pending)).kind).toBe('aborted');
  });
});
