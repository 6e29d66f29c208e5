import { io as ioClient, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { V0Event } from '../../src/shared/api/events';
import { REPLAY_ENDED_BY_REJECTION } from '../../src/service/agent/agent-loop';
import { startScriptedLlm, type RecordedLlmRequest, type ScriptedLlm } from '../support/scripted-llm';
import type { TestService } from '../support/service';
import { until } from '../support/until';
import {
  closeSandboxService,
  conversationEvents,
  conversationInfo,
  dockerSkipReason,
  execIn,
  startSandboxService,
  useScriptedModel,
} from '../sandbox/support';

const skip = await dockerSkipReason();
if (skip) console.warn(`Skipping the replay tests: ${skip}`);

/** An OpenHands trajectory: the opening message, then each command with its recorded exit code. */
function trajectory(commands: { command: string; exitCode: number }[]): string {
  const events: Record<string, unknown>[] = [
    { id: 0, source: 'environment', observation: 'agent_state_changed', extras: { agent_state: 'loading' } },
    { id: 1, source: 'agent', action: 'system', args: { content: 'recorded system prompt' } },
    {
      id: 2,
      source: 'user',
      action: 'message',
      message: 'replay this',
      args: { content: 'replay this', image_urls: [], wait_for_response: false },
    },
  ];
  commands.forEach(({ command, exitCode }, index) => {
    const id = 3 + index * 2;
    const metadata = {
      function_name: 'execute_bash',
      tool_call_id: `toolu_${id}`,
      total_calls_in_response: 1,
    };
    events.push(
      {
        id,
        source: 'agent',
        action: 'run',
        message: `Running command: ${command}`,
        args: { command, is_input: false, thought: '', security_risk: 0 },
        tool_call_metadata: metadata,
      },
      {
        id: id + 1,
        source: 'agent',
        observation: 'run',
        cause: id,
        content: '',
        extras: { command, metadata: { exit_code: exitCode } },
        tool_call_metadata: metadata,
      },
    );
  });
  return JSON.stringify(events);
}

/** The `tool` results the model was sent. */
function toolResults(request: RecordedLlmRequest): string[] {
  const messages = (request.body?.messages ?? []) as { role: string; content: unknown }[];
  return messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
}

describe.skipIf(skip !== null)('replay_json against a Docker sandbox and a scripted LLM', () => {
  let service: TestService;
  let llm: ScriptedLlm;
  let socket: Socket | null = null;

  beforeAll(async () => {
    llm = await startScriptedLlm([], {
      channels: [{ marker: '[dockhand:title]', step: { text: 'Replay title' } }],
    });
    service = await startSandboxService();
    await useScriptedModel(service, llm);
  });

  afterEach(() => {
    socket?.close();
    socket = null;
  });

  afterAll(async () => {
    await closeSandboxService(service);
    await llm?.close();
  });

  const agentCalls = () => llm.calls.filter((c) => !c.rawBody.includes('[dockhand:title]'));
  const info = (id: string) => conversationInfo(service, id);
  const eventsOf = (id: string) => conversationEvents(service, id);
  const commandsRun = (events: V0Event[]) =>
    events.filter((e) => e.observation === 'run').map((e) => (e.extras as { command: string }).command);

  /** Creates a replaying conversation and collects its status updates over socket.io. */
  async function replay(replayJson: string) {
    const created = await service.api('POST', '/api/conversations', { body: { replay_json: replayJson } });
    expect(created.status).toBe(200);
    const id = (created.json as { conversation_id: string }).conversation_id;
    const statuses: Record<string, unknown>[] = [];
    socket = ioClient(service.url, {
      query: { conversation_id: id, session_api_key: service.key },
      transports: ['websocket'],
      reconnection: false,
    });
    socket.on('oh_event', (event: Record<string, unknown>) => {
      if (event.status_update) statuses.push(event);
    });
    return { id, statuses };
  }

  it('replays three recorded commands without asking the model, then asks it live', async () => {
    const before = agentCalls().length;
    let commandsBeforeLiveCall: string[] = [];
    llm.push(async () => {
      commandsBeforeLiveCall = commandsRun(await eventsOf(id));
      return { text: 'Live after the replay.' };
    });
    const { id } = await replay(
      trajectory([
        { command: 'echo replayed > replay.txt', exitCode: 0 },
        { command: 'cat replay.txt', exitCode: 0 },
        { command: 'test -s replay.txt', exitCode: 0 },
      ]),
    );
    await until(
      () => info(id),
      (c) => c.agent_state === 'awaiting_user_input',
      'the live answer after the replay',
    );
    const calls = agentCalls().slice(before);
    expect(calls).toHaveLength(1);
    expect(commandsBeforeLiveCall).toEqual([
      'echo replayed > replay.txt',
      'cat replay.txt',
      'test -s replay.txt',
    ]);
    const results = toolResults(calls[0] as RecordedLlmRequest);
    expect(results).toHaveLength(3);
    expect(results[1]).toMatch(/^replayed\n\[The command completed with exit code 0\.\]/);
    const events = await eventsOf(id);
    expect(events.filter((e) => e.source === 'user' && e.action === 'message').map((e) => e.message)).toEqual(
      ['replay this'],
    );
    expect(events.filter((e) => e.action === 'run').map((e) => e.tool_call_metadata?.tool_call_id)).toEqual([
      'replay_3',
      'replay_5',
      'replay_7',
    ]);
    expect(events.at(-2)).toMatchObject({
      source: 'agent',
      action: 'message',
      message: 'Live after the replay.',
    });
    const sandboxId = (await info(id)).sandbox_id as string;
    expect((await execIn(sandboxId, 'cat /workspace/project/replay.txt')).stdout).toBe('replayed\n');
  });

  it('stops at a command whose exit code differs from the recording, then goes on live', async () => {
    const before = agentCalls().length;
    llm.push({ text: 'I see the replay diverged.' });
    const { id, statuses } = await replay(
      trajectory([
        { command: 'true', exitCode: 0 },
        { command: 'test -e /nonexistent', exitCode: 0 },
        { command: 'echo never', exitCode: 0 },
      ]),
    );
    await until(
      () => info(id),
      (c) => c.agent_state === 'awaiting_user_input',
      'the live answer after the divergence',
    );
    expect(commandsRun(await eventsOf(id))).toEqual(['true', 'test -e /nonexistent']);
    expect(statuses).toContainEqual(
      expect.objectContaining({ type: 'error', message: 'Replay diverged at recorded event 5' }),
    );
    expect(agentCalls().length - before).toBe(1);
  });

  it('stops before an action with a masked secret, with a warning', async () => {
    const before = agentCalls().length;
    llm.push({ text: 'The replay stopped.' });
    const { id, statuses } = await replay(
      trajectory([
        { command: 'echo first', exitCode: 0 },
        { command: 'echo <secret_hidden> > token.txt', exitCode: 0 },
      ]),
    );
    await until(
      () => info(id),
      (c) => c.agent_state === 'awaiting_user_input',
      'the live answer after the stop',
    );
    expect(commandsRun(await eventsOf(id))).toEqual(['echo first']);
    expect(statuses).toContainEqual(
      expect.objectContaining({
        message: 'Replay stopped at recorded event 5: it contains a masked secret (<secret_hidden>)',
      }),
    );
    expect(agentCalls().length - before).toBe(1);
  });

  it('ends the replay when a recorded action is rejected, and the next message goes to the model', async () => {
    await service.api('POST', '/api/settings', { body: { confirmation_mode: true, security_analyzer: '' } });
    try {
      const { id, statuses } = await replay(
        trajectory([
          { command: 'echo refused > refused.txt', exitCode: 0 },
          { command: 'echo never', exitCode: 0 },
        ]),
      );
      await until(
        () => info(id),
        (c) => c.agent_state === 'awaiting_user_confirmation',
        'the first recorded action to ask',
      );
      const before = agentCalls().length;
      await service.api('POST', `/api/conversations/${id}/events`, {
        body: { action: 'change_agent_state', args: { agent_state: 'user_rejected' } },
      });
      await until(
        () => info(id),
        (c) => c.agent_state === 'awaiting_user_input',
        'the rejection',
      );
      expect(statuses).toContainEqual(expect.objectContaining({ message: REPLAY_ENDED_BY_REJECTION }));
      llm.push({ text: 'Understood, no replay.' });
      await service.api('POST', `/api/conversations/${id}/message`, {
        body: { message: 'do it differently' },
      });
      await until(
        () => info(id),
        (c) => c.agent_state === 'awaiting_user_input' && agentCalls().length > before,
        'the live answer',
      );
      expect(commandsRun(await eventsOf(id))).toEqual([]);
    } finally {
      await service.api('POST', '/api/settings', { body: { confirmation_mode: false } });
    }
  });

  it('refuses a trajectory that does not start with a user message', async () => {
    const created = await service.api('POST', '/api/conversations', {
      body: { replay_json: JSON.stringify([{ id: 0, source: 'agent', action: 'message', args: {} }]) },
    });
    expect(created.status).toBe(400);
    expect(created.json).toEqual({ detail: 'replay_json must start with a user message' });
  });
});
