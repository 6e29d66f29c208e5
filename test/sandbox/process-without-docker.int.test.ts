import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import { startTestService, type TestService } from '../support/service';
import { until } from '../support/until';
import { conversationEvents, conversationInfo, useScriptedModel } from './support';

// No Docker at all: the engine address names a socket that does not exist, before the service reads it.
vi.stubEnv('DOCKER_HOST', 'unix:///nonexistent/dockhand-test/docker.sock');

const linux = process.platform === 'linux';
if (!linux) console.warn('Skipping the process sandbox tests without Docker: process sandboxes need Linux');

describe.skipIf(!linux)('process sandboxes with no Docker engine', () => {
  let service: TestService;
  let llm: ScriptedLlm;

  beforeAll(async () => {
    llm = await startScriptedLlm([], {
      channels: [{ marker: '[dockhand:title]', step: { text: 'Process title' } }],
    });
    service = await startTestService({ sandbox: { idlePauseSeconds: 0 } });
  });

  afterAll(async () => {
    await service?.close();
    await llm?.close();
    vi.unstubAllEnvs();
  });

  it('refuses a Docker conversation with 503, then runs a process one without asking Docker', async () => {
    const docker = (await service.api('GET', '/server_info')).json as { docker: { available: boolean } };
    expect(docker.docker.available).toBe(false);

    await useScriptedModel(service, llm);
    const refused = await service.api('POST', '/api/conversations', { body: { initial_user_msg: 'hi' } });
    expect(refused.status).toBe(503);
    expect(refused.json).toEqual({
      detail: expect.stringMatching(/^Docker is not available: .*nonexistent\/dockhand-test\/docker\.sock/),
    });

    await useScriptedModel(service, llm, { sandbox_provider: 'process' });
    llm.push(
      {
        toolCalls: [
          { id: 'call_1', name: 'execute_bash', args: { command: 'echo $((6 * 7))', security_risk: 'LOW' } },
        ],
      },
      { text: 'It is 42.' },
    );
    const created = await service.api('POST', '/api/conversations', {
      body: { initial_user_msg: 'compute six times seven' },
    });
    expect(created.status).toBe(200);
    const id = (created.json as { conversation_id: string }).conversation_id;

    const ready = await until(
      () => conversationInfo(service, id),
      (c) => c.agent_state === 'awaiting_user_input',
      'the agent to answer',
    );
    expect(ready).toMatchObject({ status: 'RUNNING', runtime_status: 'STATUS$READY' });
    const events = await conversationEvents(service, id);
    expect(events.find((e) => e.observation === 'run')?.content).toMatch(/^42\b/);
    const sandbox = (await service.api('GET', `/api/v1/sandboxes/${String(ready.sandbox_id)}`)).json;
    expect(sandbox).toMatchObject({ provider: 'process', isolated: false, status: 'RUNNING' });

    // Stopped and started again: still no Docker needed.
    await service.api('POST', `/api/conversations/${id}/stop`);
    expect((await service.api('POST', `/api/conversations/${id}/start`, { body: {} })).status).toBe(200);
    await until(
      () => conversationInfo(service, id),
      (c) => c.status === 'RUNNING',
      'the conversation to run again',
    );
    expect((await service.api('DELETE', `/api/conversations/${id}`)).json).toBe(true);
  });
});
