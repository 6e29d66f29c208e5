import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V0Event } from '../../src/shared/api/events';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import { startTestService, type TestService } from '../support/service';
import { until } from '../support/until';
import { faultyAgent, type FaultyAgent } from './faulty-agent';
import { events, untilAgentState } from './support';

if (process.platform !== 'linux')
  console.warn('Skipping the ACP agent fault test: process sandboxes need Linux');

const errors = (list: V0Event[]) => list.filter((e) => e.observation === 'error').map((e) => e.content ?? '');

// An agent that crashes, hangs at start or writes what is not JSON-RPC ends the turn with a clear error
// event; the conversation stays RUNNING and the next message starts the agent again.
if (process.platform !== 'linux')
  console.warn('Skipping an ACP agent that fails: the process sandbox it runs on is Linux only');
describe.skipIf(process.platform !== 'linux')('an ACP agent that fails', () => {
  let llm: ScriptedLlm;
  let service: TestService;
  let agent: FaultyAgent;

  beforeAll(async () => {
    llm = await startScriptedLlm([]);
    agent = faultyAgent();
    service = await startTestService({
      sandbox: { provider: 'process', idlePauseSeconds: 0 },
      acp: {
        install: () => Promise.resolve({ folder: agent.dir, lentName: 'faulty-agent' }),
        startTimeoutSeconds: 2,
      },
    });
    await service.api('POST', '/api/settings', {
      body: { llm_model: 'anthropic/claude-sonnet-4-5', llm_api_key: 'sk-test', llm_base_url: llm.baseUrl },
    });
  });

  afterAll(async () => {
    await service?.close();
    await llm?.close();
  });

  async function conversation(id: string, message: string): Promise<void> {
    const created = await service.api('POST', '/api/conversations', {
      body: { conversation_id: id, agent: 'claude-code', initial_user_msg: message },
    });
    expect(created.status).toBe(200);
  }

  async function send(id: string, message: string): Promise<void> {
    expect(
      (await service.api('POST', `/api/conversations/${id}/message`, { body: { message } })).status,
    ).toBe(200);
  }

  async function status(id: string): Promise<string> {
    return ((await service.api('GET', `/api/conversations/${id}`)).json as { status: string }).status;
  }

  it('answers over ACP when the agent works', async () => {
    agent.setMode('ok');
    await conversation('acpok', 'ping');
    const list = await until(
      () => events(service, 'acpok'),
      (all) => all.some((e) => e.action === 'message' && e.message === 'pong: ping'),
      'the answer',
    );
    expect(errors(list)).toEqual([]);
    await untilAgentState(service, 'acpok', 'awaiting_user_input');
  });

  it('reports a crash with the agent’s own words, then starts it again on the next message', async () => {
    agent.setMode('crash-on-prompt');
    await conversation('acpcrash', 'first');
    const failed = await untilAgentState(service, 'acpcrash', 'error');
    expect(errors(failed).join('\n')).toMatch(
      /Claude Code: The agent process ended\.[^]*fake agent: out of memory/,
    );
    expect(await status('acpcrash')).toBe('RUNNING');

    agent.setMode('ok');
    await send('acpcrash', 'again');
    await until(
      () => events(service, 'acpcrash'),
      (all) => all.some((e) => e.message === 'pong: again'),
      'the answer after the crash',
    );
    // A new process cannot load the crashed one's session: the user is told the context was lost.
    expect(errors(await events(service, 'acpcrash')).join('\n')).toContain(
      'does not remember what came before',
    );
  });

  it('gives up on an agent that does not answer at start, within the start timeout', async () => {
    agent.setMode('hang-at-start');
    await conversation('acphang', 'hello?');
    const failed = await untilAgentState(service, 'acphang', 'error');
    expect(errors(failed).join('\n')).toContain('Claude Code did not start within 2 s.');
    expect(await status('acphang')).toBe('RUNNING');
    agent.setMode('ok');
    await send('acphang', 'now?');
    await until(
      () => events(service, 'acphang'),
      (all) => all.some((e) => e.message === 'pong: now?'),
      'the answer after the hang',
    );
  });

  it('ends the turn when the agent writes what is not JSON-RPC', async () => {
    agent.setMode('garbage-on-prompt');
    await conversation('acpjunk', 'talk');
    const failed = await untilAgentState(service, 'acpjunk', 'error');
    expect(errors(failed).join('\n')).toContain('The agent sent something that is not ACP JSON-RPC');
    expect(await status('acpjunk')).toBe('RUNNING');
    agent.setMode('ok');
    await send('acpjunk', 'properly');
    await until(
      () => events(service, 'acpjunk'),
      (all) => all.some((e) => e.message === 'pong: properly'),
      'the answer after the junk',
    );
  });
});
