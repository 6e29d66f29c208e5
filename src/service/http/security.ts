import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { httpError } from './errors';
import type { KeyGate } from './key-gate';
import { TokenBuckets } from './token-buckets';

/** The renderer of the desktop app. */
export const APP_ORIGIN = 'app://dockhand';

/** Which pages may call a server on `ports`: its own origins, `app://dockhand`, and `extra` (off by default). */
export interface OriginPolicy {
  ports: () => readonly number[];
  extra: readonly string[];
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** Whether a Host header names this server: a loopback name with one of its ports (DNS rebinding guard). */
export function isAllowedHost(host: string | undefined, ports: readonly number[]): boolean {
  const value = (host ?? '').toLowerCase();
  return ports.some((port) => LOOPBACK_NAMES.some((name) => value === `${name}:${port}`));
}

/** Whether a page of `origin` may call the server: only its own origins, the app, and explicit extras. */
export function isAllowedOrigin(origin: string, policy: OriginPolicy): boolean {
  if (origin === APP_ORIGIN || policy.extra.includes(origin)) return true;
  return policy.ports().some((port) => LOOPBACK_NAMES.some((name) => origin === `http://${name}:${port}`));
}

/** Host and Origin of a raw request (socket.io, a per-sandbox endpoint); a request without Origin passes. */
export function fromOwnPage(req: IncomingMessage, policy: OriginPolicy): boolean {
  const origin = req.headers.origin;
  return (
    isAllowedHost(req.headers.host, policy.ports()) &&
    (origin === undefined || isAllowedOrigin(origin, policy))
  );
}

/**
 * Extra page origins from DOCKHAND_ALLOWED_ORIGINS (comma-separated, e.g. a renderer dev server);
 * none unless set. A value that is not an origin stops the start, rather than silently allowing less or more.
 */
export function extraOriginsFromEnvironment(env: NodeJS.ProcessEnv): string[] {
  const listed = (env.DOCKHAND_ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
  for (const origin of listed) {
    if (!URL.canParse(origin) || new URL(origin).origin !== origin) {
      throw new Error(
        `DOCKHAND_ALLOWED_ORIGINS must list origins such as http://localhost:5173, not "${origin}"`,
      );
    }
  }
  return listed;
}

/** Host header check against DNS rebinding: only loopback names on our own port. */
export function hostCheck(policy: OriginPolicy) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (!isAllowedHost(req.headers.host, policy.ports())) return next(httpError(403, 'Invalid host header'));
    next();
  };
}

/**
 * CORS for our own origins only: others (other local ports, sandbox apps, `null`) are refused with 403;
 * a request without Origin passes. Preflights from allowed origins are answered here, without a key.
 */
export function cors(policy: OriginPolicy) {
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.headers.origin;
    if (origin === undefined) return next();
    res.vary('Origin');
    if (!isAllowedOrigin(origin, policy)) return next(httpError(403, 'Origin not allowed'));
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Expose-Headers', 'Retry-After');
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      res.setHeader('Access-Control-Allow-Methods', 'GET,POST,PUT,PATCH,DELETE,OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', 'Content-Type, X-Session-API-Key, Last-Event-ID');
      res.setHeader('Access-Control-Max-Age', '600');
      res.status(204).end();
      return;
    }
    next();
  };
}

/**
 * The key a request presents: the header, or — only where `queryAllowed` (event streams, which a browser
 * may open without headers) — the `session_api_key` query parameter.
 */
export function presentedKey(req: Request, queryAllowed: boolean): string | undefined {
  const header = req.headers['x-session-api-key'];
  if (typeof header === 'string') return header;
  const query = queryAllowed ? req.query['session_api_key'] : undefined;
  return typeof query === 'string' ? query : undefined;
}

/**
 * Requires a valid key. A valid key is always served; failed attempts are throttled (429) per presented
 * key and per address, so guessing is slow while the right key keeps working.
 */
export function requireKey(
  gate: KeyGate,
  scope: (req: Request) => string | undefined,
  keyInQuery: (req: Request) => boolean,
) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const key = presentedKey(req, keyInQuery(req));
    const verdict = gate.check(key, scope(req), req.socket.remoteAddress ?? 'unknown');
    if (verdict === 'accepted') return next();
    if (verdict === 'throttled') return next(httpError(429, 'Too many requests', { 'Retry-After': '1' }));
    next(httpError(401, 'Unauthorized'));
  };
}

/** Per-key token bucket: a guard against runaway scripts, far above what the UI and local tools need. */
export function rateLimit(
  perSecond: number,
  keyInQuery: (req: Request) => boolean,
  now: () => number = Date.now,
) {
  const buckets = new TokenBuckets(perSecond * 2, perSecond, now);
  return (req: Request, _res: Response, next: NextFunction) => {
    const key = presentedKey(req, keyInQuery(req)) ?? req.socket.remoteAddress ?? 'anonymous';
    if (buckets.take(key)) return next();
    next(httpError(429, 'Too many requests', { 'Retry-After': '1' }));
  };
}
