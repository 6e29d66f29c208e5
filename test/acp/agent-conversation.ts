import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AcpAgentKind } from '../../src/shared/api/agents';
import type { V0Event } from '../../src/shared/api/events';
import { acpAgent } from '../../src/service/acp/agent-catalog';
import { TITLE_MARKER } from '../../src/service/agent/title';
import { dockerExec } from '../../src/service/sandbox/docker/docker-exec';
import { containerName } from '../../src/service/sandbox/sandbox-id';
import { AgentServerClient } from '../agent-server/agent-server-client';
import { closeSandboxService, docker, dockerSkipReason, startSandboxService } from '../sandbox/support';
import {
  startScriptedLlm,
  type RecordedLlmRequest,
  type ScriptedApi,
  type ScriptedReply,
  type ScriptedLlm,
} from '../support/scripted-llm';
import type { TestService } from '../support/service';
import { until } from '../support/until';
import {
  AgentScript,
  events,
  installedAgent,
  GATEWAY_TOKEN_PREFIX,
  playScript,
  testAcpHost,
  untilAgentState,
  untilEvent,
  startAgentConversation,
} from './support';

/** How one agent's model calls look: its tools as the scripted model calls them, and its wire API. */
export interface AgentDialect {
  kind: AcpAgentKind;
  /** What the test adds to the agent's name (the model's wire when the gateway translates). */
  variant?: string;
  /** The conversation's model in Dockhand's `provider/model` form; the title call goes there too. */
  llmModel: string;
  /** The API the scripted provider is called with: the agent's own, or the one the gateway translates to. */
  api: ScriptedApi;
  bash(command: string): ScriptedReply;
  read(path: string): ScriptedReply;
  edit(path: string, oldText: string, newText: string): ScriptedReply;
  /** The agent's own turns (they carry its tools), told from its side calls (titles and the like). */
  isTurn(request: RecordedLlmRequest): boolean;
  /** The agent cannot load its earlier session after a restart (Gemini CLI): the context is lost, and said so. */
  forgetsLoadedSession?: boolean;
  /** The agent does not send a command's output over ACP (Gemini CLI). */
  silentCommands?: boolean;
  /** The agent ends its turn when a permission is rejected (opencode) instead of asking its model again. */
  rejectionEndsTurn?: boolean;
  /** A `pgrep -f` pattern of the agent's process (bracketed so that it does not match itself). */
  process: string;
  /**
   * The sandbox's network: `host` (default) reaches the gateway on its loopback port; `gated` has only
   * loopback and reaches it through the link's port forwarded into the sandbox.
   */
  network?: 'host' | 'gated';
}

const WORKDIR = '/workspace/project';
const LONG = 'python3 -c "import time; time.sleep(600)"';

const awaiting = (e: V0Event) => e.args?.confirmation_state === 'awaiting_confirmation';

/** The names of the tools in a model request: Anthropic, OpenAI Chat and Responses, or Gemini shapes. */
export function toolNames(request: RecordedLlmRequest): string[] {
  type Tool = { name?: string; function?: { name?: string }; functionDeclarations?: { name: string }[] };
  return ((request.body?.tools as Tool[] | undefined) ?? []).flatMap((tool) =>
    tool.functionDeclarations
      ? tool.functionDeclarations.map((declaration) => declaration.name)
      : [tool.name ?? tool.function?.name ?? ''],
  );
}

/**
 * A whole conversation of one coding agent, installed from the registry, in a Docker sandbox over ACP,
 * against the scripted model server speaking its wire format on 127.0.0.1 (host networking): a command
 * confirmed over V0, a file read and edited (the edit confirmed with the agent's own option), a removal
 * rejected over the agent-server endpoint, a follow-up, a Stop with a permission pending, a sandbox pause
 * and resume, and the canary key looked for everywhere in the sandbox.
 */
