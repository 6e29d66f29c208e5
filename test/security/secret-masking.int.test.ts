import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import { startTestService, type TestService } from '../support/service';
import { until } from '../support/until';
import { conversationEvents, conversationInfo, TEST_SANDBOX, useScriptedModel } from '../sandbox/support';

const ADDED = 'added-while-running-5d2e';
const CHANGED = 'changed-while-running-77ab';

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
});
