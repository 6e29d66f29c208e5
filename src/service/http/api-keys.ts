import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { match } from 'path-to-regexp';
import { sandboxKey } from '../secrets/sandbox-key';
import type { SessionKey } from '../secrets/session-key';
import type { KeyChecker } from './key-checker';
import type { RouteSpec } from './routes';

/** Constant-time equality of two keys (of their SHA-256 digests, so lengths leak nothing either). */
export function sameKey(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * The conversation a sandbox key may open a request for. The request goes to the first route whose method
 * and path it matches, exactly as the router matches them; only when that route is marked `sandboxKey` is its
 * `:id` the scope. Every other request — another route, an unknown path — names none and needs the session key.
 */
export function sandboxKeyScope(
  routes: RouteSpec[],
): (req: Pick<Request, 'method' | 'path'>) => string | undefined {
  const matchers = routes.map((route) => {
    if (route.sandboxKey && !route.path.includes('/:id')) {
      throw new Error(`${route.path} is marked sandboxKey but names no conversation (:id)`);
    }
    return {
      method: route.method.toUpperCase(),
      sandboxKey: route.sandboxKey === true,
      matches: match<{ id?: string }>(route.path, { sensitive: true, trailing: false, decode: false }),
    };
  });
  return (req) => {
    // Express answers HEAD with the GET route.
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    for (const matcher of matchers) {
      const found = matcher.method === method && matcher.matches(req.path);
      if (!found) continue;
      if (!matcher.sandboxKey || found.params.id === undefined) return undefined;
      try {
        return decodeURIComponent(found.params.id);
      } catch {
        return undefined;
      }
    }
    return undefined;
  };
}

/**
 * The keys a client may present: the session key everywhere, and a sandbox key (derived from the session
 * key, so it rotates with it) only for the conversations of its sandbox, on the routes `sandboxKeyScope` names.
 */
export class ApiKeys implements KeyChecker {
  constructor(
    private readonly session: SessionKey,
    private readonly sandboxOf: (conversationId: string) => string | null,
  ) {}

  accepts(key: string, conversationId?: string): boolean {
    if (this.session.accepts(key)) return true;
    const sandboxId = conversationId === undefined ? null : this.sandboxOf(conversationId);
    return sandboxId !== null && sameKey(key, sandboxKey(this.session.current, sandboxId));
  }
}
