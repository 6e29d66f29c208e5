import type { IncomingMessage } from 'node:http';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import {
  TERMINAL_PROTOCOL,
  TerminalClientMessage,
  type TerminalServerMessage,
} from '../../../shared/api/terminal';
import type { ConversationTerminals } from '../../conversations/conversation-terminals';
import { MAX_QUEUED_BYTES } from '../../events/event-follower';
import { HttpError } from '../../http/errors';
import type { TakenUpgrade } from '../../http/upgrades';
import type { SandboxTerminal, TerminalSize } from '../../sandbox/sandbox-workspace';

/** The largest frame a client may send (a paste). */
const MAX_FRAME_BYTES = 1024 * 1024;
/** Keystrokes held for a shell that is not taking them yet (still starting); more is dropped. */
const MAX_QUEUED_INPUT_BYTES = 1024 * 1024;
/** Close codes: the sandbox or the service went away; the shell could not start. */
const GOING_AWAY = 1001;
const START_FAILED = 1011;

function detailOf(error: unknown): string {
  if (error instanceof HttpError) return String((error.body as { detail?: unknown }).detail);
  return error instanceof Error ? error.message : String(error);
}

/** A close reason fits in a control frame (123 bytes); the whole text went in an `error` message before. */
function closeReason(text: string): string {
  const bytes = Buffer.from(text);
  return bytes.length <= 123
    ? text
    : `${bytes
        .subarray(0, 120)
        .toString()
        .replace(/\uFFFD$/, '')}...`;
}

function parse(data: RawData): unknown {
  try {
    return JSON.parse(data.toString());
  } catch {
    return undefined;
  }
}

/**
 * The terminal websocket of a conversation (`GET /api/conversations/{id}/terminal`, whose route has already
 * checked Host, Origin, the session key and the conversation): binary frames are the shell's bytes both ways,
 * text frames JSON messages (`resize` in, `exit` and `error` out). The shell ends when the socket closes; a
 * client that lets more than MAX_QUEUED_BYTES of output pile up unread is cut off, as on the event streams.
 */
export class TerminalSockets {
  private readonly server = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME_BYTES,
    // The service's protocol when offered; the key a browser offers beside it is never echoed.
    handleProtocols: (protocols) => (protocols.has(TERMINAL_PROTOCOL) ? TERMINAL_PROTOCOL : false),
  });

  constructor(private readonly terminals: ConversationTerminals) {}

  /** Completes the handshake, then starts the shell at `size`. */
  accept(req: IncomingMessage, upgrade: TakenUpgrade, conversationId: string, size: TerminalSize): void {
    this.server.handleUpgrade(req, upgrade.socket, upgrade.head, (ws) =>
      this.serve(ws, conversationId, size),
    );
  }

  /** Closes every terminal socket (the key rotated, the service closes); their shells end with them. */
  closeAll(reason: string): void {
    for (const ws of this.server.clients) ws.close(GOING_AWAY, reason);
  }

  private serve(ws: WebSocket, conversationId: string, size: TerminalSize): void {
    const message = (body: TerminalServerMessage) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(body));
    };
    const started = this.terminals.start(conversationId, {
      ...size,
      onData: (chunk) => {
        if (ws.readyState !== WebSocket.OPEN) return;
        if (ws.bufferedAmount > MAX_QUEUED_BYTES) return ws.terminate();
        ws.send(chunk, { binary: true });
      },
      onExit: (exitCode) => {
        message({ type: 'exit', exit_code: exitCode });
        ws.close(1000, 'The shell ended');
      },
      onEnded: (reason) => ws.close(GOING_AWAY, closeReason(reason)),
    });

    // Keystrokes and resizes reach the shell in the order they came, once it has started: a resize is a call
    // to the engine, and what is typed after it must see the new size.
    let queue: Promise<SandboxTerminal | null> = started.catch(() => null);
    let queuedInput = 0;
    const inOrder = (step: (shell: SandboxTerminal) => unknown) => {
      queue = queue.then(async (shell) => {
        if (shell && ws.readyState === WebSocket.OPEN)
          await Promise.resolve(step(shell)).catch(() => undefined);
        return shell;
      });
    };

    ws.on('message', (data: RawData, isBinary: boolean) => {
      // The server's binaryType is 'nodebuffer': every message is one Buffer.
      const bytes = data as Buffer;
      if (isBinary) {
        // Input beyond the bound while the shell is not taking it (still starting) is dropped.
        if (queuedInput + bytes.length > MAX_QUEUED_INPUT_BYTES) return;
        queuedInput += bytes.length;
        inOrder((shell) => {
          queuedInput -= bytes.length;
          shell.write(bytes);
        });
        return;
      }
      const parsed = TerminalClientMessage.safeParse(parse(bytes));
      if (!parsed.success) {
        const detail = parsed.error.issues
          .map((issue) => `${issue.path.join('.') || 'message'}: ${issue.message}`)
          .join('; ');
        message({ type: 'error', detail: `Invalid message: ${detail}` });
        return;
      }
      const { cols, rows } = parsed.data;
      inOrder((shell) => shell.resize({ cols, rows }));
    });
    // A frame over maxPayload (ws has already answered 1009 and closes): without a listener it would throw.
    ws.on('error', () => ws.terminate());
    ws.once('close', () => void queue.then((shell) => shell?.close()));
    started.catch((error: unknown) => {
      const detail = detailOf(error);
      message({ type: 'error', detail });
      ws.close(START_FAILED, closeReason(detail));
    });
  }
}
