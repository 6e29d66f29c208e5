import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MAX_QUEUED_BYTES, REPLAY_CHUNK } from '../../src/service/events/event-follower';
import { SecretMasker } from '../../src/service/events/secret-masker';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import { startTestService, type TestService } from '../support/service';
import { until } from '../support/until';

const skip = process.platform === 'linux' ? null : 'process sandboxes need Linux';
if (skip) console.warn(`Skipping the event follower tests over the three transports: ${skip}`);

const masker = new SecretMasker([]);
const BIG = 'x'.repeat(50_000);
const waitFor = (check: () => boolean, what: string) => until(async () => check(), Boolean, what);

/** The conversation every transport follows, and the events the tests wrote into its log. */
interface Target {
  service: TestService;
  conversationId: string;
  agentServer: { port: number; key: string };
  /** Ids of the events the tests appended, in order. */
  mine: Set<number>;
  /** Timestamps of those events: each later than every event before it. */
  timestamps: Map<number, string>;
}

/** One client of a transport. */
interface FollowClient {
  /** The ids of the tests' own events received so far, in order. */
  ids(): number[];
  pause(): void;
  resume(): void;
  /** Resolves once the connection has ended (either side). */
  ended: Promise<void>;
  close(): void;
}

interface OpenOptions {
  /** The client hangs up itself once it has received this many of the tests' events. */
  closeAfter?: number;
  /**
   * The client stops reading as soon as it has received this many of the tests' events, in the same turn (a
   * poll would let the replay run on meanwhile).
   */
  pauseAfter?: number;
}

/**
 * Collects event ids, pauses after `pauseAfter` and hangs up after `closeAfter` of the tests' own; `pause`
 * stops reading, `hangUp` ends the connection.
 */
function collector(target: Target, options: OpenOptions, pause: () => void, hangUp: () => void) {
  const ids: number[] = [];
  let open = true;
  return {
    ids: () => [...ids],
    take(id: number) {
      if (!open || !target.mine.has(id)) return;
      ids.push(id);
      if (ids.length === options.pauseAfter) pause();
      if (ids.length === options.closeAfter) this.close();
    },
    close() {
      open = false;
      hangUp();
    },
  };
}

/** SSE: `GET /api/conversations/{id}/events/stream?after=N`; each `oh_event` frame carries its id. */
async function openSse(target: Target, after: number, options: OpenOptions = {}): Promise<FollowClient> {
  const request = httpRequest({
    host: '127.0.0.1',
    port: target.service.port,
    path: `/api/conversations/${target.conversationId}/events/stream?after=${after}&session_api_key=${target.service.key}`,
  });
  const response = await new Promise<IncomingMessage>((resolve, reject) =>
    request.on('response', resolve).on('error', reject).end(),
  );
  const events = collector(
    target,
    options,
    () => response.pause(),
    () => request.destroy(),
  );
  let tail = '';
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => {
    const frames = (tail + chunk).split('\n\n');
    tail = frames.pop() ?? '';
    for (const frame of frames) {
      const id = /^id: (\d+)\nevent: oh_event\n/.exec(frame)?.[1];
      if (id) events.take(Number(id));
    }
  });
  const ended = new Promise<void>((resolve) => {
    response.on('close', resolve);
    response.on('error', () => resolve());
  });
  return {
    ids: events.ids,
    pause: () => response.pause(),
    resume: () => response.resume(),
    ended,
    close: () => events.close(),
  };
}

/** A websocket client whose reading can be paused like a stalled browser tab. */
function wsClient(
  url: string,
  onMessage: (ws: WebSocket, text: string) => void,
  events: (ws: WebSocket) => ReturnType<typeof collector>,
): FollowClient & { opened: Promise<void> } {
  const ws = new WebSocket(url);
  const collected = events(ws);
  ws.on('message', (data) => onMessage(ws, data.toString()));
  const ended = new Promise<void>((resolve) => ws.once('close', () => resolve()));
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    opened,
    ids: collected.ids,
    pause: () => ws.pause(),
    resume: () => ws.resume(),
    ended,
    close: () => collected.close(),
  };
}

/** socket.io spoken over a raw websocket (engine.io 4): `latest_event_id=N`, each `oh_event` with its id. */
async function openSocketIo(target: Target, after: number, options: OpenOptions = {}): Promise<FollowClient> {
  const query =
    `EIO=4&transport=websocket&conversation_id=${target.conversationId}` +
    `&session_api_key=${target.service.key}&latest_event_id=${after}`;
  let connected = false;
  let events: ReturnType<typeof collector> | undefined;
  const client = wsClient(
    `ws://127.0.0.1:${target.service.port}/socket.io/?${query}`,
    (ws, text) => {
      if (text.startsWith('0'))
        ws.send('40'); // engine.io open -> socket.io connect
      else if (text.startsWith('40')) connected = true;
      else if (text === '2')
        ws.send('3'); // ping -> pong
      else if (text.startsWith('42')) {
        const [, event] = JSON.parse(text.slice(2)) as [string, { id?: number }];
        if (typeof event.id === 'number') events?.take(event.id);
      }
    },
    (ws) =>
      (events = collector(
        target,
        options,
        () => ws.pause(),
        () => ws.terminate(),
      )),
  );
  await client.opened;
  await waitFor(() => connected, 'the socket.io connection');
  return client;
}

