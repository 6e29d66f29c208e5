import { createHmac } from 'node:crypto';

/**
 * The key a sandbox's conversations accept: base64url(HMAC-SHA256(session key, "sandbox:" + id)).
 * Derived, never stored, so it changes when the session key is rotated.
 */
export function sandboxKey(sessionKey: string, sandboxId: string): string {
  return createHmac('sha256', sessionKey).update(`sandbox:${sandboxId}`).digest('base64url');
}
