import { type IncomingMessage, type RequestListener, type Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** A websocket handshake the app let through: its raw connection, now the route's. */
export interface TakenUpgrade {
  socket: Duplex;
  head: Buffer;
}

interface PendingUpgrade extends TakenUpgrade {
  res: ServerResponse;
}

export interface UpgradeOptions {
  /** Handshakes someone else answers (socket.io's own path). */
  skip?: (req: IncomingMessage) => boolean;
  /**
   * A browser cannot set headers on a websocket: a subprotocol that begins with this prefix carries the key
   * instead, and stands for `X-Session-API-Key` when that header is absent. The key stays out of the URL.
   */
  keyProtocolPrefix?: string;
}

/** The key a handshake offers as the subprotocol `<prefix><key>`, if any. */
export function keyFromSubprotocol(req: IncomingMessage, prefix: string): string | undefined {
  const offered = req.headers['sec-websocket-protocol'];
  const protocols = typeof offered === 'string' ? offered.split(',').map((value) => value.trim()) : [];
  return protocols.find((value) => value.startsWith(prefix))?.slice(prefix.length);
}

/**
 * Websocket handshakes run through the app like any request, so its every check (path, Host, Origin, key,
 * rate limit) decides on them; a refused one gets the app's JSON answer, then the connection ends. The route
 * that accepts one takes its raw connection over with `take`.
 */
export class Upgrades {
  private readonly pending = new WeakMap<IncomingMessage, PendingUpgrade>();

  attach(server: Server, app: RequestListener, options: UpgradeOptions = {}): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (options.skip?.(req)) return;
      const { keyProtocolPrefix } = options;
      const key = keyProtocolPrefix ? keyFromSubprotocol(req, keyProtocolPrefix) : undefined;
      if (key !== undefined && req.headers['x-session-api-key'] === undefined) {
        req.headers['x-session-api-key'] = key;
      }
      const res = new ServerResponse(req);
      res.shouldKeepAlive = false;
      res.assignSocket(socket as Socket);
      res.on('finish', () => socket.end());
      this.pending.set(req, { socket, head, res });
      app(req, res);
    });
  }

  /** The connection of a handshake `attach` passed on, detached from its HTTP answer; null for no handshake. */
  take(req: IncomingMessage): TakenUpgrade | null {
    const upgrade = this.pending.get(req);
    if (!upgrade) return null;
    this.pending.delete(req);
    upgrade.res.detachSocket(upgrade.socket as Socket);
    return { socket: upgrade.socket, head: upgrade.head };
  }
}
