import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import { rawRequest, type TestResponse, type TestService } from '../support/service';
import { until } from '../support/until';
import {
  closeSandboxService,
  dockerSkipReason,
  startSandboxService,
  untilConversation,
  useScriptedModel,
} from '../sandbox/support';
import {
  AgentServerClient,
  type EventSocket,
  type Frame,
  HandshakeRefused,
  storedFrames,
} from './agent-server-client';
import { writeTranscript } from './transcript';

const dockerSkip = await dockerSkipReason();
if (dockerSkip) console.warn(`Skipping the agent-server protocol test: ${dockerSkip}`);
/** Set to a file path to write the transcript of the conversation's frames (docs/agent-server-protocol-transcript.md). */
const TRANSCRIPT = process.env.DOCKHAND_AGENT_SERVER_TRANSCRIPT;

interface StartTask {
  status: string;
  app_conversation_id: string | null;
  sandbox_id: string | null;
}
interface AppConversation {
  conversation_url: string | null;
  session_api_key: string | null;
  sandbox_id: string;
}
interface ExposedUrl {
  name: string;
  url: string;
  port: number;
}

function text(value: string) {
  return { role: 'user', content: [{ type: 'text', text: value }] };
}

async function refusal(open: Promise<EventSocket>): Promise<number> {
  const error = await open.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HandshakeRefused);
  return (error as HandshakeRefused).status;
}

