import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V0Event } from '../../src/shared/api/events';
import { TITLE_MARKER } from '../../src/service/agent/title';
import { dockerExec } from '../../src/service/sandbox/docker/docker-exec';
import { containerName } from '../../src/service/sandbox/sandbox-id';
import { AgentServerClient } from '../agent-server/agent-server-client';
import { closeSandboxService, docker, dockerSkipReason, startSandboxService } from '../sandbox/support';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import type { TestService } from '../support/service';
import { until } from '../support/until';
import { expectKeyNowhere, toolNames } from './agent-conversation';
import {
  AgentScript,
  events,
  installedAgent,
  playScript,
  testAcpHost,
  untilAgentState,
  untilEvent,
  startAgentConversation,
} from './support';

const dockerSkip = await dockerSkipReason();
if (dockerSkip) console.warn(`Skipping the Codex conversation: ${dockerSkip}`);

const WORKDIR = '/workspace/project';
const LONG = 'python3 -c "import time; time.sleep(600)"';
const exec = (cmd: string) => ({ toolCalls: [{ name: 'exec_command', args: { cmd } }] });
const agentMessages = (list: V0Event[]) =>
  list.filter((e) => e.action === 'message' && e.source === 'agent').map((e) => e.message);

// Codex (codex-acp) against the scripted OpenAI Responses API, through the gateway, in a Docker sandbox.
// Its own sandbox cannot work in a container, so Dockhand runs it with full access inside the container; its
// approvals belong to that sandbox, so it asks no permission (the other agents' tests cover confirmations).
// The cases are the steps of one conversation: they keep their order.
describe.skipIf(dockerSkip !== null)('Codex over ACP in a Docker sandbox', { shuffle: false }, () => {
  const CANARY = `sk-canary-${randomBytes(12).toString('hex')}`;
  let llm: ScriptedLlm;
  let service: TestService;
  let id: string;
  let sandboxId: string;
  const script = new AgentScript((request) => toolNames(request).includes('exec_command'));

  beforeAll(async () => {
    const installed = await installedAgent('codex');
    llm = await startScriptedLlm([], {
      channels: [{ marker: TITLE_MARKER, step: { text: 'Greeting file' } }],
    });
    playScript(llm, script);
    service = await startSandboxService({ acp: testAcpHost(installed) }, { network: 'host' });
    await service.api('POST', '/api/settings', {
      body: {
        llm_model: 'openai/gpt-4o',
        llm_api_key: CANARY,
        llm_base_url: llm.baseUrl,
        confirmation_mode: true,
      },
    });
  }, 300_000);

  afterAll(async () => {
    await closeSandboxService(service);
    await llm?.close();
  });

  it('runs a command in the sandbox with full access, answers, and takes a follow-up', async () => {
    script.add(exec('printf "hello\\n" > greeting.txt && cat greeting.txt'), {
      text: 'I wrote greeting.txt.',
    });
    ({ id, sandboxId } = await startAgentConversation(service, 'codex', 'Write a greeting file.'));

    const output = await untilEvent(service, id, (e) => e.observation === 'run', 'the command output');
    expect(output.content).toContain('hello');
    expect(output.extras).toMatchObject({ metadata: { exit_code: 0 } });
    const done = await untilAgentState(service, id, 'awaiting_user_input');
    expect(agentMessages(done).at(-1)).toContain('I wrote greeting.txt.');
    const container = docker.getContainer(containerName(sandboxId));
    expect((await dockerExec(container, ['cat', `${WORKDIR}/greeting.txt`])).stdout).toBe('hello\n');
    // Its config: the gateway as a Responses provider, its own sandbox off.
    const config = await dockerExec(container, ['sh', '-c', 'cat /tmp/dockhand-agent/*/.codex/config.toml']);
    expect(config.stdout).toContain('sandbox_mode = "danger-full-access"');
    expect(config.stdout).toContain('wire_api = "responses"');
    const calls = llm.requests.filter((r) => r.api === 'responses');
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(calls.every((r) => r.auth?.includes(CANARY))).toBe(true);

    script.add({ text: 'Still here.' });
    await service.api('POST', `/api/conversations/${id}/message`, { body: { message: 'Are you there?' } });
    await until(
      () => events(service, id),
      (list) => agentMessages(list).some((m) => m.includes('Still here.')),
      'the reply',
    );
  }, 600_000);

  it('stops the turn with session/cancel while a command runs', async () => {
    await untilAgentState(service, id, 'awaiting_user_input');
    script.add(exec(LONG), { text: 'Interrupted.' });
    await service.api('POST', `/api/conversations/${id}/message`, { body: { message: 'Wait a while.' } });
    const action = await untilEvent(
      service,
      id,
      (e) => e.action === 'run' && e.args?.command === LONG,
      'the command',
    );
    await service.api('POST', `/api/conversations/${id}/events`, {
      body: { action: 'change_agent_state', args: { agent_state: 'stopped' } },
    });
    await untilAgentState(service, id, 'stopped');
    await untilEvent(service, id, (e) => e.cause === action.id, 'the stopped command answered');
    const search = (
      await new AgentServerClient(
        ((await service.api('GET', `/api/v1/app-conversations/${id}`)).json as { conversation_url: string })
          .conversation_url,
        id,
        ((await service.api('GET', `/api/v1/app-conversations/${id}`)).json as { session_api_key: string })
          .session_api_key,
      ).rest('GET', `/api/conversations/${id}/events/search?limit=100`)
    ).json as { items: { kind: string; action?: { kind: string } }[] };
    expect(search.items.some((item) => item.action?.kind === 'ExecuteBashAction')).toBe(true);
  }, 300_000);

  it('leaves the real key nowhere in the sandbox, its processes, its files, the events or the trajectory', async () => {
    await expectKeyNowhere(service, id, sandboxId, CANARY);
  }, 120_000);
});
