import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sandboxKey } from './sandbox-key';

describe('sandboxKey', () => {
  it('is base64url(HMAC-SHA256(session key, "sandbox:" + id)) and changes with the session key', () => {
    const expected = createHmac('sha256', 'session-key-1').update('sandbox:sbx-1').digest('base64url');
    expect(sandboxKey('session-key-1', 'sbx-1')).toBe(expected);
    expect(sandboxKey('session-key-2', 'sbx-1')).not.toBe(expected);
  });
});