// An OpenHands V1 client (websocket + REST) drives a conversation through a sandbox's agent-server endpoint,
// with the scripted model and a real Docker sandbox.
// The tests are the steps of one conversation, in the order a client takes them (and the transcript records
// them): never shuffled.
describe.skipIf(dockerSkip !== null)('the agent-server endpoint of a V1 sandbox', { shuffle: false }, () => {
  let llm: ScriptedLlm;
  let service: TestService;
  let client: AgentServerClient;
  let socket: EventSocket;
  let sandboxId: string;
  let conversationId: string;

  const appConversation = async () =>
    (
      (await service.api('GET', `/api/v1/app-conversations?ids=${conversationId}`)).json as AppConversation[]
    )[0] as AppConversation;
  const agentServerUrls = async () =>
    (
      (await service.api('GET', `/api/v1/sandboxes/${sandboxId}`)).json as {
        exposed_urls: ExposedUrl[] | null;
      }
    ).exposed_urls?.filter((url) => url.name === 'AGENT_SERVER') ?? [];

  beforeAll(async () => {
    llm = await startScriptedLlm([], {
      channels: [{ marker: '[dockhand:title]', step: { text: 'Hello file' } }],
    });
    service = await startSandboxService();
    await useScriptedModel(service, llm, { confirmation_mode: true, security_analyzer: '' });
    const started = await service.api('POST', '/api/v1/app-conversations', { body: {} });
    const taskId = (started.json as { id: string }).id;
    const task = await until(
      async () =>
        (
          (await service.api('GET', `/api/v1/app-conversations/start-tasks?ids=${taskId}`))
            .json as StartTask[]
        )[0],
      (t) => t?.status === 'READY' || t?.status === 'ERROR',
      'the start task',
    );
    expect(task?.status).toBe('READY');
    conversationId = task?.app_conversation_id as string;
    sandboxId = task?.sandbox_id as string;
  });

  afterAll(async () => {
    await socket?.close();
    await closeSandboxService(service);
    await llm?.close();
  });

  it('reports its own loopback port as conversation_url and the AGENT_SERVER exposed URL', async () => {
    const conversation = await until(
      appConversation,
      (c) => c.conversation_url !== null,
      'the conversation URL',
    );
    const [exposed] = await agentServerUrls();
    expect(exposed?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(exposed?.port).not.toBe(service.port);
    expect(conversation.conversation_url).toBe(`${exposed?.url}/api/conversations/${conversationId}`);
    expect(conversation.session_api_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    client = new AgentServerClient(
      conversation.conversation_url as string,
      conversationId,
      conversation.session_api_key as string,
    );
    expect((await client.rest('GET', '/api/vscode/url', undefined, false)).json).toEqual({ url: null });
    // The working directory is the sandbox workspace's own.
    expect(
      (await client.rest('GET', `/api/conversations/${conversationId}`, undefined, false)).json,
    ).toMatchObject({
      workspace: { kind: 'LocalWorkspace', working_dir: '/workspace/project' },
    });
    // Both OpenAPI documents describe it: the service's V1 section, and the endpoint's own document.
    const serviceDocument = (await service.api('GET', '/api/openapi.json', { key: null })).json as {
      tags: { name: string; description: string }[];
    };
    expect(serviceDocument.tags.find((tag) => tag.name === 'v1')?.description).toContain('AGENT_SERVER');
    const own = (await rawRequest(client.port, 'GET', '/openapi.json')).json as {
      paths: Record<string, object>;
    };
    expect(Object.keys(own.paths)).toEqual(
      expect.arrayContaining([
        '/sockets/events/{id}',
        '/api/conversations/{id}/events/respond_to_confirmation',
        '/api/git/changes/{path}',
      ]),
    );
  });

  it('refuses a missing or wrong key, the session key, a foreign Origin or Host, and other conversations', async () => {
    const count = `/api/conversations/${conversationId}/events/count`;
    const get = (options: { key?: string | null; headers?: Record<string, string> }) =>
      rawRequest(client.port, 'GET', count, options);
    expect((await get({ key: null })).status).toBe(401);
    expect((await get({ key: 'not-the-sandbox-key' })).json).toEqual({ detail: 'Unauthorized' });
    expect((await get({ key: service.key })).status).toBe(401);
    const foreignHost = await get({ key: client.key, headers: { Host: 'evil.example' } });
    expect([foreignHost.status, foreignHost.json]).toEqual([403, { detail: 'Invalid host header' }]);
    const foreignOrigin = await get({ key: client.key, headers: { Origin: 'http://evil.example' } });
    expect([foreignOrigin.status, foreignOrigin.json]).toEqual([403, { detail: 'Origin not allowed' }]);
    expect((await get({ key: client.key })).status).toBe(200);
    expect(
      (
        await rawRequest(client.port, 'GET', '/api/conversations/0123456789abcdef0123456789abcdef', {
          key: client.key,
        })
      ).status,
    ).toBe(404);

    expect(await refusal(client.connect({ query: 'resend_all=true' }))).toBe(401);
    expect(await refusal(client.connect({ query: 'resend_all=true&session_api_key=wrong' }))).toBe(401);
    expect(await refusal(client.connect({ query: `resend_all=true&session_api_key=${service.key}` }))).toBe(
      401,
    );
    expect(await refusal(client.connect({ headers: { Origin: 'http://evil.example' } }))).toBe(403);
    // Another local page (say an app a sandbox serves on a published port) is not one of Dockhand's own.
    expect(await refusal(client.connect({ headers: { Origin: 'http://127.0.0.1:9' } }))).toBe(403);
    // The page Dockhand serves is a local origin: the OpenHands UI on it connects.
    const local = await client.connect({ headers: { Origin: `http://127.0.0.1:${service.port}` } });
    await local.close();
  });

  it('runs message, action, observation and finish, with the confirmation accepted', async () => {
    socket = await client.connect({ record: true });
    await socket.next(
      (f) => f.kind === 'ConversationStateUpdateEvent' && f.key === 'full_state',
      'the state',
    );
    llm.push(
      {
        text: 'I will write the file.',
        toolCalls: [
          {
            name: 'execute_bash',
            args: { command: 'echo hello > hello.txt && cat hello.txt', security_risk: 'LOW' },
          },
        ],
      },
      { toolCalls: [{ name: 'finish', args: { message: 'hello.txt is written.' } }] },
    );
    const from = socket.frames.length;
    socket.send(text('Write hello.txt and show it'));
    await socket.status('waiting_for_confirmation', from);
    const confirmed = await client.rest(
      'POST',
      `/api/conversations/${conversationId}/events/respond_to_confirmation`,
      { accept: true },
    );
    expect(confirmed.json).toEqual({ success: true });
    await socket.status('finished', from);

    const turn = storedFrames(socket.frames.slice(from)).filter(
      (f) => f.kind !== 'ConversationStateUpdateEvent',
    );
    expect(turn.map((f) => f.kind)).toEqual([
      'MessageEvent',
      'ActionEvent',
      'ObservationEvent',
      'ActionEvent',
    ]);
    const [message, action, observation, finish] = turn as [Frame, Frame, Frame, Frame];
    expect(message).toMatchObject({
      source: 'user',
      llm_message: { role: 'user', content: [{ type: 'text', text: 'Write hello.txt and show it' }] },
    });
    expect(action).toMatchObject({
      source: 'agent',
      tool_name: 'execute_bash',
      thought: [{ type: 'text', text: 'I will write the file.' }],
      action: { kind: 'ExecuteBashAction', command: 'echo hello > hello.txt && cat hello.txt' },
      // The rules analyzer rates a file write higher than the model did.
      security_risk: 'MEDIUM',
    });
    expect(observation).toMatchObject({
      source: 'environment',
      action_id: action.id,
      tool_call_id: action.tool_call_id,
      observation: { kind: 'ExecuteBashObservation', exit_code: 0, is_error: false },
    });
    expect(JSON.stringify(observation.observation)).toContain('hello');
    expect(finish).toMatchObject({ action: { kind: 'FinishAction', message: 'hello.txt is written.' } });
  });

  it('records a rejected confirmation as a UserRejectObservation', async () => {
    llm.push({
      toolCalls: [{ name: 'execute_bash', args: { command: 'rm hello.txt', security_risk: 'LOW' } }],
    });
    const from = socket.frames.length;
    const sent = await client.rest('POST', `/api/conversations/${conversationId}/events`, {
      ...text('Now delete it'),
      run: true,
    });
    expect(sent.json).toEqual({ success: true });
    await socket.status('waiting_for_confirmation', from);
    await client.rest('POST', `/api/conversations/${conversationId}/events/respond_to_confirmation`, {
      accept: false,
      reason: 'Keep the file',
    });
    const rejected = await socket.next((f) => f.kind === 'UserRejectObservation', 'the rejection', from);
    const action = socket.frames.slice(from).find((f) => f.kind === 'ActionEvent') as Frame;
    expect(rejected).toMatchObject({
      rejection_reason: 'Keep the file',
      action_id: action.id,
      tool_call_id: action.tool_call_id,
    });
    await socket.status('idle', from);
    // Nothing ran: the file is still there, as the download shows.
    const download = await client.rest('GET', `/api/file/download?path=/workspace/project/hello.txt`);
    expect([download.status, download.text]).toEqual([200, 'hello\n']);
    const twice = await client.rest(
      'POST',
      `/api/conversations/${conversationId}/events/respond_to_confirmation`,
      { accept: true },
    );
    expect(twice.status).toBe(409);
  });

  it('pauses, then runs again', async () => {
    llm.push({ text: 'Back at work, nothing left to do.' });
    const from = socket.frames.length;
    expect((await client.rest('POST', `/api/conversations/${conversationId}/pause`)).json).toEqual({
      success: true,
    });
    await socket.next((f) => f.kind === 'PauseEvent', 'the pause', from);
    await socket.status('paused', from);
    expect((await client.rest('GET', `/api/conversations/${conversationId}`)).json).toMatchObject({
      execution_status: 'paused',
    });
    expect((await client.rest('POST', `/api/conversations/${conversationId}/run`)).json).toEqual({
      success: true,
    });
    const answer = await socket.next(
      (f) => f.kind === 'MessageEvent' && f.source === 'agent',
      'the answer',
      from,
    );
    expect(answer).toMatchObject({
      llm_message: {
        role: 'assistant',
        content: [{ type: 'text', text: 'Back at work, nothing left to do.' }],
      },
    });
    await socket.status('idle', from);
  });

  it('answers bad input with 422 over REST and a ServerErrorEvent over the socket', async () => {
    const events = `/api/conversations/${conversationId}/events`;
    const assistant = await client.rest(
      'POST',
      events,
      { role: 'assistant', content: [{ type: 'text', text: 'x' }] },
      false,
    );
    expect(assistant.status).toBe(422);
    expect((assistant.json as { detail: { loc: unknown[] }[] }).detail[0]?.loc).toEqual(['body', 'role']);
    const noText = await client.rest('POST', events, { role: 'user', content: [] }, false);
    expect(noText.status).toBe(422);
    const confirm = await client.rest(
      'POST',
      `${events}/respond_to_confirmation`,
      { accept: 'maybe' },
      false,
    );
    expect(confirm.status).toBe(422);
    const from = socket.frames.length;
    socket.send({ role: 'user', content: 'not a list' });
    const error = await socket.next((f) => f.kind === 'ServerErrorEvent', 'the error', from);
    expect(error).toMatchObject({ code: 'ValidationError', source: 'environment' });
    const traversal = await client.rest(
      'GET',
      '/api/file/download?path=/workspace/project/../../etc/passwd',
      undefined,
      false,
    );
    expect(traversal.status).toBe(422);
  });

  it('answers search, count and get with what the socket sent, and a reconnect resends each event once', async () => {
    const stored = storedFrames(socket.frames).filter((f) => f.kind !== 'ServerErrorEvent');
    const ids = stored.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    const count = (await client.rest('GET', `/api/conversations/${conversationId}/events/count`))
      .json as number;
    expect(count).toBe(stored.length);
    const page = (await client.rest('GET', `/api/conversations/${conversationId}/events/search?limit=100`))
      .json as { items: Frame[] };
    expect(page.items.map((f) => f.id)).toEqual(ids);
    const actions = (
      await client.rest('GET', `/api/conversations/${conversationId}/events/count?kind=ActionEvent`)
    ).json;
    expect(actions).toBe(3);
    const one = await client.rest(
      'GET',
      `/api/conversations/${conversationId}/events/${encodeURIComponent(ids[1] as string)}`,
    );
    expect(one.json).toEqual(stored[1]);
    expect(
      (await client.rest('GET', `/api/conversations/${conversationId}/events/search?kind=Nope`)).status,
    ).toBe(422);

    await socket.close();
    const again = await client.connect();
    const replayed = await until(
      async () => storedFrames(again.frames),
      (frames) => frames.length >= count,
      'the resent events',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(storedFrames(again.frames).map((f) => f.id)).toEqual(ids);
    expect(replayed.length).toBe(count);
    socket = again;
  });

  it('serves git changes and diffs, file upload and download inside the workspace only', async () => {
    const changes = await client.rest('GET', `/api/git/changes?path=/workspace/project`);
    expect(changes.json).toEqual([{ status: 'ADDED', path: 'hello.txt' }]);
    const diff = await client.rest('GET', `/api/git/diff/workspace/project/hello.txt`);
    expect(diff.json).toEqual({ modified: 'hello\n', original: '' });
    const form = new FormData();
    form.append('file', new Blob(['uploaded bytes']), 'note.txt');
    const upload = await fetch(`${client.base.origin}/api/file/upload/workspace/project/notes/note.txt`, {
      method: 'POST',
      headers: { 'X-Session-API-Key': client.key },
      body: form,
    });
    expect([upload.status, await upload.json()]).toEqual([200, { success: true }]);
    const back = await client.rest('GET', `/api/file/download/workspace/project/notes/note.txt`);
    expect(back.text).toBe('uploaded bytes');
    const outside: TestResponse = await client.rest('GET', `/api/file/download?path=/etc/passwd`);
    expect(outside.status).toBe(422);
  });

  it('closes when the sandbox pauses and opens again, on the same port, when it resumes', async () => {
    const [before] = await agentServerUrls();
    expect((await service.api('POST', `/api/v1/sandboxes/${sandboxId}/pause`)).status).toBe(200);
    expect((await socket.whenClosed()).code).toBe(1001);
    expect(await agentServerUrls()).toEqual([]);
    expect((await appConversation()).conversation_url).toBeNull();
    await expect(rawRequest(client.port, 'GET', '/api/vscode/url', { key: client.key })).rejects.toThrow(
      /ECONNREFUSED/,
    );

    expect((await service.api('POST', `/api/v1/sandboxes/${sandboxId}/resume`)).status).toBe(200);
    const [after] = await until(agentServerUrls, (urls) => urls.length === 1, 'the endpoint to reopen');
    expect(after).toEqual(before);
    socket = await client.connect();
    await socket.next((f) => f.kind === 'MessageEvent', 'the resent events');
    // The socket started the conversation again (the pause stopped it); let that finish before going on.
    await untilConversation(
      service,
      conversationId,
      (c) => c.status !== 'STARTING' && c.runtime_status === 'STATUS$READY',
      'the conversation to start again',
    );

    if (TRANSCRIPT) {
      writeTranscript(
        TRANSCRIPT,
        'Agent-server protocol transcript',
        "Frames of one conversation as `test/agent-server/protocol.int.test.ts` drove it through its sandbox's " +
          'agent-server endpoint (`DOCKHAND_AGENT_SERVER_TRANSCRIPT=<file>` writes it): `⇐ recv` frames the ' +
          'events websocket sent, `⇒ send` frames the client sent over it, and the REST calls with their ' +
          'status. Long strings (the system prompt, tool schemas) are shortened.',
        client.transcript,
      );
    }
  });

  it('closes its sockets when the session key rotates, after which the old sandbox key opens nothing', async () => {
    expect((await service.api('POST', '/api/session-api-key/rotate')).status).toBe(200);
    expect((await socket.whenClosed()).code).toBe(1008);
    const old = await rawRequest(client.port, 'GET', `/api/conversations/${conversationId}`, {
      key: client.key,
    });
    expect(old.status).toBe(401);
  });
});
