import type { MainLog } from './main-log';
import { isHttpsUrl, originOf } from './page-origin';

interface PreventableEvent {
  preventDefault(): void;
}

/** The parts of a WebContents the guards attach to. */
export interface GuardedContents {
  on(event: 'will-navigate', listener: (event: PreventableEvent, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

export interface NavigationPolicy {
  /** The page's own origin: the only place the window may navigate to. */
  pageOrigin: string;
  openExternal(url: string): Promise<void>;
  log: MainLog;
}

/** Opens https links in the user's browser; anything else (file:, http:, custom schemes) is refused. */
function openIfHttps(url: string, policy: NavigationPolicy): void {
  if (!isHttpsUrl(url)) {
    policy.log.warn({ url }, 'Refused to open a non-https link');
    return;
  }
  policy.openExternal(url).catch((error: unknown) => {
    policy.log.warn({ url, err: error }, 'Could not open the link in the browser');
  });
}

/**
 * Keeps the window on its own page: navigations elsewhere are cancelled (https ones open in the
 * browser instead), new windows are never created, and webviews never attach.
 */
export function guardNavigation(contents: GuardedContents, policy: NavigationPolicy): void {
  contents.on('will-navigate', (event, url) => {
    if (originOf(url) === policy.pageOrigin) return;
    event.preventDefault();
    openIfHttps(url, policy);
  });
  contents.setWindowOpenHandler(({ url }) => {
    openIfHttps(url, policy);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}
