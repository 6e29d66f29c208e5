import {
  TERMINAL_KEY_PROTOCOL_PREFIX,
  TERMINAL_PROTOCOL,
  TerminalServerMessage,
} from '../../../../shared/api/terminal';
import type { ApiClient } from '../../api/client';

export type TerminalSocketEvent =
  | { kind: 'open' }
  | { kind: 'output'; bytes: Uint8Array }
  | { kind: 'exit'; exitCode: number }
  | { kind: 'error'; detail: string }
  | { kind: 'closed'; code: number; reason: string };

export interface TerminalSocket {
  send(data: string): void;
  resize(size: { cols: number; rows: number }): void;
  close(): void;
}

/**
 * Opens the conversation's terminal websocket. A browser cannot put headers on a websocket, so the key goes
 * as a subprotocol beside the terminal's own (never in the URL, where it could be logged).
 */
export function openTerminalSocket(
  api: ApiClient,
  conversationId: string,
  size: { cols: number; rows: number },
  onEvent: (event: TerminalSocketEvent) => void,
): TerminalSocket {
  const path = `/api/conversations/${encodeURIComponent(conversationId)}/terminal`;
  const request = api.streamRequest(path, { cols: String(size.cols), rows: String(size.rows) });
  const key = request.headers['X-Session-API-Key'] ?? '';
  const url = request.url.replace(/^http/, 'ws');
  const encoder = new TextEncoder();
  let ws: WebSocket;
  try {
    ws = new WebSocket(url, [TERMINAL_PROTOCOL, `${TERMINAL_KEY_PROTOCOL_PREFIX}${key}`]);
  } catch (error) {
    // The constructor refuses a key that cannot be a subprotocol (one set by hand with other characters).
    queueMicrotask(() => onEvent({ kind: 'error', detail: (error as Error).message }));
    return { send: () => undefined, resize: () => undefined, close: () => undefined };
  }
  ws.binaryType = 'arraybuffer';
  ws.onopen = () => onEvent({ kind: 'open' });
  ws.onmessage = (message: MessageEvent<ArrayBuffer | string>) => {
    if (typeof message.data !== 'string') {
      onEvent({ kind: 'output', bytes: new Uint8Array(message.data) });
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(message.data);
    } catch {
      return;
    }
    const parsed = TerminalServerMessage.safeParse(body);
    if (!parsed.success) return;
    if (parsed.data.type === 'exit') onEvent({ kind: 'exit', exitCode: parsed.data.exit_code });
    else onEvent({ kind: 'error', detail: parsed.data.detail });
  };
  ws.onclose = (event) => onEvent({ kind: 'closed', code: event.code, reason: event.reason });
  const open = () => ws.readyState === WebSocket.OPEN;
  return {
    send: (data) => {
      if (open()) ws.send(encoder.encode(data));
    },
    resize: ({ cols, rows }) => {
      if (open()) ws.send(JSON.stringify({ type: 'resize', cols, rows }));
    },
    close: () => ws.close(),
  };
}