export async function describeAgentConversation(agent: AgentDialect): Promise<void> {
  const label = acpAgent(agent.kind).label;
  const dockerSkip = await dockerSkipReason();
  if (dockerSkip) console.warn(`Skipping the ${label} conversation: ${dockerSkip}`);
  // The cases are the steps of one conversation (its start, a follow-up, a pause): they keep their order.
  const steps = { shuffle: false };
  describe.skipIf(dockerSkip !== null)(
    `${label}${agent.variant ?? ''} over ACP in a Docker sandbox`,
    steps,
    () => {
      /** The real key the settings hold: it must never reach the sandbox. */
      const CANARY = `sk-canary-${randomBytes(12).toString('hex')}`;
      let llm: ScriptedLlm;
      let service: TestService;
      let id: string;
      let sandboxId: string;
      let agentServer: AgentServerClient;
      const script = new AgentScript(agent.isTurn);

      beforeAll(async () => {
        const installed = await installedAgent(agent.kind);
        llm = await startScriptedLlm([], {
          channels: [{ marker: TITLE_MARKER, step: { text: 'Greeting file' } }],
        });
        playScript(llm, script);
        service = await startSandboxService(
          { acp: testAcpHost(installed) },
          { network: agent.network ?? 'host' },
        );
        await service.api('POST', '/api/settings', {
          body: {
            llm_model: agent.llmModel,
            llm_api_key: CANARY,
            llm_base_url: llm.baseUrl,
            confirmation_mode: true,
            security_analyzer: '',
          },
        });
      }, 300_000);

      afterAll(async () => {
        await closeSandboxService(service);
        await llm?.close();
      });

      it('runs a command, edits a file, asks for permissions, and answers a follow-up', async () => {
        script.add(
          agent.bash('printf "hello\\n" > greeting.txt && cat greeting.txt'),
          agent.read(`${WORKDIR}/greeting.txt`),
          agent.edit(`${WORKDIR}/greeting.txt`, 'hello', 'hello, edited'),
          agent.bash('rm greeting.txt'),
        );
        // An agent that goes on after a rejection asks its model once more.
        if (!agent.rejectionEndsTurn) script.add({ text: 'I made greeting.txt and left it in place.' });
        ({ id, sandboxId } = await startAgentConversation(service, agent.kind, 'Write a greeting file.'));
        const conversation = (await service.api('GET', `/api/v1/app-conversations/${id}`)).json as {
          agent: string;
          conversation_url: string;
          session_api_key: string;
        };
        expect(conversation.agent).toBe(agent.kind);
        agentServer = new AgentServerClient(conversation.conversation_url, id, conversation.session_api_key);

        // 1. The command asks first; confirmed over V0.
        const command = await untilEvent(
          service,
          id,
          (e) => e.action === 'run' && awaiting(e),
          'the command to ask',
        );
        expect(command.args).toMatchObject({
          command: 'printf "hello\\n" > greeting.txt && cat greeting.txt',
        });
        const options = (command.args?.acp_options as { kind: string }[]).map((o) => o.kind);
        expect(options).toEqual(expect.arrayContaining(['allow_once', 'allow_always', 'reject_once']));
        await untilAgentState(service, id, 'awaiting_user_confirmation');
        await service.api('POST', `/api/conversations/${id}/events`, {
          body: { action: 'change_agent_state', args: { agent_state: 'user_confirmed' } },
        });
        const output = await untilEvent(service, id, (e) => e.observation === 'run', 'the command output');
        // Gemini CLI reports a command's end without its output.
        if (!agent.silentCommands) expect(output.content).toContain('hello');
        expect(output.extras).toMatchObject({ metadata: { exit_code: 0 } });

        // 2. The edit asks too; confirmed over V0 with the agent's own option.
        const edit = await untilEvent(
          service,
          id,
          (e) => e.action === 'edit' && awaiting(e),
          'the edit to ask',
        );
        const allowOnce = (edit.args?.acp_options as { option_id: string; kind: string }[]).find(
          (o) => o.kind === 'allow_once',
        );
        await untilAgentState(service, id, 'awaiting_user_confirmation');
        await service.api('POST', `/api/conversations/${id}/events`, {
          body: {
            action: 'change_agent_state',
            args: { agent_state: 'user_confirmed', option_id: allowOnce?.option_id },
          },
        });
        const edited = await untilEvent(service, id, (e) => e.observation === 'edit', 'the edit');
        expect(edited.extras?.diff).toMatch(/-hello\n[^]*\+hello, edited/);

        // 3. The removal is rejected over the agent-server endpoint: `reject_once`, and the file stays.
        await untilEvent(
          service,
          id,
          (e) => e.action === 'run' && awaiting(e) && e.args?.command === 'rm greeting.txt',
          'rm to ask',
        );
        await untilAgentState(service, id, 'awaiting_user_confirmation');
        const answer = await agentServer.rest(
          'POST',
          `/api/conversations/${id}/events/respond_to_confirmation`,
          {
            accept: false,
            reason: 'keep it',
          },
        );
        expect(answer.status).toBe(200);
        await untilEvent(service, id, (e) => e.observation === 'user_rejected', 'the rejection');
        const done = await untilAgentState(service, id, 'awaiting_user_input');
        if (!agent.rejectionEndsTurn) {
          expect(done.filter((e) => e.action === 'message' && e.source === 'agent').at(-1)?.message).toBe(
            'I made greeting.txt and left it in place.',
          );
        }
        expect(script.remaining).toBe(0);
        const container = docker.getContainer(containerName(sandboxId));
        expect((await dockerExec(container, ['cat', `${WORKDIR}/greeting.txt`])).stdout).toBe(
          'hello, edited\n',
        );

        // The agent called the gateway with its placeholder; the provider got the real key, from the gateway.
        const agentCalls = llm.requests.filter(
          (r) => r.api === agent.api && !r.rawBody.includes(TITLE_MARKER),
        );
        expect(agentCalls.length).toBeGreaterThanOrEqual(script.turns.length);
        expect(agentCalls.every((r) => r.auth?.includes(CANARY))).toBe(true);
      }, 600_000);

      it('answers a follow-up with a new prompt, and a Stop cancels the turn and its pending permission', async () => {
        script.add({ after: 'Are you there?', outcome: { text: 'Still here.' } });
        await service.api('POST', `/api/conversations/${id}/message`, {
          body: { message: 'Are you there?' },
        });
        await until(
          () => events(service, id),
          (list) => list.some((e) => e.message === 'Still here.'),
          'the reply',
        );
        await untilAgentState(service, id, 'awaiting_user_input');

        script.add({ after: 'Wait a while.', outcome: agent.bash(LONG) });
        await service.api('POST', `/api/conversations/${id}/message`, { body: { message: 'Wait a while.' } });
        await untilEvent(
          service,
          id,
          (e) => e.action === 'run' && awaiting(e) && e.args?.command === LONG,
          'sleep to ask',
        ).catch(async (error: unknown) => {
          console.log(JSON.stringify((await events(service, id)).slice(-8), null, 1));
          throw error;
        });
        await untilAgentState(service, id, 'awaiting_user_confirmation');
        await service.api('POST', `/api/conversations/${id}/events`, {
          body: { action: 'change_agent_state', args: { agent_state: 'stopped' } },
        });
        const after = await untilAgentState(service, id, 'stopped');
        const sleepAction = after
          .filter((e) => e.action === 'run' && e.args?.command === LONG)
          .at(-1) as V0Event;
        await untilEvent(
          service,
          id,
          (e) => e.observation === 'error' && e.cause === sleepAction.id,
          'the stopped call answered',
        );

        // Over the agent-server endpoint: the SDK's events of the same conversation.
        const search = (await agentServer.rest('GET', `/api/conversations/${id}/events/search?limit=100`))
          .json as {
          items: { kind: string; action?: { kind: string; command?: string } }[];
        };
        const actions = search.items
          .filter((item) => item.kind === 'ActionEvent')
          .map((item) => item.action?.kind);
        expect(actions).toEqual(expect.arrayContaining(['ExecuteBashAction', 'FileEditorAction']));
        expect(search.items.some((item) => item.kind === 'UserRejectObservation')).toBe(true);
      }, 300_000);

      it('ends the agent with a sandbox pause, and resumes its session after the sandbox resumes', async () => {
        const container = docker.getContainer(containerName(sandboxId));
        const agentProcesses = async () =>
          (await dockerExec(container, ['sh', '-c', `pgrep -f '${agent.process}' || true`])).stdout.trim();
        expect(await agentProcesses()).not.toBe('');
        expect((await service.api('POST', `/api/v1/sandboxes/${sandboxId}/pause`)).status).toBe(200);
        await until(
          async () => (await service.api('GET', `/api/conversations/${id}`)).json as { status: string },
          (c) => c.status === 'STOPPED',
          'the pause to stop the conversation',
        );
        expect((await service.api('POST', `/api/v1/sandboxes/${sandboxId}/resume`)).status).toBe(200);
        await until(
          async () => (await service.api('GET', `/api/conversations/${id}`)).json as { status: string },
          (c) => c.status === 'RUNNING',
          'the conversation to run again',
        );
        expect(await agentProcesses()).toBe(''); // the pause ended it; the next message starts it

        const before = (await events(service, id)).length;
        script.add((request) => ({
          text: request.rawBody.includes('Write a greeting file.')
            ? 'You asked for a greeting file.'
            : 'I forgot.',
        }));
        await service.api('POST', `/api/conversations/${id}/message`, {
          body: { message: 'What did I ask first?' },
        });
        const answered = await until(
          () => events(service, id),
          (list) => list.some((e) => e.action === 'message' && e.source === 'agent' && e.id >= before),
          'the answer after the resume',
        );
        const notes = answered.slice(before).filter((e) => e.observation === 'error');
        if (agent.forgetsLoadedSession) {
          // The user is told that the agent starts over, and it does.
          console.log(`${label} after the resume: ${notes.map((e) => e.content).join('\n')}`);
          expect(notes.map((e) => e.content).join('\n')).toContain('does not remember what came before');
        } else expect(notes).toEqual([]);
        expect(answered.filter((e) => e.source === 'agent' && e.action === 'message').at(-1)?.message).toBe(
          agent.forgetsLoadedSession ? 'I forgot.' : 'You asked for a greeting file.',
        );
        await untilAgentState(service, id, 'awaiting_user_input');
      }, 300_000);

      it('leaves the real key nowhere in the sandbox, its processes, its files, the events or the trajectory', async () => {
        await expectKeyNowhere(service, id, sandboxId, CANARY);
      }, 120_000);
    },
  );
}

