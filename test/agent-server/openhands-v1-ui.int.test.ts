import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import type { TestService } from '../support/service';
import { until } from '../support/until';
import {
  closeSandboxService,
  dockerSkipReason,
  execIn,
  startSandboxService,
  useScriptedModel,
} from '../sandbox/support';
import { type EventSocket, type Frame, storedFrames } from './agent-server-client';
import { OpenHandsUiClient } from './openhands-ui-client';
import { httpBaseUrl, type PageLocation, webSocketUrl } from './openhands-ui-urls';
import { writeCallTranscript } from './transcript';

const dockerSkip = await dockerSkipReason();
if (dockerSkip) console.warn(`Skipping the OpenHands V1 UI compatibility test: ${dockerSkip}`);
/** Set to a file path to write the transcript of the calls (docs/openhands-v1-ui-transcript.md). */
const TRANSCRIPT = process.env.DOCKHAND_V1_UI_TRANSCRIPT;

/** The page the UI is served from: its own loopback origin (the port of the upstream UI's dev server). */
const PAGE: PageLocation = { host: '127.0.0.1:3001', protocol: 'http:' };
const PAGE_ORIGIN = `${PAGE.protocol}//${PAGE.host}`;

interface StartTask {
  id: string;
  status: string;
  app_conversation_id: string | null;
}
interface V0Info {
  url: string | null;
  session_api_key: string | null;
  conversation_version: string;
  status: string;
}

function message(text: string) {
  return { role: 'user', content: [{ type: 'text', text }] };
}

