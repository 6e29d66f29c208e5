import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import { startTestService, type TestService } from '../support/service';
import { until } from '../support/until';

if (process.platform !== 'linux') console.warn('Skipping the idle stop test: process sandboxes need Linux');

// Process sandboxes: the idle rule is the conversation service's, whatever the provider.
describe.skipIf(process.platform !== 'linux')('idle conversations', () => {
  let service: TestService;
  let llm: ScriptedLlm;
  const previous = process.env.DOCKHAND_CONVERSATION_IDLE_S;

  beforeAll(async () => {
    process.env.DOCKHAND_CONVERSATION_IDLE_S = '1';
    llm = await startScriptedLlm([]);
    service = await startTestService({ sandbox: { provider: 'process', idlePauseSeconds: 0 } });
    await service.api('POST', '/api/settings', {
      body: { llm_model: 'openai/gpt-4o', llm_base_url: llm.baseUrl },
    });
  });

  afterAll(async () => {
    if (previous === undefined) delete process.env.DOCKHAND_CONVERSATION_IDLE_S;
    else process.env.DOCKHAND_CONVERSATION_IDLE_S = previous;
    await service?.close();
    await llm?.close();
  });

  const info = async (id: string) =>
    (await service.api('GET', `/api/conversations/${id}`)).json as Record<string, unknown>;

  it('stops a conversation whose agent waits with no client subscribed, and keeps one with a stream', async () => {
    let stream: ClientRequest | null = null;
    const subscribed = new Promise<IncomingMessage>((resolve, reject) => {
      stream = httpRequest({
        host: '127.0.0.1',
        port: service.port,
        path: '/api/conversations/idle-watched/events/stream',
        headers: { 'X-Session-API-Key': service.key },
      })
        .on('response', resolve)
        .on('error', reject);
    });
    await service.api('POST', '/api/conversations', { body: { conversation_id: 'idle-watched' } });
    (stream as unknown as ClientRequest).end();
    const response = await subscribed;
    expect(response.statusCode).toBe(200);
    await until(
      () => info('idle-watched'),
      (c) => (c.num_connections as number) > 0,
      'the stream to count',
    );
    await service.api('POST', '/api/conversations', { body: { conversation_id: 'idle-alone' } });

    const alone = await until(
      () => info('idle-alone'),
      (c) => c.status === 'STOPPED',
      'the unwatched conversation to be stopped',
    );
    expect(alone).toMatchObject({ agent_state: 'awaiting_user_input', runtime_status: null });
    // Both waited for the user just as long; only the one nobody watched was stopped.
    expect(await info('idle-watched')).toMatchObject({
      status: 'RUNNING',
      agent_state: 'awaiting_user_input',
    });

    response.destroy();
    await until(
      () => info('idle-watched'),
      (c) => c.status === 'STOPPED',
      'the conversation to be stopped once its stream closed',
    );
  });
});
