import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { Server, type Socket } from 'socket.io';
import { UserActionRequest } from '../../../shared/api/conversations';
import type { ConversationService } from '../../conversations/conversation-service';
import type { KeyGate } from '../../http/key-gate';
import { fromOwnPage, isAllowedOrigin, type OriginPolicy } from '../../http/security';
import type { EventLog } from '../../events/event-log';
import type { EventSink } from '../../events/event-follower';
import type { DockhandEvent } from '../../events/model/dockhand-event';
import { drained, queuedBytes } from './socket-backlog';
import { socketIoEvent, socketIoReplay } from './v0-events';

const MAX_SOCKETS_PER_CONVERSATION = 16;
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

export interface SocketServerDeps {
  conversations: ConversationService;
  events: EventLog;
  keys: KeyGate;
  origins: OriginPolicy;
  hasSettings: () => boolean;
  /** Registers a call for each key rotation: sockets opened with the old key are closed then. */
  onKeyRotated: (listener: () => void) => void;
}

const CLOSE_PAYLOAD = {
  message: '',
  observation: 'agent_state_changed',
  content: '',
  extras: { agent_state: 'stopped', reason: '' },
};

class ConnectError extends Error {
  constructor(
    message: string,
    readonly data?: { msg_id: string },
  ) {
    super(message);
  }
}

/**
 * A socket.io client as an event follower's sink: each event emitted as one V0 `oh_event` (`v0-events.ts`).
 * The replay skips recall actions and holds back agent state changes, sending only the last after the
 * rest; each chunk is taken in once engine.io's transport is ready again.
 */
function socketSink(socket: Socket): EventSink {
  let lastState: DockhandEvent | undefined;
  const emit = (event: DockhandEvent) => {
    const shown = socketIoEvent(event);
    if (shown) socket.emit('oh_event', shown);
  };
  return {
    get isClosed() {
      return socket.disconnected;
    },
    replay: async (events) => {
      for (const event of events) {
        const replayed = socketIoReplay(event);
        if (replayed === 'hold') lastState = event;
        else if (replayed === 'send') emit(event);
      }
      await drained(socket);
    },
    caughtUp: () => {
      if (lastState) emit(lastState);
      lastState = undefined;
    },
    live: emit,
    queuedBytes: () => queuedBytes(socket),
    close: () => socket.disconnect(true),
  };
}

/**
 * socket.io answers its own path before the app, refusing a foreign Host or Origin with its own body (and a
 * foreign preflight with 400). Such requests go to the app instead, which answers them as on every other
 * path: 403 `{"detail":"Invalid host header"}` or `{"detail":"Origin not allowed"}`.
 */
function refuseForeignRequestsInTheApp(
  http: HttpServer,
  appListeners: ReturnType<HttpServer['listeners']>,
  origins: OriginPolicy,
): void {
  const socketListeners = http.listeners('request');
  http.removeAllListeners('request');
  http.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const foreign = req.url?.startsWith('/socket.io/') && !fromOwnPage(req, origins);
    for (const listener of foreign ? appListeners : socketListeners) listener.call(http, req, res);
  });
}

/**
 * The OpenHands socket.io protocol on `/socket.io`: `oh_event` replay after `latest_event_id` then live,
 * `oh_user_action` (alias `oh_action`) input, status updates, and a close payload before disconnecting.
 */
export function attachSocketServer(http: HttpServer, deps: SocketServerDeps): Server {
  const appListeners = http.listeners('request');
  const io = new Server(http, {
    path: '/socket.io',
    maxHttpBufferSize: MAX_MESSAGE_BYTES,
    serveClient: false,
    cors: {
      origin: (origin, callback) =>
        callback(null, origin === undefined || isAllowedOrigin(origin, deps.origins)),
    },
    allowRequest: (req, callback) => callback(null, fromOwnPage(req, deps.origins)),
  });
  refuseForeignRequestsInTheApp(http, appListeners, deps.origins);
  const counts = new Map<string, number>();
  deps.onKeyRotated(() => {
    io.emit('oh_event', CLOSE_PAYLOAD);
    io.disconnectSockets(true);
  });

  io.use((socket, next) => {
    try {
      socket.data.conversationId = authorise(socket);
      next();
    } catch (error) {
      const failure = error as ConnectError;
      const refusal = new Error(failure.message) as Error & { data?: unknown };
      if (failure.data) refusal.data = failure.data;
      next(refusal);
    }
  });

  function authorise(socket: Socket): string {
    const query = socket.handshake.query;
    const auth = socket.handshake.auth as { session_api_key?: unknown };
    const key =
      query.session_api_key ?? socket.handshake.headers['x-session-api-key'] ?? auth.session_api_key;
    const id = query.conversation_id;
    const scope = typeof id === 'string' && id ? id : undefined;
    // Handshakes share the HTTP throttle of failed attempts; a valid key is never refused by it.
    const verdict = deps.keys.check(
      typeof key === 'string' ? key : undefined,
      scope,
      socket.handshake.address,
    );
    if (verdict === 'throttled') throw new ConnectError('Too many requests');
    if (verdict !== 'accepted') throw new ConnectError('invalid_session_api_key');
    if (typeof id !== 'string' || !id) throw new ConnectError('No conversation_id in query params');
    try {
      deps.conversations.require(id);
    } catch {
      throw new ConnectError(`Conversation ${id} not found`, { msg_id: 'CONVERSATION$NOT_FOUND' });
    }
    if (!deps.hasSettings())
      throw new ConnectError('Settings not found', { msg_id: 'CONFIGURATION$SETTINGS_NOT_FOUND' });
    if ((counts.get(id) ?? 0) >= MAX_SOCKETS_PER_CONVERSATION) throw new ConnectError('Too many connections');
    return id;
  }

  io.on('connection', (socket) => {
    const id = socket.data.conversationId as string;
    counts.set(id, (counts.get(id) ?? 0) + 1);
    const latest = Number(socket.handshake.query.latest_event_id ?? -1);
    const follower = deps.events.follow(id, Number.isInteger(latest) ? latest : -1, socketSink(socket));
    const deliver = (payload: unknown) => follower.send(() => socket.emit('oh_event', payload));
    const stopStatus = deps.conversations.onStatus(id, deliver);
    const stopEnd = deps.conversations.onEnd(id, () => {
      socket.emit('oh_event', CLOSE_PAYLOAD);
      socket.disconnect(true);
    });

    const onAction = async (body: unknown) => {
      const parsed = UserActionRequest.safeParse(body);
      if (!parsed.success) {
        deliver({ error: true, message: 'Invalid user action' });
        return;
      }
      try {
        await deps.conversations.userAction(id, parsed.data);
      } catch (error) {
        deliver({ error: true, message: error instanceof Error ? error.message : String(error) });
      }
    };
    socket.on('oh_user_action', onAction);
    socket.on('oh_action', onAction);
    socket.on('disconnect', () => {
      follower.stop();
      stopStatus();
      stopEnd();
      counts.set(id, (counts.get(id) ?? 1) - 1);
    });
    void deps.conversations.start(id).catch(() => undefined);
  });
  return io;
}