// The OpenHands web UI (0.62, V1 mode) on a page of its own: it starts a V1 conversation, reads `url` from the
// V0 conversation info, and drives the conversation on the agent server that URL names, as a browser would.
// The tests are the steps of one conversation, in the order the UI takes them (and the transcript records
// them): never shuffled.
const STEPS = { shuffle: false };
describe.skipIf(dockerSkip !== null)('the OpenHands V1 web UI on an allowed origin of its own', STEPS, () => {
  let llm: ScriptedLlm;
  let service: TestService;
  let ui: OpenHandsUiClient;
  let socket: EventSocket;
  let conversationId: string;
  let taskId: string;
  let sandboxId: string;
  let base: string;
  let key: string;

  const agent = (method: string, path: string, body?: Parameters<OpenHandsUiClient['agentServer']>[4]) =>
    ui.agentServer(base, key, method, path, body);
  const conversation = (suffix = '') => `/api/conversations/${conversationId}${suffix}`;

  beforeAll(async () => {
    llm = await startScriptedLlm([], {
      channels: [{ marker: '[dockhand:title]', step: { text: 'Hello file' } }],
    });
    service = await startSandboxService({ allowedOrigins: [PAGE_ORIGIN] });
    await useScriptedModel(service, llm, { confirmation_mode: true, security_analyzer: '' });
    ui = new OpenHandsUiClient(PAGE_ORIGIN, service.port, service.key);
  });

  afterAll(async () => {
    await socket?.close();
    await closeSandboxService(service);
    await llm?.close();
  });

  it('starts a V1 conversation and finds its agent server through the V0 conversation info', async () => {
    const started = await ui.service('POST', '/api/v1/app-conversations', {
      json: { parent_conversation_id: null, agent_type: 'default' },
    });
    expect(started.status).toBe(200);
    taskId = (started.json as StartTask).id;
    const task = await until(
      async () =>
        (
          (await ui.service('GET', `/api/v1/app-conversations/start-tasks?ids=${taskId}`)).json as StartTask[]
        )[0],
      (t) => t?.status === 'READY' || t?.status === 'ERROR',
      'the start task',
    );
    expect(task?.status).toBe('READY');
    conversationId = task?.app_conversation_id as string;

    const info = (await ui.service('GET', conversation())).json as V0Info;
    const [app] = (await ui.service('GET', `/api/v1/app-conversations?ids=${conversationId}`)).json as {
      conversation_url: string;
      session_api_key: string;
      sandbox_id: string;
    }[];
    sandboxId = app?.sandbox_id as string;
    expect(info).toMatchObject({ conversation_version: 'V1', status: 'RUNNING' });
    // The agent server's absolute conversation_url, as OpenHands answers, not a path on the page's own host.
    expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/conversations\/[0-9a-f]{32}$/);
    expect(info.url).toBe(app?.conversation_url);
    expect(info.session_api_key).toBe(app?.session_api_key);
    const listed = (await ui.service('GET', '/api/conversations?limit=20')).json as {
      results: (V0Info & { conversation_id: string })[];
    };
    expect(listed.results.find((c) => c.conversation_id === conversationId)?.url).toBe(info.url);

    base = httpBaseUrl(info.url, PAGE);
    key = info.session_api_key as string;
    const agentServerHost = new URL(info.url as string).host;
    expect(new URL(base).host).toBe(agentServerHost);
    expect(agentServerHost).not.toBe(PAGE.host);
    expect(agentServerHost).not.toBe(`127.0.0.1:${service.port}`);

    socket = await ui.openEvents(webSocketUrl(conversationId, info.url, PAGE), key);
    await socket.next(
      (f) => f.kind === 'ConversationStateUpdateEvent' && f.key === 'full_state',
      'the state',
    );
    // What the UI asks once the socket is open: how many events the history holds, and the runtime's view.
    expect((await agent('GET', conversation('/events/count'))).status).toBe(200);
    expect((await agent('GET', conversation())).json).toMatchObject({ id: conversationId });
    expect((await agent('GET', '/api/vscode/url')).json).toEqual({ url: null });
  });

  it('sends a message over the socket and runs the action the user accepts', async () => {
    llm.push(
      {
        text: 'I will write the file.',
        toolCalls: [
          { name: 'execute_bash', args: { command: 'echo hello > hello.txt', security_risk: 'LOW' } },
        ],
      },
      { text: 'hello.txt is written.' },
    );
    const from = socket.frames.length;
    ui.say(socket, 'Write hello.txt');
    await socket.status('waiting_for_confirmation', from);
    const accepted = await agent('POST', conversation('/events/respond_to_confirmation'), {
      json: { accept: true },
    });
    expect(accepted.json).toEqual({ success: true });
    const observation = await socket.next((f) => f.kind === 'ObservationEvent', 'the observation', from);
    expect(observation).toMatchObject({ observation: { exit_code: 0 } });
    await socket.status('idle', from);
  });

  it('posts a message over REST and rejects the action', async () => {
    llm.push({
      toolCalls: [{ name: 'execute_bash', args: { command: 'rm hello.txt', security_risk: 'LOW' } }],
    });
    const from = socket.frames.length;
    const sent = await agent('POST', conversation('/events'), {
      json: { ...message('Now delete it'), run: true },
    });
    expect(sent.json).toEqual({ success: true });
    await socket.status('waiting_for_confirmation', from);
    const rejected = await agent('POST', conversation('/events/respond_to_confirmation'), {
      json: { accept: false },
    });
    expect(rejected.json).toEqual({ success: true });
    await socket.next((f) => f.kind === 'UserRejectObservation', 'the rejection', from);
    await socket.status('idle', from);
  });

  it('pauses and resumes', async () => {
    llm.push({ text: 'Back at work, nothing left to do.' });
    const from = socket.frames.length;
    expect((await agent('POST', conversation('/pause'), { json: {} })).json).toEqual({ success: true });
    await socket.status('paused', from);
    expect((await agent('POST', conversation('/run'), { json: {} })).json).toEqual({ success: true });
    await socket.next((f) => f.kind === 'MessageEvent' && f.source === 'agent', 'the answer', from);
    await socket.status('idle', from);
  });

  it('shows the git changes and a diff, as the changes tab asks for them', async () => {
    const changes = await agent(
      'GET',
      `/api/git/changes?${new URLSearchParams({ path: '/workspace/project' })}`,
    );
    expect(changes.json).toEqual([{ status: 'ADDED', path: 'hello.txt' }]);
    const diff = await agent(
      'GET',
      `/api/git/diff?${new URLSearchParams({ path: '/workspace/project/hello.txt' })}`,
    );
    expect(diff.json).toEqual({ modified: 'hello\n', original: '' });
  });

  it('uploads a file where the UI puts it, /workspace/<file name>', async () => {
    const form = new FormData();
    form.append('file', new Blob(['uploaded bytes']), 'note.txt');
    const uploaded = await agent(
      'POST',
      `/api/file/upload?${new URLSearchParams({ path: '/workspace/note.txt' })}`,
      {
        multipart: form,
      },
    );
    expect([uploaded.status, uploaded.json]).toEqual([200, { success: true }]);
    expect(await execIn(sandboxId, 'cat /workspace/note.txt')).toMatchObject({
      exitCode: 0,
      stdout: 'uploaded bytes',
    });
    // Still inside the sandbox's volume only.
    const outside = await agent(
      'POST',
      `/api/file/upload?${new URLSearchParams({ path: '/etc/note.txt' })}`,
      {
        multipart: form,
      },
    );
    expect(outside.status).toBe(422);
  });

  it('finds the events the socket sent by search, then finishes the conversation', async () => {
    const page = (await agent('GET', conversation('/events/search?limit=100'))).json as { items: Frame[] };
    expect(page.items.map((f) => f.id)).toEqual(storedFrames(socket.frames).map((f) => f.id));

    llm.push({ toolCalls: [{ name: 'finish', args: { message: 'All done.' } }] });
    const from = socket.frames.length;
    ui.say(socket, 'That is all, finish.');
    const finish = await socket.next((f) => f.kind === 'ActionEvent', 'the finish', from);
    expect(finish).toMatchObject({ action: { kind: 'FinishAction', message: 'All done.' } });
    await socket.status('finished', from);

    if (TRANSCRIPT) {
      writeCallTranscript(
        TRANSCRIPT,
        'OpenHands V1 web UI transcript',
        'The calls of the OpenHands web UI (0.62, V1 mode) on a page of its own origin (listed in ' +
          '`DOCKHAND_ALLOWED_ORIGINS`), as `test/agent-server/openhands-v1-ui.int.test.ts` makes them ' +
          '(`DOCKHAND_V1_UI_TRANSCRIPT=<file>` writes it): `service` is Dockhand, `agent-server` the ' +
          "conversation's sandbox endpoint its `url` names. Each call with the key header follows the browser's " +
          'CORS preflight (`OPTIONS`); `WS` is the events websocket (its `session_api_key` query not shown).',
        ui.calls,
        { conversation_id: conversationId, task_id: taskId },
      );
    }
  });

  it('gives no url and no key while the sandbox is paused, as OpenHands does', async () => {
    expect((await service.api('POST', `/api/v1/sandboxes/${sandboxId}/pause`)).status).toBe(200);
    expect((await socket.whenClosed()).code).toBe(1001);
    const info = (await service.api('GET', conversation())).json as V0Info;
    expect(info).toMatchObject({ url: null, session_api_key: null, status: 'STOPPED' });
  });
});
