import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V0Event } from '../../src/shared/api/events';
import { machineEnvironment, resolveDockerEndpoint } from '../../src/service/sandbox/docker/docker-endpoint';
import { DockerConnection } from '../../src/service/sandbox/docker/docker-status';
import { TEST_IMAGE, dockerSkipReason, startSandboxService } from '../sandbox/support';
import type { TestService } from '../support/service';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import { until } from '../support/until';
import { PrivateDockerd } from './private-dockerd';
import { allEvents, conversation, startConversation, untilAgentState, useScriptedLlm } from './support';

const skip = PrivateDockerd.skipReason() ?? (await dockerSkipReason());
if (skip) console.warn(`Skipping the Docker-down test: ${skip}`);

const bash = (command: string) => ({
  toolCalls: [{ name: 'execute_bash', args: { command, security_risk: 'LOW' } }],
});

describe.skipIf(skip !== null)('the Docker engine stops mid-conversation', () => {
  let dockerd: PrivateDockerd;
  let llm: ScriptedLlm;
  let service: TestService | undefined;

  beforeAll(async () => {
    dockerd = new PrivateDockerd();
    await dockerd.start();
    const loadMs = dockerd.loadImage(TEST_IMAGE);
    console.info(`Loaded ${TEST_IMAGE} into the private engine in ${(loadMs / 1000).toFixed(1)} s`);
    llm = await startScriptedLlm([], {
      channels: [{ marker: '[dockhand:title]', step: { text: 'Docker title' } }],
    });
    const endpoint = resolveDockerEndpoint(machineEnvironment({ DOCKER_HOST: dockerd.host }));
    service = await startSandboxService({ docker: new DockerConnection({ env: process.env, endpoint }) });
  });

  afterAll(async () => {
    await service?.close();
    await llm?.close();
    if (!dockerd) return;
    if (dockerd.pid !== null) {
      const client = dockerd.client;
      const containers = await client.listContainers({
        all: true,
        filters: { label: ['dev.dockhand.managed=true'] },
      });
      await Promise.all(containers.map((c) => client.getContainer(c.Id).remove({ force: true, v: true })));
    }
    await dockerd.remove();
    expect(dockerd.leftovers()).toEqual([]);
  });

  it('names the cause, keeps the API answering, loses nothing, and resumes when Docker is back', async () => {
    const api = (service as TestService).api;
    await useScriptedLlm(api, llm);
    llm.push(bash('echo before'), { text: 'Ran it.' });
    const id = await startConversation(api, { initial_user_msg: 'run something' });
    await untilAgentState(api, id, ['awaiting_user_input']);
    const before = await allEvents(api, id);
    expect(before.some((e) => e.observation === 'run' && String(e.content).startsWith('before'))).toBe(true);

    await dockerd.stop();

    const info = (await api('GET', '/server_info')).json as {
      docker: { available: boolean; cause: string; error: string; fix: string };
    };
    expect(info.docker).toMatchObject({ available: false, cause: 'not_running' });
    expect(info.docker.error).toMatch(/^nothing answers at .*; the engine is not running$/);
    expect(info.docker.fix).toBeTruthy();

    // The agent's next command cannot run: the loop reports it and the service keeps answering.
    llm.push(bash('echo during'), { text: 'Could not run it.' });
    const during = await api('POST', `/api/conversations/${id}/message`, { body: { message: 'again' } });
    expect([200, 409]).toContain(during.status);
    await until(
      () => conversation(api, id),
      (c) => c.status === 'STOPPED' || ['awaiting_user_input', 'error'].includes(c.agent_state ?? ''),
      'the agent to give up on the lost sandbox',
    );
    const created = await api('POST', '/api/conversations', { body: { initial_user_msg: 'new' } });
    expect(created.status).toBe(503);
    expect((created.json as { detail: string }).detail).toMatch(
      /^Docker is not available: nothing answers at .*; the engine is not running/,
    );
    expect((await api('GET', '/api/conversations')).status).toBe(200);
    expect((await api('GET', '/api/settings')).status).toBe(200);
    expect((await api('GET', '/alive', { key: null })).status).toBe(200);
    const down = await allEvents(api, id);
    expect(down.slice(0, before.length)).toEqual(before);
    expect(down.map((e) => e.id)).toEqual(down.map((_, i) => i));

    await dockerd.start();
    await until(
      async () => ((await api('GET', '/server_info')).json as { docker: { available: boolean } }).docker,
      (docker) => docker.available,
      'Docker back in /server_info',
    );
    await api('POST', `/api/conversations/${id}/stop`);
    llm.push(bash('echo after'), { text: 'Back.' });
    const restarted = await api('POST', `/api/conversations/${id}/start`, { body: {} });
    expect(restarted.status).toBe(200);
    await until(
      () => conversation(api, id),
      (c) => c.status === 'RUNNING',
      'the conversation running again',
    );
    expect(
      (await api('POST', `/api/conversations/${id}/message`, { body: { message: 'go on' } })).status,
    ).toBe(200);
    const resumed = await until(
      () => allEvents(api, id),
      (events: V0Event[]) =>
        // A restarted shell starts its first output with a note saying so (agent-behaviour §2.7).
        events.some(
          (e) =>
            e.observation === 'run' &&
            /^(\[The shell was restarted[^\n]*\]\n)?after\n/.test(String(e.content)),
        ),
      'a command in the resumed sandbox',
    );
    expect(resumed.slice(0, down.length)).toEqual(down);
    expect(resumed.map((e) => e.id)).toEqual(resumed.map((_, i) => i));
  });
});
