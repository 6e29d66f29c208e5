import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { SdkMessage, type SdkEvent } from '../../shared/api/agent-server';
import { utcIso } from '../conversations/app-conversations';
import type { ConversationService } from '../conversations/conversation-service';
import type { EventLog } from '../events/event-log';
import type { EventSink } from '../events/event-follower';
import { HttpError } from '../http/errors';
import type { SandboxConversations } from './backend';
import type { ResendQuery } from './routes';
import { SdkEventMapper } from './sdk-events';

const MAX_SOCKETS_PER_CONVERSATION = 16;
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** Close codes: the server went away (sandbox paused, stopped or gone); too many sockets (upstream's 1013). */
export const GOING_AWAY = 1001;
const TRY_AGAIN_LATER = 1013;

export interface EventsSocketDeps {
  events: EventLog;
  conversations: ConversationService;
}

function serverError(code: string, detail: string) {
  return {
    kind: 'ServerErrorEvent',
    id: randomUUID(),
    timestamp: new Date().toISOString(),
    source: 'environment',
    code,
    detail,
  };
}

/** Which stored events a new socket gets: none, all (`resend_all`/`resend_mode=all`), or those since a time. */
function resendFilter(query: ResendQuery): (event: SdkEvent) => boolean {
  const mode = query.resend_mode ?? (query.resend_all ? 'all' : undefined);
  if (mode === 'all') return () => true;
  const since = mode === 'since' ? utcIso(query.after_timestamp) : undefined;
  return since ? (event) => event.timestamp >= since : () => false;
}

/** Resolves once the frame is written out (or the socket has closed). */
function sendFrame(ws: WebSocket, frame: unknown): Promise<void> {
  return new Promise((resolve) => {
    if (ws.readyState !== WebSocket.OPEN) return resolve();
    ws.send(JSON.stringify(frame), () => resolve());
  });
}

/**
 * A websocket as an event follower's sink: every stored and live event goes through the mapper once, in
 * order (so confirmed actions are recognised as sent), and comes out as SDK events; of the stored ones only
 * those `resend` asks for are sent. A client cut off, or whose replay failed, is terminated.
 */
function socketSink(ws: WebSocket, id: string, resend: (event: SdkEvent) => boolean): EventSink {
  const mapper = new SdkEventMapper(id);
  return {
    get isClosed() {
      return ws.readyState !== WebSocket.OPEN;
    },
    replay: async (events) => {
      const batch = events.flatMap((event) => mapper.map(event)).filter(resend);
      await Promise.all(batch.map((event) => sendFrame(ws, event)));
    },
    caughtUp: () => undefined,
    live: (event) => mapper.map(event).forEach((sdk) => void sendFrame(ws, sdk)),
    queuedBytes: () => ws.bufferedAmount,
    close: () => ws.terminate(),
  };
}

function parse(data: RawData): unknown {
  try {
    return JSON.parse(data.toString());
  } catch {
    return undefined;
  }
}

function isAuthFrame(value: unknown): boolean {
  const frame = value as Record<string, unknown> | null;
  return typeof frame === 'object' && frame !== null && frame.type === 'auth';
}

/**
 * The events websocket of one sandbox's endpoint (upstream `sockets.py`): on open the conversation's state
 * (`full_state`), then the stored events asked for, then live events, each once and in order; messages the
 * client sends are user messages. Errors go back as `ServerErrorEvent`s.
 */
export class EventsSockets {
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly conversations: SandboxConversations,
    private readonly deps: EventsSocketDeps,
  ) {}

  /** Completes the handshake the HTTP checks let through. */
  accept(req: IncomingMessage, socket: Duplex, head: Buffer, id: string, query: ResendQuery): void {
    this.server.handleUpgrade(req, socket, head, (ws) => {
      if ((this.counts.get(id) ?? 0) >= MAX_SOCKETS_PER_CONVERSATION) {
        ws.close(TRY_AGAIN_LATER, 'Too many connections for this conversation');
        return;
      }
      this.serve(ws, id, query);
    });
  }

  /** Closes every socket (the sandbox paused or stopped, the key rotated). */
  closeAll(code: number, reason: string): void {
    for (const ws of this.server.clients) ws.close(code, reason);
  }

  /** Cuts the sockets still open (their closing handshake took too long). */
  terminateAll(): void {
    for (const ws of this.server.clients) ws.terminate();
  }

  private serve(ws: WebSocket, id: string, query: ResendQuery): void {
    let state: unknown;
    try {
      state = this.conversations.info(id);
    } catch {
      return ws.terminate();
    }
    this.counts.set(id, (this.counts.get(id) ?? 0) + 1);
    // Sent before the follower writes anything; the replay's chunks queue behind it.
    void sendFrame(ws, {
      kind: 'ConversationStateUpdateEvent',
      id: randomUUID(),
      timestamp: new Date().toISOString(),
      source: 'environment',
      key: 'full_state',
      value: state,
    });
    const follower = this.deps.events.follow(id, -1, socketSink(ws, id, resendFilter(query)));
    const stopEnd = this.deps.conversations.onEnd(id, () => ws.close(1000, 'Conversation deleted'));
    void this.conversations.start(id).catch((error: unknown) => this.report(ws, error));

    ws.on('message', (data) => void this.receive(ws, id, data));
    // A frame over maxPayload (ws has already answered 1009 and closes): without a listener it would throw.
    ws.on('error', () => ws.terminate());
    ws.on('close', () => {
      follower.stop();
      stopEnd();
      this.counts.set(id, (this.counts.get(id) ?? 1) - 1);
    });
  }

  private async receive(ws: WebSocket, id: string, data: RawData): Promise<void> {
    const frame = parse(data);
    if (frame === undefined) return this.report(ws, new SyntaxError('The frame is not JSON'));
    // The first-message auth frame of newer clients; the key was checked at the handshake.
    if (isAuthFrame(frame)) return;
    const message = SdkMessage.safeParse(frame);
    if (!message.success) {
      const detail = message.error.issues
        .map((i) => `${i.path.join('.') || 'message'}: ${i.message}`)
        .join('; ');
      ws.send(JSON.stringify(serverError('ValidationError', detail)));
      return;
    }
    try {
      this.conversations.sendMessage(id, message.data);
    } catch (error) {
      this.report(ws, error);
    }
  }

  private report(ws: WebSocket, error: unknown): void {
    if (ws.readyState !== WebSocket.OPEN) return;
    const detail =
      error instanceof HttpError
        ? String((error.body as { detail?: unknown }).detail)
        : error instanceof Error
          ? error.message
          : String(error);
    const code = error instanceof HttpError ? 'HTTPException' : error instanceof Error ? error.name : 'Error';
    ws.send(JSON.stringify(serverError(code, detail)));
  }
}
