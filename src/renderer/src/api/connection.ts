import type { DockhandBridge } from '../../../preload/bridge';

/** Where the service is and the key to send it. */
export interface Connection {
  baseUrl: string;
  apiKey: string;
  /** `bridge`: handed over by the desktop app; `browser`: this page's origin and a key the user gave. */
  source: 'bridge' | 'browser';
}

declare global {
  interface Window {
    /** Present when the page runs in the desktop app; feature-detected, so a missing function is fine. */
    dockhand?: Partial<DockhandBridge>;
  }
}

const STORAGE_KEY = 'dockhand.sessionApiKey';
const KEY_FRAGMENT = /^#key=([^&]+)$/;

/** The desktop app's bridge, when this page runs inside it. */
export function desktopBridge(): DockhandBridge | null {
  const bridge = window.dockhand;
  return typeof bridge?.getConnection === 'function' ? (bridge as DockhandBridge) : null;
}

export async function bridgeConnection(bridge: DockhandBridge): Promise<Connection> {
  const { baseUrl, apiKey } = await bridge.getConnection();
  return { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey, source: 'bridge' };
}

/**
 * Adopts the key of a `dockhand serve` link (`/#key=<key>`): keeps it for this tab and removes it
 * from the address bar, so it does not stay in history or get copied along with the URL.
 */
export function adoptKeyFromAddressBar(): void {
  const match = KEY_FRAGMENT.exec(window.location.hash);
  if (!match?.[1]) return;
  rememberKey(decodeURIComponent(match[1]));
  const { pathname, search } = window.location;
  window.history.replaceState(window.history.state, '', pathname + search);
}

export function rememberKey(key: string): void {
  window.sessionStorage.setItem(STORAGE_KEY, key);
}

export function forgetKey(): void {
  window.sessionStorage.removeItem(STORAGE_KEY);
}

/** The connection to the service that served this page, with the key this tab was given. */
export function browserConnection(key = window.sessionStorage.getItem(STORAGE_KEY)): Connection | null {
  return key ? { baseUrl: window.location.origin, apiKey: key, source: 'browser' } : null;
}
