import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import { startTestService, type TestService } from '../support/service';
import { until } from '../support/until';

if (process.platform !== 'linux')
  console.warn('Skipping the agent choice test: process sandboxes need Linux');

type Json = Record<string, unknown>;

if (process.platform !== 'linux')
  console.warn('Skipping the agent a conversation runs: the process sandbox it runs on is Linux only');
describe.skipIf(process.platform !== 'linux')('the agent a conversation runs', () => {
  let service: TestService;
  let llm: ScriptedLlm;

  beforeAll(async () => {
    llm = await startScriptedLlm([]);
    service = await startTestService({ sandbox: { provider: 'process', idlePauseSeconds: 0 } });
    await service.api('POST', '/api/settings', {
      body: { llm_model: 'openai/gpt-4o', llm_base_url: llm.baseUrl },
    });
  });

  afterAll(async () => {
    await service?.close();
    await llm?.close();
  });

  const info = async (id: string) => (await service.api('GET', `/api/conversations/${id}`)).json as Json;

  it('is the setting default_agent, dockhand unless set, and is kept on the conversation', async () => {
    const settings = (await service.api('GET', '/api/settings')).json as Json;
    expect(settings.default_agent).toBe('dockhand');
    expect(settings.agent).toBeNull(); // OpenHands' agent class, another thing

    await service.api('POST', '/api/conversations', { body: { conversation_id: 'choice-default' } });
    expect((await info('choice-default')).agent).toBe('dockhand');

    await service.api('POST', '/api/settings', { body: { ...settings, default_agent: 'opencode' } });
    expect(((await service.api('GET', '/api/settings')).json as Json).default_agent).toBe('opencode');
    await service.api('POST', '/api/conversations/choice-default/stop');
    await service.api('POST', '/api/conversations', { body: { conversation_id: 'choice-setting' } });
    expect((await info('choice-setting')).agent).toBe('opencode');
    // The record keeps what it was created with when the setting changes again.
    await service.api('POST', '/api/settings', { body: { ...settings, default_agent: 'dockhand' } });
    expect((await info('choice-setting')).agent).toBe('opencode');
    await service.api('POST', '/api/conversations/choice-setting/stop');
  });

  it('is chosen per conversation on the V0 and V1 start requests; anything else is refused with 422', async () => {
    const created = await service.api('POST', '/api/conversations', {
      body: { conversation_id: 'choice-v0', agent: 'claude-code' },
    });
    expect(created.status).toBe(200);
    expect((await info('choice-v0')).agent).toBe('claude-code');
    await service.api('POST', '/api/conversations/choice-v0/stop');

    const bad = await service.api('POST', '/api/conversations', { body: { agent: 'aider' } });
    expect(bad.status).toBe(422);
    expect(bad.json).toMatchObject({ detail: [{ type: 'enum', loc: ['body', 'agent'] }] });
    const unknown = await service.api('POST', '/api/conversations', { body: { agents: 'codex' } });
    expect(unknown.status).toBe(422);
    expect(unknown.json).toMatchObject({ detail: [{ type: 'extra_forbidden', loc: ['body', 'agents'] }] });
    const badSetting = await service.api('POST', '/api/settings', { body: { default_agent: 'aider' } });
    expect(badSetting.status).toBe(422);

    const task = (
      await service.api('POST', '/api/v1/app-conversations', {
        body: { conversation_id: 'choicev1', agent: 'gemini' },
      })
    ).json as Json;
    await until(
      async () =>
        (await service.api('GET', `/api/v1/app-conversations/start-tasks?ids=${String(task.id)}`)).json,
      (tasks) => ['READY', 'ERROR'].includes(String((tasks as Json[])[0]?.status)),
      'the V1 start task to end',
    );
    const conversation = (await service.api('GET', '/api/v1/app-conversations/choicev1')).json as Json;
    expect(conversation.agent).toBe('gemini');
    expect((await info('choicev1')).agent).toBe('gemini');
    const v1Bad = await service.api('POST', '/api/v1/app-conversations', { body: { agent: 'aider' } });
    expect(v1Bad.status).toBe(422);
  });
});
