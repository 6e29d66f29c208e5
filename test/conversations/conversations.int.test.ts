import { until } from '../support/until';
import { openEventSocket, openSseStream } from '../support/event-clients';
import { valuesFoundInFiles } from '../support/data-folder';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import type { TestService } from '../support/service';
import {
  closeSandboxService,
  containerState,
  conversationEvents,
  conversationInfo,
  dockerSkipReason,
  startSandboxService,
  useScriptedModel,
} from '../sandbox/support';

const skip = await dockerSkipReason();
if (skip) console.warn(`Skipping the conversation tests: ${skip}`);

const SECRET = 's3cr3t-v4lue';

describe.skipIf(skip !== null)('V0 conversations with a Docker sandbox and a scripted LLM', () => {
  // Each test has its own scripted model, saved as the settings before it runs; a test that needs a service
  // without settings, or changes its session key, starts a service of its own.
  let service: TestService;
  let llm: ScriptedLlm;

  const scriptedLlm = () =>
    startScriptedLlm([], { channels: [{ marker: '[dockhand:title]', step: { text: 'Scripted title' } }] });

  /** A service for this test alone, closed with its containers when the test ends. */
  async function ownService(): Promise<TestService> {
    const own = await startSandboxService();
    onTestFinished(() => closeSandboxService(own));
    return own;
  }

  beforeAll(async () => {
    service = await startSandboxService();
  });

  afterAll(async () => {
    await closeSandboxService(service);
  });

  beforeEach(async () => {
    llm = await scriptedLlm();
    await useScriptedModel(service, llm);
  });

  afterEach(async () => {
    await llm?.close();
  });

  const info = (id: string) => conversationInfo(service, id);
  const eventsOf = (id: string) => conversationEvents(service, id);

  it('refuses to start without settings and persists nothing', async () => {
    const fresh = await ownService();
    const created = await fresh.api('POST', '/api/conversations', { body: {} });
    expect(created.status).toBe(400);
    expect(created.json).toEqual({
      status: 'error',
      message: 'Settings not found',
      msg_id: 'CONFIGURATION$SETTINGS_NOT_FOUND',
    });
    expect((await fresh.api('GET', '/api/conversations')).json).toEqual({
      results: [],
      next_page_id: null,
    });
  });

  it('needs an LLM key for a remote model, not for a local server', async () => {
    await service.api('POST', '/api/settings', {
      body: { llm_model: 'openai/gpt-4o', llm_base_url: 'https://api.openai.com/v1', llm_api_key: '' },
    });
    const remote = await service.api('POST', '/api/conversations', { body: {} });
    expect(remote.status).toBe(400);
    expect(remote.json).toMatchObject({ msg_id: 'STATUS$ERROR_LLM_AUTHENTICATION' });
    await service.api('POST', '/api/settings', {
      body: { llm_model: 'openai/gpt-4o', llm_base_url: llm.baseUrl, llm_api_key: '' },
    });
    const local = await service.api('POST', '/api/conversations', { body: {} });
    expect(local.status).toBe(200);
    const id = (local.json as { conversation_id: string }).conversation_id;
    await until(
      () => info(id),
      (c) => c.agent_state === 'awaiting_user_input',
      'the conversation to start',
    );
    expect((await service.api('DELETE', `/api/conversations/${id}`)).json).toBe(true);
  });

  it('validates the request body exactly', async () => {
    const post = (body: unknown) => service.api('POST', '/api/conversations', { body });
    expect((await post({ foo: 1 })).json).toEqual({
      detail: [
        { type: 'extra_forbidden', loc: ['body', 'foo'], msg: 'Extra inputs are not permitted', input: 1 },
      ],
    });
    expect((await post({ git_provider: 'azure_devops' })).json).toMatchObject({
      detail: [{ type: 'enum', msg: "Input should be 'github', 'gitlab', 'bitbucket' or 'enterprise_sso'" }],
    });
    expect((await post({ conversation_id: 'bad id!' })).json).toMatchObject({
      detail: [{ type: 'string_pattern_mismatch' }],
    });
    const broken = await service.api('POST', '/api/conversations', {
      rawBody: '{',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(broken.status).toBe(422);
    expect(broken.json).toMatchObject({ detail: [{ type: 'json_invalid' }] });
    expect((await service.api('GET', '/api/conversations?limit=0')).json).toMatchObject({
      detail: [{ type: 'greater_than_equal' }],
    });
    await service.api('POST', '/api/settings', {
      body: { llm_model: 'ollama/text-only-model', llm_base_url: llm.baseUrl },
    });
    const image = await post({ image_urls: ['https://example.invalid/cat.png'], initial_user_msg: 'look' });
    expect(image.status).toBe(400);
    expect(image.json).toEqual({
      detail: 'Model does not support image upload, change to a different model or try without an image.',
    });
    await service.api('POST', '/api/settings', {
      body: { llm_model: 'openai/gpt-4o', llm_base_url: llm.baseUrl },
    });
    expect((await service.api('GET', '/api/conversations/unknown123')).json).toEqual({
      detail: 'Conversation unknown123 not found',
    });
  });

  it('runs a conversation end to end: start, agent command, message, stop, delete', async () => {
    await service.api('POST', '/api/secrets', { body: { name: 'MY_TOKEN', value: SECRET } });
    llm.push(
      {
        toolCalls: [
          {
            id: 'call_1',
            name: 'execute_bash',
            args: { command: 'echo hello from $HOSTNAME', security_risk: 'LOW' },
          },
        ],
      },
      { text: 'I ran it.' },
      { text: 'Hi to you too.' },
    );
    const created = await service.api('POST', '/api/conversations', {
      body: { initial_user_msg: 'run a command' },
    });
    expect(created.status).toBe(200);
    const body = created.json as { conversation_id: string };
    expect(body).toEqual({
      status: 'ok',
      conversation_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      message: null,
      conversation_status: 'STARTING',
    });
    const id = body.conversation_id;

    const ready = await until(
      () => info(id),
      (c) => c.agent_state === 'awaiting_user_input',
      'the agent to answer',
    );
    expect(ready).toMatchObject({ status: 'RUNNING', runtime_status: 'STATUS$READY' });
    await until(
      () => info(id),
      (c) => c.title === 'Scripted title',
      'the generated title',
    );
    expect(Object.keys(ready).sort()).toEqual(
      [
        'agent',
        'agent_state',
        'changed_files',
        'network_policy',
        'conversation_id',
        'conversation_version',
        'created_at',
        'dockhand_state',
        'git_provider',
        'last_updated_at',
        'num_connections',
        'pr_number',
        'runtime_status',
        'sandbox_id',
        'sandbox_secrets',
        'selected_branch',
        'selected_repository',
        'session_api_key',
        'status',
        'sub_conversation_ids',
        'title',
        'trigger',
        'url',
      ].sort(),
    );
    const events = await eventsOf(id);
    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => i));
    expect(events.every((e) => /Z$/.test(e.timestamp) && e.source && typeof e.message === 'string')).toBe(
      true,
    );
    expect(events.find((e) => e.observation === 'run')?.content).toMatch(/^hello from /);

    expect(
      (await service.api('POST', `/api/conversations/${id}/message`, { body: { message: 'hi' } })).json,
    ).toEqual({ success: true });
    await until(
      () => eventsOf(id),
      (all) =>
        all.some((e) => e.action === 'message' && e.source === 'agent' && e.message === 'Hi to you too.'),
      'the reply',
    );

    const run = await service.api('POST', `/api/conversations/${id}/events`, {
      body: { action: 'run', args: { command: 'echo $MY_TOKEN' } },
    });
    expect(run.json).toEqual({ success: true });
    const echoed = await until(
      () => eventsOf(id),
      (all) => all.some((e) => e.source === 'user' && e.observation === 'run'),
      'the user command',
    );
    expect(echoed.find((e) => e.source === 'user' && e.observation === 'run')?.content).toMatch(
      /^<secret_hidden>/,
    );

    const confirm = await service.api('POST', `/api/conversations/${id}/events`, {
      body: { action: 'change_agent_state', args: { agent_state: 'user_confirmed' } },
    });
    expect(confirm.status).toBe(409);
    expect(confirm.json).toEqual({ detail: 'Agent is not awaiting confirmation' });
    const badAction = await service.api('POST', `/api/conversations/${id}/events`, {
      body: { action: 'browse', args: {} },
    });
    expect(badAction.json).toMatchObject({ detail: [{ type: 'enum', loc: ['body', 'action'] }] });

    const stopped = await service.api('POST', `/api/conversations/${id}/stop`);
    expect(stopped.json).toEqual({
      status: 'ok',
      conversation_id: id,
      message: 'Conversation stopped successfully',
      conversation_status: 'STOPPED',
    });
    const late = await service.api('POST', `/api/conversations/${id}/message`, {
      body: { message: 'hello?' },
    });
    expect(late.status).toBe(409);
    expect(late.json).toEqual({ detail: `Conversation ${id} is not running` });
    expect((await eventsOf(id)).length).toBeGreaterThan(5);

    expect(valuesFoundInFiles(service.dataDir, [SECRET])).toEqual([]);

    const sandboxId = (await info(id)).sandbox_id as string;
    expect((await service.api('DELETE', `/api/conversations/${id}`)).json).toBe(true);
    expect((await service.api('DELETE', `/api/conversations/${id}`)).status).toBe(404);
    expect(await containerState(sandboxId)).toBeNull();
  });

  it('streams events as SSE: resume after Last-Event-ID, replay_done, live events, end on delete', async () => {
    llm.push({ text: 'Hello there.' }, { text: 'Second answer.' });
    const created = await service.api('POST', '/api/conversations', { body: { initial_user_msg: 'hello' } });
    const id = (created.json as { conversation_id: string }).conversation_id;
    await until(
      () => info(id),
      (c) => c.agent_state === 'awaiting_user_input',
      'the first answer',
    );

    const stream = await openSseStream(service, id, { lastEventId: 5 });
    const { response, frames, ended } = stream;
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
    await until(
      async () => frames,
      (f) => f.some((x) => x.startsWith('event: replay_done')),
      'replay_done',
    );
    expect(frames[0]).toBe('retry: 3000');
    expect(frames[1]).toMatch(/^id: 6\nevent: oh_event\ndata: /);
    const replayDone = frames.find((f) => f.startsWith('event: replay_done')) as string;
    expect(replayDone).not.toContain('id:');

    await service.api('POST', `/api/conversations/${id}/message`, { body: { message: 'again' } });
    await until(
      async () => frames,
      (f) => f.some((x) => x.includes('Second answer.')),
      'the live reply',
    );
    const ids = stream.ids();
    expect(ids).toEqual(ids.map((_, i) => 6 + i));

    const wrong = await service.api('GET', `/api/conversations/${id}/events/stream`, {
      headers: { 'Last-Event-ID': 'x' },
    });
    expect(wrong.json).toMatchObject({ detail: [{ loc: ['header', 'last-event-id'] }] });
    expect((await service.api('GET', '/api/conversations/nope/events/stream')).status).toBe(404);

    await service.api('DELETE', `/api/conversations/${id}`);
    await ended;
    expect(frames.at(-1)).toBe('event: end\ndata: {"reason":"deleted"}');
  });

  it('speaks the OpenHands socket.io protocol: key required, replay after latest_event_id, user actions', async () => {
    llm.push({ text: 'Socket hello.' }, { text: 'Socket second.' });
    const created = await service.api('POST', '/api/conversations', { body: { initial_user_msg: 'hello' } });
    const id = (created.json as { conversation_id: string }).conversation_id;
    await until(
      () => info(id),
      (c) => c.agent_state === 'awaiting_user_input',
      'the first answer',
    );

    const refused = openEventSocket(service, id, -1, null).socket;
    const error = await new Promise<Error>((resolve) => refused.on('connect_error', resolve));
    expect(error.message).toBe('invalid_session_api_key');
    refused.close();

    const { socket, received, ids } = openEventSocket(service, id, 3);
    await until(
      async () => received,
      (r) => r.some((e) => e.message === 'Socket hello.'),
      'the replay',
    );
    expect(Math.min(...ids())).toBeGreaterThan(3);
    expect(received.every((e) => e.source !== 'environment')).toBe(true);

    socket.emit('oh_user_action', { action: 'message', args: { content: 'over the socket' } });
    await until(
      async () => received,
      (r) => r.some((e) => e.message === 'Socket second.'),
      'the live reply',
    );
    socket.close();
    await service.api('DELETE', `/api/conversations/${id}`);
  });

  it('starts a V1 app conversation whose task walks the stages in order to READY', async () => {
    llm.push({ text: 'V1 hello.' });
    const started = await service.api('POST', '/api/v1/app-conversations', {
      body: { initial_message: { content: [{ type: 'text', text: 'hello v1' }] }, title: 'My V1' },
    });
    expect(started.status).toBe(200);
    const task = started.json as { id: string; status: string };
    expect(task).toMatchObject({ status: 'WORKING', created_by_user_id: null, app_conversation_id: null });
    const seen = new Set<string>();
    const done = await until(
      async () => {
        const [current] = (await service.api('GET', `/api/v1/app-conversations/start-tasks?ids=${task.id}`))
          .json as {
          status: string;
          app_conversation_id: string | null;
        }[];
        if (current) seen.add(current.status);
        return current;
      },
      (t) => t?.status === 'READY' || t?.status === 'ERROR',
      'the start task',
    );
    expect(done?.status).toBe('READY');
    const order = [
      'WORKING',
      'WAITING_FOR_SANDBOX',
      'PREPARING_REPOSITORY',
      'RUNNING_SETUP_SCRIPT',
      'SETTING_UP_GIT_HOOKS',
      'SETTING_UP_SKILLS',
      'STARTING_CONVERSATION',
      'READY',
    ];
    expect([...seen].map((s) => order.indexOf(s))).toEqual(
      [...seen].map((s) => order.indexOf(s)).sort((a, b) => a - b),
    );
    const cid = done?.app_conversation_id as string;
    const batch = (await service.api('GET', `/api/v1/app-conversations?ids=${cid}&ids=nope`))
      .json as unknown[];
    expect(batch[1]).toBeNull();
    expect(batch[0]).toMatchObject({
      id: cid,
      title: 'My V1',
      // The sandbox's agent-server endpoint, on its own port.
      conversation_url: expect.stringMatching(
        new RegExp(`^http://127\\.0\\.0\\.1:\\d+/api/conversations/${cid}$`),
      ),
    });
    expect((await service.api('GET', '/api/v1/app-conversations/count?title__contains=My%20V1')).json).toBe(
      1,
    );
    const search = (await service.api('GET', '/api/v1/app-conversations/search?title__contains=V1&limit=1'))
      .json as { items: { id: string }[] };
    expect(search.items.map((i) => i.id)).toEqual([cid]);
    expect((await service.api('GET', '/api/v1/app-conversations/search?limit=101')).status).toBe(422);
    await until(
      () => info(cid),
      (c) => c.agent_state === 'awaiting_user_input',
      'the V1 answer',
    );
    const events = (
      await service.api('GET', `/api/v1/events/search?conversation_id__eq=${cid}&kind__eq=MessageEvent`)
    ).json as {
      items: { id: string; kind: string; v0: { message: string } }[];
    };
    expect(events.items.map((e) => e.v0.message)).toEqual(['hello v1', 'V1 hello.']);
    expect(events.items[0]?.id).toMatch(new RegExp(`^${cid}:\\d+$`));
    expect((await service.api('GET', '/api/v1/events/search?kind__eq=Nope')).json).toMatchObject({
      detail: [{ type: 'enum' }],
    });
    await service.api('DELETE', `/api/conversations/${cid}`);
  });

  it('renames with a trimmed title and refuses an empty one', async () => {
    const created = await service.api('POST', '/api/conversations', { body: { conversation_id: 'my-conv' } });
    expect(created.status).toBe(200);
    const again = await service.api('POST', '/api/conversations', { body: { conversation_id: 'my-conv' } });
    expect(again.status).toBe(409);
    expect(again.json).toEqual({ detail: 'Conversation my-conv already exists' });
    expect(
      (await service.api('PATCH', '/api/conversations/my-conv', { body: { title: '' } })).json,
    ).toMatchObject({
      detail: [{ type: 'string_too_short' }],
    });
    expect(
      (await service.api('PATCH', '/api/conversations/my-conv', { body: { title: '  New  ' } })).json,
    ).toBe(true);
    expect((await info('my-conv')).title).toBe('New');
    await until(
      () => info('my-conv'),
      (c) => c.agent_state === 'awaiting_user_input',
      'the conversation to start',
    );
    expect((await service.api('DELETE', '/api/conversations/my-conv')).json).toBe(true);
  });

  it('ends live streams when the session key is rotated, and refuses the old key', async () => {
    const own = await ownService();
    await useScriptedModel(own, llm);
    await own.api('POST', '/api/conversations', { body: { conversation_id: 'rotation' } });
    const { frames, ended } = await openSseStream(own, 'rotation', { keyIn: 'header' });
    await until(
      async () => frames.join(''),
      (text) => text.includes('replay_done'),
      'the replay',
    );
    const rotated = await own.api('POST', '/api/session-api-key/rotate');
    const next = (rotated.json as { session_api_key: string }).session_api_key;
    await ended;
    expect(frames.join('')).toContain('event: end\ndata: {"reason":"key_rotated"}');
    expect((await own.api('GET', '/api/conversations/rotation')).status).toBe(401);
    expect((await own.api('GET', '/api/conversations/rotation', { key: next })).status).toBe(200);
    await own.api('DELETE', '/api/conversations/rotation', { key: next });
  });
});