/**
 * The agent-server events websocket: SDK events whose ids end in the stored event's id. It has no `after`:
 * `resend_all` for everything, else `resend_mode=since` with the timestamp of the first event after N.
 */
async function openAgentServer(
  target: Target,
  after: number,
  options: OpenOptions = {},
): Promise<FollowClient> {
  const next = [...target.timestamps].find(([id]) => id > after);
  const resend =
    after === -1
      ? 'resend_all=true'
      : `resend_mode=since&after_timestamp=${encodeURIComponent(next?.[1] ?? '2999-01-01T00:00:00Z')}`;
  const url =
    `ws://127.0.0.1:${target.agentServer.port}/sockets/events/${target.conversationId}` +
    `?${resend}&session_api_key=${target.agentServer.key}`;
  let events: ReturnType<typeof collector> | undefined;
  const prefix = `${target.conversationId}:`;
  const client = wsClient(
    url,
    (_ws, text) => {
      const frame = JSON.parse(text) as { id: string };
      const id = frame.id.startsWith(prefix) ? Number(frame.id.slice(prefix.length)) : NaN;
      if (Number.isInteger(id)) events?.take(id);
    },
    (ws) =>
      (events = collector(
        target,
        options,
        () => ws.pause(),
        () => ws.terminate(),
      )),
  );
  await client.opened;
  return client;
}

const TRANSPORTS = [
  { transport: 'SSE', open: openSse },
  { transport: 'socket.io', open: openSocketIo },
  { transport: 'the agent-server websocket', open: openAgentServer },
];

