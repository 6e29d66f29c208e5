import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STOPPED_NOT_EXECUTED } from '../../src/service/agent/agent-loop';
import { MemorySecretStore } from '../../src/service/secrets/memory-store';
import type { V0Event } from '../../src/shared/api/events';
import { conversationEvents, conversationInfo, useScriptedModel } from '../sandbox/support';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import { rawRequest, startTestService, tempDataDir, type TestService } from '../support/service';
import { until } from '../support/until';

// No Docker at all: the engine address names a socket that does not exist, before the service reads it.
vi.stubEnv('DOCKER_HOST', 'unix:///nonexistent/dockhand-test/docker.sock');

const linux = process.platform === 'linux';
if (!linux) console.warn('Skipping the conversation lifecycle on process sandboxes: they need Linux');

const bash = (id: string, command: string, risk = 'LOW') => ({
  toolCalls: [{ id, name: 'execute_bash', args: { command, security_risk: risk } }],
});
const agentSaid = (text: string) => (events: V0Event[]) =>
  events.some((e) => e.source === 'agent' && e.action === 'message' && e.message === text);

describe.skipIf(!linux)('a conversation through its lifecycle on a process sandbox, without Docker', () => {
  let llm: ScriptedLlm;
  let dataDir: string;
  let secretStore: MemorySecretStore;
  let service: TestService | null = null;

  /** A service on the test's data folder and secrets, as a restart would find them. */
  async function startService(): Promise<TestService> {
    service = await startTestService({ dataDir, secretStore, sandbox: { idlePauseSeconds: 0 } });
    return service;
  }

  beforeEach(async () => {
    llm = await startScriptedLlm([], {
      channels: [{ marker: '[dockhand:title]', step: { text: 'Lifecycle title' } }],
    });
    dataDir = tempDataDir();
    secretStore = new MemorySecretStore();
  });

  afterEach(async () => {
    await service?.close();
    service = null;
    await llm.close();
  });

  async function create(api: TestService, message: string): Promise<string> {
    const created = await api.api('POST', '/api/conversations', { body: { initial_user_msg: message } });
    expect(created.status).toBe(200);
    return (created.json as { conversation_id: string }).conversation_id;
  }

  const agentState = (api: TestService, id: string, state: string, what: string) =>
    until(
      () => conversationInfo(api, id),
      (c) => c.status === 'RUNNING' && c.agent_state === state,
      what,
    );

  it('creates, runs a command, takes a message, stops, starts again and goes on with its history, and deletes', async () => {
    const api = await startService();
    await useScriptedModel(api, llm, { sandbox_provider: 'process' });
    llm.push(
      bash('c1', 'echo started > note.txt && cat note.txt'),
      { text: 'Wrote it.' },
      { text: 'Second.' },
    );
    const id = await create(api, 'write a note');
    const ready = await agentState(api, id, 'awaiting_user_input', 'the first answer');
    expect(ready.runtime_status).toBe('STATUS$READY');
    const sandboxId = String(ready.sandbox_id);
    const folder = path.join(dataDir, 'workspaces', sandboxId);
    expect(readFileSync(path.join(folder, 'project', 'note.txt'), 'utf8')).toBe('started\n');
    // The sandbox's agent-server endpoint reports the workspace's own working directory: a folder here.
    const sandbox = (await api.api('GET', `/api/v1/sandboxes/${sandboxId}`)).json as {
      exposed_urls: { name: string; port: number }[];
      session_api_key: string;
    };
    const endpoint = sandbox.exposed_urls.find((url) => url.name === 'AGENT_SERVER');
    const agentInfo = await rawRequest(Number(endpoint?.port), 'GET', `/api/conversations/${id}`, {
      key: sandbox.session_api_key,
    });
    expect(agentInfo.json).toMatchObject({
      workspace: { kind: 'LocalWorkspace', working_dir: path.join(folder, 'project') },
    });
    expect((await conversationEvents(api, id)).find((e) => e.observation === 'run')?.content).toMatch(
      /^started\n/,
    );

    await api.api('POST', `/api/conversations/${id}/message`, { body: { message: 'again' } });
    await until(() => conversationEvents(api, id), agentSaid('Second.'), 'the second answer');

    const stopped = await api.api('POST', `/api/conversations/${id}/stop`);
    expect(stopped.json).toMatchObject({ conversation_status: 'STOPPED' });
    expect(await conversationInfo(api, id)).toMatchObject({ status: 'STOPPED' });
    const late = await api.api('POST', `/api/conversations/${id}/message`, { body: { message: 'hello?' } });
    expect(late.status).toBe(409);

    expect((await api.api('POST', `/api/conversations/${id}/start`, { body: {} })).status).toBe(200);
    // The agent comes back as the Stop left it, and a message sets it going.
    const again = await agentState(api, id, 'stopped', 'the conversation to run again');
    expect(again.sandbox_id).toBe(sandboxId);
    llm.push({ text: 'Third.' });
    await api.api('POST', `/api/conversations/${id}/message`, { body: { message: 'once more' } });
    const events = await until(() => conversationEvents(api, id), agentSaid('Third.'), 'the third answer');
    // The loop went on from the log: one system event, ids without a gap, the model shown all of it.
    expect(events.filter((e) => e.action === 'system')).toHaveLength(1);
    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => i));
    const lastCall = JSON.stringify(llm.calls.at(-1)?.body);
    expect(lastCall).toContain('Wrote it.');
    expect(lastCall).toContain('Second.');

    expect((await api.api('DELETE', `/api/conversations/${id}`)).json).toBe(true);
    expect((await api.api('GET', `/api/conversations/${id}`)).status).toBe(404);
    expect((await api.api('GET', `/api/conversations/${id}/events`)).status).toBe(404);
    expect(existsSync(folder)).toBe(false);
  });

  it('comes back STOPPED after a service restart, its held call answered by the Stop, and goes on', async () => {
    const first = await startService();
    await useScriptedModel(first, llm, { sandbox_provider: 'process', confirmation_mode: true });
    llm.push(bash('c1', 'touch confirmed.txt', 'HIGH'));
    const id = await create(first, 'touch a file');
    const held = await agentState(first, id, 'awaiting_user_confirmation', 'the confirmation');
    const file = path.join(dataDir, 'workspaces', String(held.sandbox_id), 'project', 'confirmed.txt');
    // Closing the service stops its conversations as a Stop would.
    await first.close({ keepData: true });
    service = null;

    const second = await startService();
    expect(await conversationInfo(second, id)).toMatchObject({ status: 'STOPPED' });
    expect((await second.api('POST', `/api/conversations/${id}/start`, { body: {} })).status).toBe(200);
    await agentState(second, id, 'stopped', 'the conversation to run again');
    const answered = (await conversationEvents(second, id)).filter((e) => e.observation === 'error');
    expect(answered).toMatchObject([
      { content: STOPPED_NOT_EXECUTED, tool_call_metadata: { tool_call_id: 'c1' } },
    ]);

    llm.push({ text: 'Going on.' });
    await second.api('POST', `/api/conversations/${id}/message`, { body: { message: 'go on' } });
    await until(() => conversationEvents(second, id), agentSaid('Going on.'), 'the answer after the restart');
    expect(JSON.stringify(llm.calls.at(-1)?.body)).toContain(STOPPED_NOT_EXECUTED);
    expect(existsSync(file)).toBe(false);
    expect((await second.api('DELETE', `/api/conversations/${id}`)).json).toBe(true);
  });
});
