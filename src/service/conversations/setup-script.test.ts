import { describe, expect, it } from 'vitest';
import { setupTimeoutFromEnv } from './setup-script';

describe('setupTimeoutFromEnv', () => {
  it('is 600 s unless DOCKHAND_SETUP_TIMEOUT_S names whole seconds from 1 to 600', () => {
    expect(setupTimeoutFromEnv({})).toBe(600);
    expect(setupTimeoutFromEnv({ DOCKHAND_SETUP_TIMEOUT_S: '2' })).toBe(2);
    for (const bad of ['0', '601', '1.5', 'soon'])
      expect(() => setupTimeoutFromEnv({ DOCKHAND_SETUP_TIMEOUT_S: bad })).toThrow(
        /DOCKHAND_SETUP_TIMEOUT_S/,
      );
  });
});