// One V1 conversation in a process sandbox (which gives it an agent-server endpoint), followed over each
// transport; the tests write its events straight into the service's event log, as the agent would.
describe.skipIf(skip !== null)('following a conversation’s events', () => {
  let llm: ScriptedLlm;
  let target: Target;
  /** Of the target conversation only: where each read of stored events (`events`) started, and the live subscriptions. */
  const counts = { readsAfter: [] as number[], subscribers: 0 };
  const readsFrom = (start: number) => counts.readsAfter.filter((afterId) => afterId >= start).length;
  /** Called after each read that found events, with how many the read returned. */
  let onRead: ((found: number) => void) | null = null;
  let clock = Date.now() + 24 * 3600_000;

  const append = (count: number, content = ''): number[] =>
    Array.from({ length: count }, () => {
      const stored = target.service.service.events.append(
        target.conversationId,
        {
          source: 'agent',
          action: 'message',
          message: 'follow',
          args: { content: `follow${content}`, image_urls: null, wait_for_response: false },
          timestamp: new Date(clock++).toISOString(),
        },
        masker,
      );
      target.mine.add(stored.id);
      target.timestamps.set(stored.id, stored.timestamp);
      return stored.id;
    });
  const lastId = () => target.service.service.events.lastId(target.conversationId);

  beforeAll(async () => {
    llm = await startScriptedLlm([], {
      channels: [{ marker: '[dockhand:title]', step: { text: 'Follow' } }],
    });
    const service = await startTestService({ sandbox: { provider: 'process', idlePauseSeconds: 0 } });
    await service.api('POST', '/api/settings', {
      body: { llm_model: 'openai/gpt-4o', llm_api_key: 'sk-test', llm_base_url: llm.baseUrl },
    });
    const started = await service.api('POST', '/api/v1/app-conversations', { body: {} });
    const taskId = (started.json as { id: string }).id;
    const task = (await until(
      async () =>
        (
          (await service.api('GET', `/api/v1/app-conversations/start-tasks?ids=${taskId}`)).json as {
            status: string;
            app_conversation_id: string | null;
          }[]
        )[0],
      (t) => t?.status === 'READY' || t?.status === 'ERROR',
      'the start task',
    )) as { status: string; app_conversation_id: string };
    expect(task.status).toBe('READY');
    const conversationId = task.app_conversation_id;
    const [conversation] = (await service.api('GET', `/api/v1/app-conversations?ids=${conversationId}`))
      .json as { conversation_url: string; session_api_key: string }[];
    target = {
      service,
      conversationId,
      agentServer: {
        port: Number(new URL(conversation?.conversation_url ?? '').port),
        key: conversation?.session_api_key ?? '',
      },
      mine: new Set(),
      timestamps: new Map(),
    };

    const log = service.service.events;
    const events = log.events.bind(log);
    log.events = (conversation, afterId, limit) => {
      const rows = events(conversation, afterId, limit);
      if (conversation === conversationId) {
        counts.readsAfter.push(afterId);
        if (rows.length > 0) onRead?.(rows.length);
      }
      return rows;
    };
    const subscribe = log.subscribe.bind(log);
    log.subscribe = (conversation, listener) => {
      const unsubscribe = subscribe(conversation, listener);
      if (conversation !== conversationId) return unsubscribe;
      counts.subscribers++;
      let subscribed = true;
      return () => {
        if (subscribed) counts.subscribers--;
        subscribed = false;
        unsubscribe();
      };
    };
  });

  afterAll(async () => {
    await target?.service.close();
    await llm?.close();
  });

  describe.each(TRANSPORTS)('over $transport', ({ open }) => {
    it('resumes after N with exactly N+1 on, after a client hung up in the middle of the replay', async () => {
      const start = lastId();
      const appended = append(3 * REPLAY_CHUNK, 'y'.repeat(10_000));
      const first = await open(target, start, { closeAfter: 5 });
      await first.ended;
      const seen = first.ids();
      expect(seen).toEqual(appended.slice(0, 5));

      const cut = seen.at(-1) as number;
      const second = await open(target, cut);
      await waitFor(() => second.ids().length >= appended.length - 5, 'the rest of the replay');
      const sentinel = append(1);
      await waitFor(() => second.ids().includes(sentinel[0] as number), 'a live event');
      expect(second.ids()).toEqual([...appended.slice(5), ...sentinel]);
      second.close();
    });

    it('delivers events appended during the replay once, in order, with no gap', async () => {
      const start = lastId();
      const appended = append(2 * REPLAY_CHUNK + 10);
      // Events appended while the replay is between its reads: after its first two reads.
      let appends = 0;
      onRead = () => {
        if (appends++ < 2) appended.push(...append(7));
      };
      const client = await open(target, start);
      await waitFor(() => client.ids().length >= appended.length, 'the replay');
      onRead = null;
      expect(appends).toBeGreaterThanOrEqual(2);
      appended.push(...append(3));
      const sentinel = append(1);
      await waitFor(() => client.ids().includes(sentinel[0] as number), 'the live events');
      expect(client.ids()).toEqual([...appended, ...sentinel]);
      client.close();
    });

    it('waits for a slow client during the replay, and cuts it off live when more than 1 MiB behind', async () => {
      const start = lastId();
      const total = 5 * REPLAY_CHUNK; // 50 MB: far more than the loopback buffers hold
      const appended = append(total, BIG);
      const client = await open(target, start, { pauseAfter: 1 });
      await waitFor(() => client.ids().length > 0, 'the first replayed event');
      // Until the replay stops reading: at once if it waits for the client, after reading everything if not.
      let seen = -1;
      let unchanged = 0;
      await waitFor(() => {
        unchanged = seen === counts.readsAfter.length ? unchanged + 1 : 0;
        seen = counts.readsAfter.length;
        return unchanged === 10; // two seconds without a read
      }, 'the replay to stop reading');
      expect(readsFrom(start)).toBeLessThan(total / REPLAY_CHUNK);
      client.resume();
      await waitFor(() => client.ids().length === total, 'the whole replay');
      expect(client.ids()).toEqual(appended);

      // Live now: a client that stops reading while 20 MB are appended is cut off, its follower stopped.
      const sentinel = append(1);
      await waitFor(() => client.ids().length === total + 1, 'a live event');
      const following = counts.subscribers;
      client.pause();
      const live = 400;
      expect(live * BIG.length).toBeGreaterThan(10 * MAX_QUEUED_BYTES);
      append(live, BIG);
      expect(counts.subscribers).toBe(following - 1);
      client.resume();
      await client.ended;
      expect(client.ids().length).toBeLessThan(total + 1 + live);
      expect(client.ids().slice(0, total + 1)).toEqual([...appended, ...sentinel]);
    });
  });

  it('closes an agent-server socket that sends a frame over 4 MiB with 1009, and the service lives on', async () => {
    const url =
      `ws://127.0.0.1:${target.agentServer.port}/sockets/events/${target.conversationId}` +
      `?session_api_key=${target.agentServer.key}`;
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.send('x'.repeat(4 * 1024 * 1024 + 1));
    expect(await closed).toBe(1009);
    expect((await target.service.api('GET', `/api/conversations/${target.conversationId}`)).status).toBe(200);
  });
});
