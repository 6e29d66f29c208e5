import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import type { RecordedLlmRequest } from '../support/scripted-llm/steps';
import type { TestService } from '../support/service';
import { followStatusMessages } from '../support/event-clients';
import { until } from '../support/until';
import {
  closeSandboxService,
  conversationEvents,
  conversationInfo,
  docker,
  dockerSkipReason,
  startSandboxService,
  TEST_IMAGE,
  untilConversation,
  useScriptedModel,
} from '../sandbox/support';
import { bundleEchoServer } from './fixtures/bundle';
import { deliverFixture, FIXTURE_DIR } from './fixtures/deliver';

const skip = await dockerSkipReason();
if (skip) console.warn(`Skipping the MCP stdio tests: ${skip}`);

// The server waits for the test to copy the bundle in (the file `ready` follows it in the archive).
const WAIT_AND_RUN = `while [ ! -f ${FIXTURE_DIR}/ready ]; do sleep 0.1; done; exec node ${FIXTURE_DIR}/echo-server.mjs`;

describe.skipIf(skip !== null)('MCP stdio servers inside the Docker sandbox', () => {
  let service: TestService;
  let llm: ScriptedLlm;
  let bundle: string;

  beforeAll(async () => {
    process.env.DOCKHAND_MCP_CALL_TIMEOUT_S = '2';
    bundle = await bundleEchoServer();
    llm = await startScriptedLlm([], {
      channels: [{ marker: '[dockhand:title]', step: { text: 'MCP title' } }],
    });
    service = await startSandboxService();
    await useScriptedModel(service, llm, { confirmation_mode: true, security_analyzer: 'rules' });
  });

  afterAll(async () => {
    delete process.env.DOCKHAND_MCP_CALL_TIMEOUT_S;
    await closeSandboxService(service);
    await llm?.close();
  });

  const eventsOf = (id: string) => conversationEvents(service, id);
  const agentState = async (id: string) => (await conversationInfo(service, id)).agent_state;

  it('lists and calls the tools of a server in the sandbox; timeouts, missing commands and destructive tools', async () => {
    let firstRequest: RecordedLlmRequest | undefined;
    llm.push(
      (request) => {
        firstRequest = request;
        return { toolCalls: [{ id: 'call_echo', name: 'echo', args: { text: 'hi', security_risk: 'LOW' } }] };
      },
      { toolCalls: [{ id: 'call_think', name: 'echo_think', args: { topic: 'names' } }] },
      { toolCalls: [{ id: 'call_sleep', name: 'sleep', args: { seconds: 20 } }] },
      { toolCalls: [{ id: 'call_wipe', name: 'wipe', args: { target: 'everything' } }] },
      { text: 'All done.' },
    );
    const created = await service.api('POST', '/api/conversations', {
      body: {
        initial_user_msg: 'use the MCP tools',
        mcp_config: {
          stdio_servers: [
            { name: 'echo', command: 'sh', args: ['-c', WAIT_AND_RUN], env: { FIXTURE_ENV: 'from-config' } },
            { name: 'ghost', command: 'no-such-mcp-server' },
          ],
        },
      },
    });
    expect(created.status).toBe(200);
    const id = (created.json as { conversation_id: string }).conversation_id;
    const statuses = await followStatusMessages(service, id);
    const sandboxId = (await untilConversation(service, id, (c) => c.sandbox_id !== null, 'the sandbox'))
      .sandbox_id as string;
    await until(
      async () =>
        (
          await docker
            .getContainer(`dockhand-${sandboxId}`)
            .inspect()
            .catch(() => null)
        )?.State.Running,
      (running) => running === true,
      'the container to run',
    );
    await deliverFixture(`dockhand-${sandboxId}`, bundle);

    await until(
      () => agentState(id),
      (s) => s === 'awaiting_user_confirmation',
      'the destructive tool to ask',
    );
    expect(statuses.messages()).toContain(
      `MCP server "ghost" could not start: command "no-such-mcp-server" was not found in the sandbox image ${TEST_IMAGE}.`,
    );

    const tools = (firstRequest?.body?.tools ?? []) as {
      function: { name: string; parameters: Record<string, unknown> };
    }[];
    const names = tools.map((t) => t.function.name);
    expect(names).toEqual(
      expect.arrayContaining(['execute_bash', 'think', 'echo', 'sleep', 'wipe', 'echo_think']),
    );
    const echo = tools.find((t) => t.function.name === 'echo')?.function.parameters;
    expect(echo).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string' }, security_risk: { enum: ['LOW', 'MEDIUM', 'HIGH'] } },
      required: ['text'],
    });
    expect(echo).not.toHaveProperty('$schema');

    const events = await eventsOf(id);
    const system = events.find((e) => e.action === 'system');
    expect((system?.args as { mcp_tools: unknown }).mcp_tools).toEqual({
      echo: { server: 'echo', tool: 'echo' },
      sleep: { server: 'echo', tool: 'sleep' },
      wipe: { server: 'echo', tool: 'wipe' },
      echo_think: { server: 'echo', tool: 'think' },
      pixel: { server: 'echo', tool: 'pixel' },
    });
    const echoAction = events.find(
      (e) => e.action === 'call_tool_mcp' && (e.args as { name: string }).name === 'echo',
    );
    expect(echoAction?.args).toMatchObject({ name: 'echo', arguments: { text: 'hi' }, security_risk: 0 });
    const mcpResults = events.filter((e) => e.observation === 'mcp');
    expect(mcpResults.map((e) => e.content)).toEqual([
      // The server got its env value; as an MCP secret it is masked in events.
      'echo: hi\ncwd=/workspace/project uid=1000 FIXTURE_ENV=<secret_hidden>',
      'thought about names',
      '{"isError":true,"error":"Tool \\"sleep\\" timed out after 2 seconds"}',
    ]);
    expect(mcpResults[0]?.extras).toEqual({ name: 'echo', arguments: { text: 'hi' } });

    const pending = (await eventsOf(id)).at(-2);
    expect(pending?.args).toMatchObject({
      name: 'wipe',
      confirmation_state: 'awaiting_confirmation',
      security_risk: 2,
      security_rules: ['R9'],
    });
    await service.api('POST', `/api/conversations/${id}/events`, {
      body: { action: 'change_agent_state', args: { agent_state: 'user_confirmed' } },
    });
    await until(
      () => agentState(id),
      (s) => s === 'awaiting_user_input',
      'the final answer',
    );
    const after = await eventsOf(id);
    expect(after.filter((e) => e.observation === 'mcp').at(-1)?.content).toBe('wiped everything');
    // The model got the timeout as the sleep call's result.
    const lastRequest = llm.calls.filter((c) => c.body?.tools).at(-1);
    expect(JSON.stringify(lastRequest?.body?.messages)).toContain('timed out after 2 seconds');

    statuses.close();
    await service.api('POST', `/api/conversations/${id}/stop`);
    const container = docker.getContainer(`dockhand-${sandboxId}`);
    await until(
      async () => {
        const top = await container
          .top({ ps_args: '-eo args' })
          .catch(() => ({ Processes: [] as string[][] }));
        return top.Processes.some((p: string[]) => p.join(' ').includes('echo-server.mjs'));
      },
      (running) => !running,
      'the stdio server to end after the conversation closed',
    );
  });
});
