import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { sandboxKey } from '../secrets/sandbox-key';
import type { SessionKey } from '../secrets/session-key';
import type { KeyChecker } from './key-checker';

/** Constant-time equality of two keys (of their SHA-256 digests, so lengths leak nothing either). */
export function sameKey(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}

const CONVERSATION_PATH = /^\/api\/conversations\/([^/]+)(\/.*)?$/;

/**
 * The conversation a request is scoped to, as far as a sandbox key may reach: `GET /api/conversations/{id}`
 * and anything under `/api/conversations/{id}/` (events, messages, workspace, the SSE stream).
 */
export function conversationScope(req: Pick<Request, 'method' | 'path'>): string | undefined {
  const match = CONVERSATION_PATH.exec(req.path);
  if (!match?.[1] || (match[2] === undefined && req.method !== 'GET')) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
}

/**
 * The keys a client may present: the session key everywhere, and a sandbox key (derived from the session
 * key, so it rotates with it) only for the conversations of its sandbox.
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
