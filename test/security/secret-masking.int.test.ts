import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import { startTestService, type TestService } from '../support/service';
import { until } from '../support/until';
import { conversationEvents, conversationInfo, TEST_SANDBOX, useScriptedModel } from '../sandbox/support';

const ADDED = 'added-while-running-5d2e';
const CHANGED = 'changed-while-running-77ab';
/** Long enough that its base64 wraps at 76 columns. */
const ENCODED = 'encoded-secret-3f9a/Zq+K7wXv2LmN8pR4tY6uB1cD5eG0hJ-sT9kQ_aWxV=';

/**
 * Text that can only come from the secret, whatever the line breaks: the secret, reversed, as hex and the inner
 * part of its base64 at each alignment.
 */
function leakedForms(secret: string): string[] {
  const bytes = Buffer.from(secret);
  const base64 = [0, 1, 2].map((offset) =>
    Buffer.concat([Buffer.alloc(offset), bytes])
      .toString('base64')
      .slice(4, -4),
  );
  return [secret, [...secret].reverse().join(''), bytes.toString('hex'), ...base64];
}

/** `text` without line breaks, also JSON-escaped ones, so a wrapped form reads as one. */
function unwrapped(text: string): string {
  return text.replace(/\\r|\\n|\r|\n/g, '');
}

if (process.platform !== 'linux')
  console.warn('Skipping the masking attacks: the process sandbox needs Linux');

describe.skipIf(process.platform !== 'linux')('secrets in a running conversation’s events', () => {
  let llm: ScriptedLlm;
  let service: TestService;

  beforeAll(async () => {
    llm = await startScriptedLlm([], { channels: [{ marker: '[dockhand:title]', step: { text: 'Title' } }] });
    service = await startTestService({
      realKeychain: true,
      sandbox: { ...TEST_SANDBOX, provider: 'process' },
    });
    await useScriptedModel(service, llm);
    await service.api('POST', '/api/secrets', { body: { name: 'EARLY', value: 'early-secret-value-1c4f' } });
    await service.api('POST', '/api/secrets', { body: { name: 'ENCODED', value: ENCODED } });
  });

  afterAll(async () => {
    await service?.close();
    await llm?.close();
  });

  it('a secret added or changed mid-conversation, the session key and the sandbox key leak into events', async () => {
    const created = await service.api('POST', '/api/conversations', { body: {} });
    const id = (created.json as { conversation_id: string }).conversation_id;
    const info = await until(
      () => conversationInfo(service, id),
      (c) => c.agent_state === 'awaiting_user_input' || c.status === 'STOPPED',
      'the conversation to start',
    );
    const sandboxKey = String(info.session_api_key);
    expect(sandboxKey.length).toBeGreaterThan(20);

    // Saved while the conversation runs: masked from its next event on.
    await service.api('POST', '/api/secrets', { body: { name: 'ADDED', value: ADDED } });
    await service.api('POST', '/api/secrets', { body: { name: 'CHANGED', value: 'before-change-0b1d' } });
    await service.api('DELETE', '/api/secrets/CHANGED');
    await service.api('POST', '/api/secrets', { body: { name: 'CHANGED', value: CHANGED } });

    const leaks = [ADDED, CHANGED, service.key, sandboxKey];
    llm.push(
      {
        toolCalls: [
          { name: 'execute_bash', args: { command: `echo ${leaks.join(' ')}`, security_risk: 'LOW' } },
        ],
      },
      { text: `Here they are: ${leaks.join(' ')}` },
    );
    await service.api('POST', `/api/conversations/${id}/events`, {
      body: { action: 'message', args: { content: 'Print them' } },
    });
    await until(
      () => conversationEvents(service, id),
      (events) => events.some((e) => e.action === 'message' && e.source === 'agent'),
      'the answer',
    );
    const text = JSON.stringify(await conversationEvents(service, id));
    for (const leak of leaks) expect(text).not.toContain(leak);
    const output = (await conversationEvents(service, id)).find((e) => e.observation === 'run')?.content;
    expect(output).toMatch(/^<secret_hidden> <secret_hidden> <secret_hidden> <secret_hidden>/);
  });

  it('a secret in the sandbox environment reaches events, the model and the trajectory reversed, encoded or cut', async () => {
    const created = await service.api('POST', '/api/conversations', { body: {} });
    const id = (created.json as { conversation_id: string }).conversation_id;
    await until(
      () => conversationInfo(service, id),
      (c) => c.agent_state === 'awaiting_user_input' || c.status === 'STOPPED',
      'the conversation to start',
    );
    const hex = 'if command -v xxd >/dev/null; then xxd -p; else od -An -tx1 -v | tr -d " "; fi';
    const commands = [
      'echo $ENCODED | rev',
      'echo $ENCODED | base64',
      'printf x%s "$ENCODED" | base64 -w 20',
      'printf xy%s "$ENCODED" | base64 -w 0; echo',
      'printf %s "$ENCODED" | basenc --base64url; echo',
      `echo $ENCODED | ${hex}`,
      `echo $ENCODED | ${hex} | tr a-f A-F`,
      'echo ${ENCODED:0:30}; echo ${ENCODED:30}',
    ];
    const calls = llm.calls.length;
    llm.push(
      {
        toolCalls: [{ name: 'execute_bash', args: { command: commands.join('\n'), security_risk: 'LOW' } }],
      },
      { text: 'Done' },
    );
    await service.api('POST', `/api/conversations/${id}/events`, {
      body: { action: 'message', args: { content: 'Print it in other forms' } },
    });
    const events = await until(
      () => conversationEvents(service, id),
      (all) => all.some((e) => e.action === 'message' && e.source === 'agent' && e.message === 'Done'),
      'the answer',
    );
    const output = String(events.find((e) => e.observation === 'run')?.content);
    expect(output.match(/<secret_hidden>/g)?.length, output).toBeGreaterThanOrEqual(commands.length);

    const nextRequest = llm.calls.slice(calls).find((call) => call.rawBody.includes('<secret_hidden>'));
    expect(nextRequest, 'the model was sent the masked output').toBeDefined();
    const trajectory = await service.api('GET', `/api/conversations/${id}/trajectory`);
    const places: [string, string][] = [
      ['events', JSON.stringify(events)],
      ['the model request', nextRequest?.rawBody ?? ''],
      ['the trajectory', trajectory.text],
    ];
    for (const [where, text] of places) {
      for (const form of leakedForms(ENCODED))
        expect(unwrapped(text), `${form} in ${where}`).not.toContain(form);
    }
  });
});
