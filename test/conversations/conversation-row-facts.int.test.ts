import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { conversationInfo, useScriptedModel } from '../sandbox/support';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import { startTestService, type TestService } from '../support/service';
import { until } from '../support/until';

// No Docker: the process sandbox runs the workspace.
vi.stubEnv('DOCKER_HOST', 'unix:///nonexistent/dockhand-test/docker.sock');

const linux = process.platform === 'linux';
if (!linux) console.warn('Skipping the conversation row facts on a process sandbox: it needs Linux');

const bash = (id: string, command: string, risk = 'LOW') => ({
  toolCalls: [{ id, name: 'execute_bash', args: { command, security_risk: risk } }],
});

interface Row {
  conversation_id: string;
  agent_state: string | null;
  dockhand_state: { phase: string; label: string; stage: string | null; blocked: string | null };
  changed_files: number | null;
}

if (!linux)
  console.warn(
    'Skipping what a conversation row shows: its one state and its changed-file count: the process sandbox it runs on is Linux only',
  );
describe.skipIf(!linux)('what a conversation row shows: its one state and its changed-file count', () => {
  let llm: ScriptedLlm;
  let service: TestService;

  beforeEach(async () => {
    llm = await startScriptedLlm([], {
      channels: [{ marker: '[dockhand:title]', step: { text: 'Row facts' } }],
    });
    service = await startTestService({ sandbox: { idlePauseSeconds: 0 } });
  });

  afterEach(async () => {
    await service?.close();
    await llm?.close();
  });

  async function create(message: string): Promise<string> {
    const created = await service.api('POST', '/api/conversations', { body: { initial_user_msg: message } });
    expect(created.status).toBe(200);
    return (created.json as { conversation_id: string }).conversation_id;
  }

  /** The conversation as the list of conversations shows it. */
  async function row(id: string): Promise<Row> {
    const list = (await service.api('GET', '/api/conversations?limit=20')).json as { results: Row[] };
    const found = list.results.find((r) => r.conversation_id === id);
    if (!found) throw new Error(`conversation ${id} is not listed`);
    return found;
  }

  it('counts the files the agent changed when its turn ends, and again when a client lists them', async () => {
    await useScriptedModel(service, llm, { sandbox_provider: 'process' });
    llm.push(bash('c1', "printf 'a\\n' > a.txt && printf 'b\\n' > b.txt"), { text: 'Wrote two files.' });
    const id = await create('write two files');
    expect((await row(id)).changed_files).toBeNull();

    // Nobody asks for the changes: the end of the agent's turn counts them.
    const idle = await until(
      () => row(id),
      (r) => r.agent_state === 'awaiting_user_input' && r.changed_files === 2,
      'the two changed files to be counted',
    );
    expect(idle.dockhand_state).toMatchObject({ phase: 'idle', label: 'Idle', blocked: null });

    // The V1 view carries the same two facts.
    const v1 = (await service.api('GET', `/api/v1/app-conversations?ids=${id}`)).json as Row[];
    expect(v1[0]).toMatchObject({ changed_files: 2, dockhand_state: idle.dockhand_state });

    // A user command ends no turn; the next listing of the changes counts again.
    const run = await service.api('POST', `/api/conversations/${id}/events`, {
      body: { action: 'run', args: { command: 'rm a.txt' } },
    });
    expect(run.json).toEqual({ success: true });
    await until(
      async () =>
        (await service.api('GET', `/api/conversations/${id}/git/changes`)).json as { path: string }[],
      (changes) => changes.length === 1,
      'a.txt to be gone from the changes',
    );
    expect((await row(id)).changed_files).toBe(1);

    expect((await service.api('DELETE', `/api/conversations/${id}`)).json).toBe(true);
  });

  it('needs you while an action waits for confirmation, and is stopped (messages blocked) after Stop', async () => {
    await useScriptedModel(service, llm, { sandbox_provider: 'process', confirmation_mode: true });
    llm.push(bash('c1', 'touch risky.txt', 'HIGH'));
    const id = await create('do something risky');
    const waiting = await until(
      () => row(id),
      (r) => r.agent_state === 'awaiting_user_confirmation',
      'the confirmation',
    );
    expect(waiting.dockhand_state).toMatchObject({ phase: 'needs_you', label: 'Needs you' });
    // The single conversation's info is the same derivation as the row.
    expect((await conversationInfo(service, id)).dockhand_state).toEqual(waiting.dockhand_state);

    await service.api('POST', `/api/conversations/${id}/stop`);
    expect((await row(id)).dockhand_state).toMatchObject({
      phase: 'stopped',
      blocked: 'The conversation is stopped. Start it to send messages.',
    });
  });
});
