import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server as SocketServer } from 'socket.io';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ConversationService } from '../../src/service/conversations/conversation-service';
import { EventLog } from '../../src/service/events/event-log';
import { SecretMasker } from '../../src/service/events/secret-masker';
import { attachSocketServer } from '../../src/service/routes/v0/socket-server';
import { MAX_QUEUED_BYTES } from '../../src/service/events/event-follower';
import { type Db, openDatabase } from '../../src/service/storage/database';
import { tempDataDir } from '../support/service';
import { until } from '../support/until';
import { KeyGate } from '../../src/service/http/key-gate';

const waitFor = (check: () => boolean, what: string) => until(async () => check(), Boolean, what);

const KEY = 'slow-client-test-key-0123456789';
const CONVERSATION = 'slow';
const OUTPUT = 'x'.repeat(50_000);
const masker = new SecretMasker([]);

/**
 * The socket.io server over a real event log on a real SQLite file, on loopback. Only the conversation
 * service is reduced to what the socket uses; it records whether the socket is still subscribed.
 */
async function startSockets(db: Db) {
  const events = new EventLog(db);
  let subscribed = 0;
  const conversations = {
    require: () => ({ id: CONVERSATION }),
    onStatus: () => {
      subscribed++;
      return () => subscribed--;
    },
    onEnd: () => () => undefined,
    start: async () => undefined,
    userAction: async () => undefined,
  } as unknown as ConversationService;
  const http: HttpServer = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  const reads = { count: 0 };
  const read = events.events.bind(events);
  events.events = (...args) => {
    reads.count++;
    return read(...args);
  };
  const io: SocketServer = attachSocketServer(http, {
    conversations,
    events,
    keys: new KeyGate({ accepts: (key) => key === KEY }),
    origins: { ports: () => [port], extra: [] },
    hasSettings: () => true,
    onKeyRotated: () => undefined,
  });
  return {
    port,
    events,
    reads,
    subscribed: () => subscribed,
    close: async () => {
      io.disconnectSockets(true);
      io.engine.close();
      await new Promise((resolve) => http.close(resolve));
      http.closeAllConnections();
    },
  };
}

function append(events: EventLog, count: number): void {
  for (let i = 0; i < count; i++) {
    events.append(
      CONVERSATION,
      { source: 'agent', message: `output ${i}`, observation: 'run', content: OUTPUT, extras: {} },
      masker,
    );
  }
}

/** A raw socket.io client on one websocket, whose reading can be paused like a stalled browser tab. */
async function connect(port: number) {
  const query = `EIO=4&transport=websocket&conversation_id=${CONVERSATION}&session_api_key=${KEY}`;
  const ws = new WebSocket(`ws://127.0.0.1:${port}/socket.io/?${query}`);
  const ids: number[] = [];
  let connected = false;
  ws.on('message', (data) => {
    const text = data.toString();
    if (text.startsWith('0'))
      ws.send('40'); // engine.io open -> socket.io connect
    else if (text.startsWith('40')) connected = true;
    else if (text === '2')
      ws.send('3'); // ping -> pong
    else if (text.startsWith('42')) {
      const [, event] = JSON.parse(text.slice(2)) as [string, { id?: number }];
      if (typeof event.id === 'number') ids.push(event.id);
    }
  });
  const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
  await waitFor(() => connected, 'the socket.io connection');
  return { ws, ids, closed };
}

describe('a socket.io client that stops reading cannot make the service buffer without limit', () => {
  let dataDir: string;
  let db: Db;
  let sockets: Awaited<ReturnType<typeof startSockets>>;

  beforeEach(async () => {
    dataDir = tempDataDir();
    db = openDatabase(dataDir);
    sockets = await startSockets(db);
  });
  afterEach(async () => {
    await sockets.close();
    db.close();
  });

  it('replay waits for the client to take in each chunk before reading the next', async () => {
    const total = 1200; // 60 MB, 6 chunks of 200 events: far more than the loopback buffers hold
    append(sockets.events, total);
    const client = await connect(sockets.port);
    await waitFor(() => client.ids.length > 0, 'the first replayed event');
    client.ws.pause();
    // Until the replay stops reading: at once if it waits for the client, after reading everything if not.
    let seen = -1;
    let unchanged = 0;
    await waitFor(() => {
      unchanged = seen === sockets.reads.count ? unchanged + 1 : 0;
      seen = sockets.reads.count;
      return unchanged === 10; // two seconds without a read
    }, 'the replay to stop reading');
    expect(sockets.reads.count).toBeLessThan(total / 200);
    client.ws.resume();
    await waitFor(() => client.ids.length === total, 'the whole replay');
    expect(client.ids).toEqual(Array.from({ length: total }, (_, i) => i));
    expect(sockets.subscribed()).toBe(1);
    client.ws.close();
  });

  it('a live client more than 1 MiB behind is disconnected, as over SSE', async () => {
    const client = await connect(sockets.port);
    await waitFor(() => sockets.subscribed() === 1, 'the subscription');
    client.ws.pause();
    const count = 400; // 20 MB of live events
    append(sockets.events, count);
    expect(count * OUTPUT.length).toBeGreaterThan(10 * MAX_QUEUED_BYTES);
    expect(sockets.subscribed()).toBe(0);
    client.ws.terminate();
  });

  it('a live client that keeps up receives every event', async () => {
    const client = await connect(sockets.port);
    await waitFor(() => sockets.subscribed() === 1, 'the subscription');
    for (let i = 0; i < 10; i++) {
      append(sockets.events, 1);
      await waitFor(() => client.ids.length === i + 1, `event ${i}`);
    }
    expect(sockets.subscribed()).toBe(1);
    client.ws.close();
    await client.closed;
  });
});
