import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSseStream } from '../support/event-clients';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import type { TestService } from '../support/service';
import { until } from '../support/until';
import {
  closeSandboxService,
  conversationEvents,
  conversationInfo,
  dockerSkipReason,
  startSandboxService,
  untilConversation,
  useScriptedModel,
} from './support';

const skip = await dockerSkipReason();
if (skip) console.warn(`Skipping the sandbox resume tests: ${skip}`);

describe.skipIf(skip !== null)('resuming a sandbox starts the conversations its pause stopped', () => {
  let service: TestService;
  let llm: ScriptedLlm;

  beforeAll(async () => {
    llm = await startScriptedLlm([], {
      channels: [{ marker: '[dockhand:title]', step: { text: 'Resume' } }],
    });
    service = await startSandboxService();
    await useScriptedModel(service, llm);
  });

  afterAll(async () => {
    await closeSandboxService(service);
    await llm?.close();
  });

  const waiting = (id: string) =>
    untilConversation(
      service,
      id,
      (c) => c.status === 'RUNNING' && c.agent_state === 'awaiting_user_input',
      `conversation ${id} to run and wait`,
    );

  it('STOPPED by the pause, STARTING then RUNNING on resume; one stopped by its user stays STOPPED', async () => {
    llm.push({ text: 'Ready.' });
    const created = await service.api('POST', '/api/conversations', { body: { initial_user_msg: 'hello' } });
    const byPause = (created.json as { conversation_id: string }).conversation_id;
    const sandboxId = String((await waiting(byPause)).sandbox_id);

    // A second conversation on the same sandbox, which its user stops before the pause.
    const task = await service.api('POST', '/api/v1/app-conversations', { body: { sandbox_id: sandboxId } });
    const taskId = (task.json as { id: string }).id;
    const [ready] = (await until(
      async () => (await service.api('GET', `/api/v1/app-conversations/start-tasks?ids=${taskId}`)).json,
      (tasks) => (tasks as { status: string }[])[0]?.status === 'READY',
      'the second conversation to start',
    )) as { app_conversation_id: string }[];
    const byUser = ready?.app_conversation_id ?? '';
    await waiting(byUser);
    await service.api('POST', `/api/conversations/${byUser}/stop`);

    expect((await service.api('POST', `/api/v1/sandboxes/${sandboxId}/pause`)).json).toEqual({
      success: true,
    });
    expect(await conversationInfo(service, byPause)).toMatchObject({ status: 'STOPPED' });

    const stream = await openSseStream(service, byPause);
    expect((await service.api('POST', `/api/v1/sandboxes/${sandboxId}/resume`)).json).toEqual({
      success: true,
    });
    const resumed = await untilConversation(
      service,
      byPause,
      (c) => c.status === 'RUNNING',
      'the conversation to run again',
    );
    // Its agent comes back as the pause left it (stopped), ready for the next message.
    expect(resumed).toMatchObject({
      sandbox_id: sandboxId,
      runtime_status: 'STATUS$READY',
      agent_state: 'stopped',
    });
    // The start pipeline ran again: its status updates went by, from STARTING to READY.
    const statuses = stream
      .events()
      .filter((frame) => frame.event === 'status_update')
      .map((frame) => (JSON.parse(frame.data) as { id: string }).id);
    expect(statuses[0]).toBe('STATUS$STARTING_RUNTIME');
    expect(statuses.at(-1)).toBe('STATUS$READY');
    stream.close();

    // It works as before: a message gets its answer in the resumed sandbox.
    llm.push({ text: 'Back again.' });
    await service.api('POST', `/api/conversations/${byPause}/message`, { body: { message: 'still there?' } });
    await until(
      () => conversationEvents(service, byPause),
      (events) => events.some((e) => e.source === 'agent' && e.message === 'Back again.'),
      'the answer after the resume',
    );
    expect(await conversationInfo(service, byUser)).toMatchObject({ status: 'STOPPED' });
  });
});
