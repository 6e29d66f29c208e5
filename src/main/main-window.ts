import type { BrowserWindowConstructorOptions } from 'electron';
import type { RendererEntry } from './app-paths';
import type { MainLog } from './main-log';
import { type GuardedContents, guardNavigation } from './navigation';

/** The window's settings, per Electron's security checklist. */
export function mainWindowOptions(preloadFile: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 800,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Dockhand',
    backgroundColor: '#0f172a',
    webPreferences: {
      preload: preloadFile,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
    },
  };
}

export type WindowContents = GuardedContents & {
  on(event: 'render-process-gone', listener: (event: unknown, details: { reason: string }) => void): unknown;
};

export interface ShellWindow {
  webContents: WindowContents;
  once(event: 'ready-to-show', listener: () => void): unknown;
  show(): void;
  loadURL(url: string): Promise<void>;
}

/**
 * Creates the main window, guarded before anything loads, and starts loading the page. Returns at once
 * so the caller knows the window before the page can ask for its connection.
 */
export function openMainWindow<W extends ShellWindow>(deps: {
  createWindow: (options: BrowserWindowConstructorOptions) => W;
  preloadFile: string;
  entry: RendererEntry;
  openExternal: (url: string) => Promise<void>;
  log: MainLog;
}): W {
  const window = deps.createWindow(mainWindowOptions(deps.preloadFile));
  guardNavigation(window.webContents, {
    pageOrigin: deps.entry.origin,
    openExternal: deps.openExternal,
    log: deps.log,
  });
  window.webContents.on('render-process-gone', (_event, details) => {
    deps.log.error({ reason: details.reason }, 'The window stopped; View > Reload restarts it');
  });
  window.once('ready-to-show', () => window.show());
  window.loadURL(deps.entry.url).catch((error: unknown) => {
    deps.log.error({ err: error, url: deps.entry.url }, 'The window could not load the app');
  });
  return window;
}
