import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEventSocket } from '../support/event-clients';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import type { TestService } from '../support/service';
import { until } from '../support/until';
import { startSandboxService, untilConversation, useScriptedModel } from '../sandbox/support';

// Titles do not depend on the sandbox: process sandboxes keep these tests quick (and need Linux).
const linux = process.platform === 'linux';
if (!linux) console.warn('Skipping the title tests: they run in process sandboxes, which need Linux');

const TITLE = 'Scripted title';

describe.skipIf(!linux)('a conversation is named after its first user message, however it arrives', () => {
  let service: TestService;
  let llm: ScriptedLlm;

  beforeAll(async () => {
    llm = await startScriptedLlm([], { channels: [{ marker: '[dockhand:title]', step: { text: TITLE } }] });
    service = await startSandboxService({}, { provider: 'process' });
    await useScriptedModel(service, llm);
  });

  afterAll(async () => {
    await service?.close();
    await llm?.close();
  });

  const titled = (id: string) => untilConversation(service, id, (c) => c.title === TITLE, 'the title');
  const titleCalls = () => llm.calls.filter((call) => call.rawBody.includes('[dockhand:title]'));

  /** A V0 conversation started without a message, RUNNING and waiting for one. */
  async function waitingConversation(): Promise<string> {
    const created = await service.api('POST', '/api/conversations', { body: {} });
    const id = (created.json as { conversation_id: string }).conversation_id;
    const ready = await untilConversation(
      service,
      id,
      (c) => c.agent_state === 'awaiting_user_input',
      'the agent to wait for a message',
    );
    expect(ready.title).toBe(`Conversation ${id.slice(0, 5)}`);
    llm.push({ text: 'On it.' });
    return id;
  }

  /** The title call carried `message`, the conversation's first message. */
  function namedAfter(message: string) {
    expect(titleCalls().at(-1)?.rawBody).toContain(message);
  }

  it('initial_user_msg of POST /api/conversations', async () => {
    llm.push({ text: 'On it.' });
    const created = await service.api('POST', '/api/conversations', {
      body: { initial_user_msg: 'first message at creation' },
    });
    await titled((created.json as { conversation_id: string }).conversation_id);
    namedAfter('first message at creation');
  });

  it('socket.io oh_user_action, as the OpenHands web UI sends it', async () => {
    const id = await waitingConversation();
    const { socket, received } = openEventSocket(service, id);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.emit('oh_user_action', { action: 'message', args: { content: 'first message over the socket' } });
    await titled(id);
    namedAfter('first message over the socket');
    await until(
      async () => received,
      (events) => events.some((e) => e.conversation_title === TITLE),
      'the title on the socket',
    );
    socket.close();
  });

  it('the V0 message routes: POST /message and POST /events', async () => {
    const viaMessage = await waitingConversation();
    await service.api('POST', `/api/conversations/${viaMessage}/message`, {
      body: { message: 'first message by POST /message' },
    });
    await titled(viaMessage);
    namedAfter('first message by POST /message');

    const viaEvents = await waitingConversation();
    await service.api('POST', `/api/conversations/${viaEvents}/events`, {
      body: { action: 'message', args: { content: 'first message by POST /events' } },
    });
    await titled(viaEvents);
    namedAfter('first message by POST /events');
  });

  it('the initial_message of a V1 app conversation', async () => {
    llm.push({ text: 'On it.' });
    const task = await service.api('POST', '/api/v1/app-conversations', {
      body: { initial_message: { content: [{ type: 'text', text: 'first message over V1' }] } },
    });
    const taskId = (task.json as { id: string }).id;
    const ready = await until(
      async () => (await service.api('GET', `/api/v1/app-conversations/start-tasks?ids=${taskId}`)).json,
      (tasks) => (tasks as { status: string }[])[0]?.status === 'READY',
      'the start task to be READY',
    );
    const id = (ready as { app_conversation_id: string }[])[0]?.app_conversation_id ?? '';
    await titled(id);
    namedAfter('first message over V1');
    const v1 = (await service.api('GET', `/api/v1/app-conversations/${id}`)).json as { title: string };
    expect(v1.title).toBe(TITLE);
  });

  it('only the first message names it', async () => {
    const id = await waitingConversation();
    await service.api('POST', `/api/conversations/${id}/message`, { body: { message: 'the very first' } });
    await titled(id);
    const calls = titleCalls().length;
    llm.push({ text: 'Again.' });
    await service.api('POST', `/api/conversations/${id}/message`, { body: { message: 'a second one' } });
    await untilConversation(service, id, (c) => c.agent_state === 'awaiting_user_input', 'the second reply');
    expect(titleCalls()).toHaveLength(calls);
  });
});
