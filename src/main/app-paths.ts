import path from 'node:path';
import { APP_ENTRY_URL, APP_ORIGIN, originOf } from './page-origin';

/** What Electron reports about where the app runs from. */
export interface AppLayout {
  isPackaged: boolean;
  /** `app.getAppPath()`: the project folder in development, `<resources>/app.asar` when packaged. */
  appPath: string;
  /** `process.resourcesPath`: where electron-builder's extraResources land. */
  resourcesPath: string;
}

export interface AppPaths {
  /** The built renderer, served under app://dockhand. */
  rendererDir: string;
  /** The sandboxed preload; CommonJS, because sandboxed preloads cannot be ES modules. */
  preloadFile: string;
  /** The sandbox image build context (its Dockerfile). */
  sandboxDir: string;
}

export function resolveAppPaths(layout: AppLayout): AppPaths {
  return {
    rendererDir: path.join(layout.appPath, 'out', 'renderer'),
    preloadFile: path.join(layout.appPath, 'out', 'preload', 'index.cjs'),
    sandboxDir: layout.isPackaged
      ? path.join(layout.resourcesPath, 'sandbox')
      : path.join(layout.appPath, 'resources', 'sandbox'),
  };
}

export interface RendererEntry {
  url: string;
  /** The only origin trusted with the connection, navigation and permissions. */
  origin: string;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The page the window loads: the built renderer on app://dockhand, or, in development only, the
 * electron-vite dev server (ELECTRON_RENDERER_URL) when it is an http URL on this machine.
 */
export function resolveRendererEntry(isPackaged: boolean, env: NodeJS.ProcessEnv): RendererEntry {
  const devUrl = env.ELECTRON_RENDERER_URL;
  if (!isPackaged && devUrl) {
    const parsed = URL.canParse(devUrl) ? new URL(devUrl) : null;
    const origin = originOf(devUrl);
    if (parsed?.protocol === 'http:' && LOOPBACK_HOSTS.has(parsed.hostname) && origin) {
      return { url: devUrl, origin };
    }
  }
  return { url: APP_ENTRY_URL, origin: APP_ORIGIN };
}

/** DOCKHAND_DATA_DIR replaces Electron's userData folder (isolated data for tests), else null. */
export function dataDirOverride(env: NodeJS.ProcessEnv): string | null {
  return env.DOCKHAND_DATA_DIR ? path.resolve(env.DOCKHAND_DATA_DIR) : null;
}
