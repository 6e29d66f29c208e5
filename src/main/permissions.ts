import type { MainLog } from './main-log';
import { originOf } from './page-origin';

/**
 * What the app's own page may use: reaching the service on 127.0.0.1 (Chromium's Local Network
 * Access gates loopback requests behind these) and writing to the clipboard. Everything else, and
 * every other origin, is denied.
 */
const PAGE_PERMISSIONS: ReadonlySet<string> = new Set([
  'loopback-network',
  'local-network-access',
  'clipboard-sanitized-write',
]);

export function permissionGranted(permission: string, requestingUrl: string, pageOrigin: string): boolean {
  return PAGE_PERMISSIONS.has(permission) && originOf(requestingUrl) === pageOrigin;
}

/** The parts of an Electron Session that decide permissions. */
export interface PermissionSession {
  setPermissionRequestHandler(
    handler: (
      webContents: unknown,
      permission: string,
      callback: (granted: boolean) => void,
      details: { requestingUrl: string },
    ) => void,
  ): void;
  setPermissionCheckHandler(
    handler: (webContents: unknown, permission: string, requestingOrigin: string) => boolean,
  ): void;
}

export function restrictPermissions(session: PermissionSession, pageOrigin: string, log: MainLog): void {
  session.setPermissionRequestHandler((_webContents, permission, callback, details) => {
    const granted = permissionGranted(permission, details.requestingUrl, pageOrigin);
    if (!granted) log.warn({ permission, url: details.requestingUrl }, 'Denied a permission request');
    callback(granted);
  });
  session.setPermissionCheckHandler((_webContents, permission, requestingOrigin) =>
    permissionGranted(permission, requestingOrigin, pageOrigin),
  );
}
