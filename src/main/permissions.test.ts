import { describe, expect, it } from 'vitest';
import { type PermissionSession, permissionGranted, restrictPermissions } from './permissions';
import { recordingLog } from '../../test/support/main-fakes';

const PAGE = 'app://dockhand';

describe('permissionGranted', () => {
  it('lets the app page reach the loopback service and write to the clipboard', () => {
    expect(permissionGranted('loopback-network', 'app://dockhand/index.html', PAGE)).toBe(true);
    expect(permissionGranted('local-network-access', 'app://dockhand', PAGE)).toBe(true);
    expect(permissionGranted('clipboard-sanitized-write', 'app://dockhand/x', PAGE)).toBe(true);
  });

  it('denies everything else to the app page', () => {
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'openExternal',
      'clipboard-read',
      'local-network',
      'unknown',
    ]) {
      expect(permissionGranted(permission, 'app://dockhand/index.html', PAGE)).toBe(false);
    }
  });

  it('denies every permission to other origins', () => {
    for (const url of [
      'https://evil.example/',
      'app://dockhand.evil/',
      'http://127.0.0.1:3000/',
      'file:///x',
      '',
    ]) {
      expect(permissionGranted('loopback-network', url, PAGE)).toBe(false);
    }
  });
});

describe('restrictPermissions', () => {
  type RequestHandler = Parameters<PermissionSession['setPermissionRequestHandler']>[0];
  type CheckHandler = Parameters<PermissionSession['setPermissionCheckHandler']>[0];

  function install() {
    const installed: { request?: RequestHandler; check?: CheckHandler } = {};
    const log = recordingLog();
    restrictPermissions(
      {
        setPermissionRequestHandler: (handler) => void (installed.request = handler),
        setPermissionCheckHandler: (handler) => void (installed.check = handler),
      },
      PAGE,
      log,
    );
    const { request, check } = installed;
    if (!request || !check) throw new Error('handlers not installed');
    return { request, check, log };
  }

  it('answers requests through the callback and logs denials', () => {
    const { request, log } = install();
    const answers: boolean[] = [];
    request(null, 'media', (granted) => answers.push(granted), {
      requestingUrl: 'app://dockhand/index.html',
    });
    request(null, 'loopback-network', (granted) => answers.push(granted), {
      requestingUrl: 'app://dockhand/index.html',
    });
    expect(answers).toEqual([false, true]);
    expect(log.entries).toEqual([
      {
        level: 'warn',
        fields: { permission: 'media', url: 'app://dockhand/index.html' },
        message: 'Denied a permission request',
      },
    ]);
  });

  it('answers checks by the requesting origin', () => {
    const { check } = install();
    expect(check(null, 'loopback-network', 'app://dockhand')).toBe(true);
    expect(check(null, 'loopback-network', 'https://evil.example')).toBe(false);
    expect(check(null, 'geolocation', 'app://dockhand')).toBe(false);
  });
});