/**
 * The canary rule: the real key the settings hold is nowhere in the sandbox — not in the environment or the
 * command line of any process, not in any file under its HOMEs, the workspace or the lent folders — nor in
 * the conversation's events or trajectory; the agent runs with the gateway's placeholder instead.
 */
export async function expectKeyNowhere(
  service: TestService,
  id: string,
  sandboxId: string,
  canary: string,
): Promise<void> {
  const container = docker.getContainer(containerName(sandboxId));
  const processes = await dockerExec(
    container,
    ['sh', '-c', 'for p in /proc/[0-9]*; do cat $p/environ $p/cmdline 2>/dev/null; echo; done'],
    { user: 'dockhand' },
  );
  expect(processes.stdout).toContain(GATEWAY_TOKEN_PREFIX); // the agent runs, with its placeholder
  expect(processes.stdout).not.toContain(canary);
  const asRoot = await dockerExec(
    container,
    ['sh', '-c', 'for p in /proc/[0-9]*; do cat $p/cmdline 2>/dev/null; echo; done'],
    { user: 'root' },
  );
  expect(asRoot.stdout).not.toContain(canary);
  const files = await dockerExec(
    container,
    [
      'sh',
      '-c',
      `grep -rl -- "$1" /tmp /workspace /root /home /opt/dockhand /opt/dockhand-lent 2>/dev/null; true`,
      'sh',
      canary,
    ],
    { user: 'root' },
  );
  expect(files.stdout.trim()).toBe('');
  const stored = JSON.stringify(await events(service, id));
  expect(stored).not.toContain(canary);
  const trajectory = await service.api('GET', `/api/conversations/${id}/trajectory`);
  expect(trajectory.status).toBe(200);
  expect(trajectory.text).not.toContain(canary);
}
