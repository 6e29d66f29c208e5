import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLlmClient } from '../../src/service/agent/llm/llm-client';
import { generateTitle, TITLE_MARKER } from '../../src/service/agent/title';
import { SecretMasker } from '../../src/service/events/secret-masker';
import { faults, startScriptedLlm, type RecordedLlmRequest, type ScriptedLlm } from '../support/scripted-llm';
import { instantTiming } from '../support/scripted-llm/instant-timing';

const SECRET = 'ghp_s3cr3tT0kenValue';
const MESSAGE = 'The login page redirects forever after a password reset; please find out why and fix it.';

let llm: ScriptedLlm;
const masker = new SecretMasker([SECRET]);

beforeEach(async () => {
  llm = await startScriptedLlm();
});

afterEach(async () => {
  await llm.close();
});

function client(model = 'openai/gpt-4o') {
  return createLlmClient({
    model,
    apiKey: 'sk-test-key',
    baseUrl: llm.baseUrl,
    timing: instantTiming().timing,
  });
}

/** The system prompt and the user text of a recorded OpenAI call. */
function openAiPrompt(call: RecordedLlmRequest | undefined): { system: string; user: string } {
  const messages = call?.body?.messages as { role: string; content: unknown }[];
  const text = (role: string) =>
    JSON.stringify(messages.filter((m) => m.role === role).map((m) => m.content));
  return { system: text('system'), user: text('user') };
}

describe('generateTitle against a scripted model server', () => {
  it('asks once, with the title marker, and returns the title with the call it cost', async () => {
    llm.push({ text: 'Fix login redirect loop after reset', usage: { input: 80, output: 8 } });

    const result = await generateTitle(client(), MESSAGE, masker);

    expect(result?.title).toBe('Fix login redirect loop after reset');
    expect(result?.call).toMatchObject({
      model: 'gpt-4o',
      usage: { prompt: 80, completion: 8, estimated: false },
      cost: { known: true, source: 'price_table' },
      attempts: 1,
    });
    expect(result?.call?.cost.usd).toBeGreaterThan(0);
    expect(llm.calls).toHaveLength(1);
    const prompt = openAiPrompt(llm.calls[0]);
    expect(prompt.system).toContain(TITLE_MARKER);
    expect(prompt.system).toContain('at most 50 characters');
    expect(prompt.user).toContain(MESSAGE);
  });

  it('works the same over the Anthropic API', async () => {
    llm.push({ text: 'Fix login redirect loop' });

    const result = await generateTitle(client('anthropic/claude-haiku-4-5'), MESSAGE, masker);

    expect(result?.title).toBe('Fix login redirect loop');
    expect(result?.call?.usage.prompt).toBe(100);
    expect(JSON.stringify(llm.calls[0]?.body?.system)).toContain(TITLE_MARKER);
  });

  it('cuts a title longer than 50 characters to 47 + "..."', async () => {
    const long = 'Investigate and fix the infinite redirect loop on the login page';
    llm.push({ text: long });

    const result = await generateTitle(client(), MESSAGE, masker);

    expect(result?.title).toBe(`${long.slice(0, 47)}...`);
    expect(result?.title).toHaveLength(50);
  });

  it('keeps a title of exactly 50 characters, and takes the title out of quotes and labels', async () => {
    const fifty = 'A'.repeat(50);
    llm.push({ text: fifty }, { text: '\n  Title: "Fix the login loop."\nBecause the user asked.' });

    expect((await generateTitle(client(), MESSAGE, masker))?.title).toBe(fifty);
    expect((await generateTitle(client(), MESSAGE, masker))?.title).toBe('Fix the login loop');
  });

  it('falls back to the first 30 characters + "..." when the call fails', async () => {
    llm.push(faults.unauthorized());

    const result = await generateTitle(client(), MESSAGE, masker);

    expect(result).toEqual({ title: `${MESSAGE.slice(0, 30)}...`, call: null });
    expect(llm.calls).toHaveLength(1);
  });

  it('falls back after the retries of a failing server are spent', async () => {
    llm.push(...Array.from({ length: 6 }, () => faults.serverError()));

    const result = await generateTitle(client(), 'Short question', masker);

    expect(result).toEqual({ title: 'Short question', call: null });
    expect(llm.calls).toHaveLength(6);
  });

  it('falls back when the reply holds no title, and still reports the call', async () => {
    llm.push({ text: '""' });

    const result = await generateTitle(client(), MESSAGE, masker);

    expect(result?.title).toBe(`${MESSAGE.slice(0, 30)}...`);
    expect(result?.call?.usage.completion).toBe(20);
  });

  it('never sends or returns a secret, not even a cut part of one', async () => {
    const message = `Clone with token ${SECRET} and run the tests`;
    llm.push({ text: `Use ${SECRET} to clone` }, faults.unauthorized());

    const named = await generateTitle(client(), message, masker);
    const fallback = await generateTitle(client(), message, masker);

    expect(named?.title).toBe('Use <secret_hidden> to clone');
    expect(fallback?.title).toBe('Clone with token <secret_hidde...');
    for (const call of llm.calls) expect(call.rawBody).not.toContain(SECRET);
    expect(JSON.stringify([named, fallback])).not.toContain(SECRET.slice(0, 10));
  });

  it('gives null for a message without text, without calling the model', async () => {
    expect(await generateTitle(client(), '  \n ', masker)).toBeNull();
    expect(llm.calls).toHaveLength(0);
  });
});
