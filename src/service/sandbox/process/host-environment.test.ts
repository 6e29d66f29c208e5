import { describe, expect, it } from 'vitest';
import { hostBaseEnvironment } from './host-environment';

describe('hostBaseEnvironment', () => {
  it('keeps PATH, HOME and the locale, and drops everything else of the service', () => {
    expect(
      hostBaseEnvironment({
        PATH: '/usr/bin',
        HOME: '/home/u',
        LANG: 'C.UTF-8',
        LC_ALL: 'C',
        TZ: 'UTC',
        DOCKHAND_SESSION_API_KEY: 'k'.repeat(20),
        GITHUB_TOKEN: 'ghp_x',
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/bus',
        PATHEXT: 'x',
      }),
    ).toEqual({ PATH: '/usr/bin', HOME: '/home/u', LANG: 'C.UTF-8', LC_ALL: 'C', TZ: 'UTC' });
  });
});
