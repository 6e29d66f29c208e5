import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Every gateway token starts with this, so that a leaked one is recognisable for what it is. */
export const GATEWAY_TOKEN_PREFIX = 'dockhand-gw-';

function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The placeholder credentials the agents in a sandbox hold instead of a real API key: one random token per
 * conversation, kept in memory for the service's life. A token names its conversation; nothing in a request
 * can name another one.
 */
export class GatewayTokens {
  /** By sha256 of the token, so that looking one up takes no time that depends on how much of it matched. */
  private readonly byDigest = new Map<string, { conversationId: string; token: string }>();
  private readonly byConversation = new Map<string, string>();

  /** The conversation's token: the one already issued, else a new one (32 random bytes). */
  issue(conversationId: string): string {
    const existing = this.byConversation.get(conversationId);
    if (existing) return existing;
    const token = GATEWAY_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    this.byDigest.set(digest(token), { conversationId, token });
    this.byConversation.set(conversationId, token);
    return token;
  }

  /** The token of the conversation stops opening anything (the conversation was deleted). */
  revoke(conversationId: string): void {
    const token = this.byConversation.get(conversationId);
    if (token === undefined) return;
    this.byConversation.delete(conversationId);
    this.byDigest.delete(digest(token));
  }

  /** The conversation a presented token belongs to, or null. */
  check(presented: string | undefined): string | null {
    if (!presented?.startsWith(GATEWAY_TOKEN_PREFIX)) return null;
    const entry = this.byDigest.get(digest(presented));
    if (!entry) return null;
    const a = Buffer.from(entry.token);
    const b = Buffer.from(presented);
    return a.length === b.length && timingSafeEqual(a, b) ? entry.conversationId : null;
  }
}
