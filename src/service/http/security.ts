import type { NextFunction, Request, Response } from 'express';
import { httpError } from './errors';
import { TokenBuckets } from './token-buckets';

/** Host header check against DNS rebinding: only loopback names on our own port. */
export function hostCheck(getPort: () => number) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const port = getPort();
    const host = (req.headers.host ?? '').toLowerCase();
    const allowed = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
    if (!allowed.includes(host)) return next(httpError(403, 'Invalid host header'));
    next();
  };
}

const LOCAL_ORIGIN = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/;

export function isAllowedOrigin(origin: string): boolean {
  return LOCAL_ORIGIN.test(origin) || origin === 'app://dockhand';
}

/** CORS for local origins only: other origins (including `null`) are refused with 403; no Origin passes. */
export function cors() {
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.headers.origin;
    if (origin === undefined) return next();
    res.vary('Origin');
    if (!isAllowedOrigin(origin)) return next(httpError(403, 'Origin not allowed'));
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

/** Reads the session key a request presents: the header, or the query parameter streams use. */
export function presentedKey(req: Request): string | undefined {
  const header = req.headers['x-session-api-key'];
  if (typeof header === 'string') return header;
  const query = req.query['session_api_key'];
  return typeof query === 'string' ? query : undefined;
}

export interface KeyChecker {
  /** Whether `key` is valid, constant-time; `conversationId` names the conversation the request is scoped to. */
  accepts(key: string, conversationId?: string): boolean;
}

const FAILED_AUTH_LIMIT = 20;
const FAILED_AUTH_WINDOW_MS = 10_000;

/**
 * Requires a valid session key. After 20 failed attempts in 10 s from one address, that address
 * gets 429 for 10 s, so a local process cannot guess keys at speed.
 */
export function requireKey(
  keys: KeyChecker,
  scope: (req: Request) => string | undefined,
  now: () => number = Date.now,
) {
  const failures = new Map<string, { count: number; windowStart: number; blockedUntil: number }>();
  return (req: Request, _res: Response, next: NextFunction) => {
    const address = req.socket.remoteAddress ?? 'unknown';
    const record = failures.get(address);
    const time = now();
    if (record && record.blockedUntil > time) {
      return next(
        httpError(429, 'Too many requests', {
          'Retry-After': String(Math.ceil((record.blockedUntil - time) / 1000)),
        }),
      );
    }
    const key = presentedKey(req);
    if (key !== undefined && keys.accepts(key, scope(req))) return next();
    const current =
      record && time - record.windowStart < FAILED_AUTH_WINDOW_MS
        ? record
        : { count: 0, windowStart: time, blockedUntil: 0 };
    current.count += 1;
    if (current.count >= FAILED_AUTH_LIMIT) current.blockedUntil = time + FAILED_AUTH_WINDOW_MS;
    failures.set(address, current);
    next(httpError(401, 'Unauthorized'));
  };
}

/** Per-key token bucket: a guard against runaway scripts, far above what the UI and local tools need. */
export function rateLimit(perSecond: number, now: () => number = Date.now) {
  const buckets = new TokenBuckets(perSecond * 2, perSecond, now);
  return (req: Request, _res: Response, next: NextFunction) => {
    const key = presentedKey(req) ?? req.socket.remoteAddress ?? 'anonymous';
    if (buckets.take(key)) return next();
    next(httpError(429, 'Too many requests', { 'Retry-After': '1' }));
  };
}
