import { EventEmitter } from 'node:events';

/**
 * A stand-in for the parts of the `electron` module that index.ts uses, recording what the main
 * process does with them; tests install it with `vi.mock('electron', ...)`.
 */
class FakeApp extends EventEmitter {
  isPackaged = false;
  name = 'Dockhand';
  appPath = '';
  sandboxed = false;
  readonly exitCodes: number[] = [];
  private readonly paths = new Map<string, string>();

  getAppPath = () => this.appPath;
  getPath = (name: string) => this.paths.get(name) ?? `/nonexistent/${name}`;
  setPath = (name: string, value: string) => void this.paths.set(name, value);
  enableSandbox = () => void (this.sandboxed = true);
  requestSingleInstanceLock = () => true;
  whenReady = () => Promise.resolve();
  quit = () => void this.emit('before-quit', { preventDefault: () => {} });
  exit = (code: number) => void this.exitCodes.push(code);
}

export const app = new FakeApp();
export const windows: FakeBrowserWindow[] = [];
export const ipcHandlers = new Map<string, (event: unknown) => unknown>();
export const protocolHandlers = new Map<string, (request: Request) => Promise<Response>>();
export const privilegedSchemes: { scheme: string; privileges: Record<string, boolean> }[] = [];
export const permissionChecks: ((webContents: unknown, permission: string, origin: string) => boolean)[] = [];
export const applicationMenus: unknown[] = [];
export const errorBoxes: string[] = [];

class FakeBrowserWindow extends EventEmitter {
  readonly webContents = Object.assign(new EventEmitter(), {
    id: 100 + windows.length,
    setWindowOpenHandler: () => {},
  });
  readonly loadedUrls: string[] = [];

  constructor(readonly options: { webPreferences?: Record<string, unknown> }) {
    super();
    windows.push(this);
  }

  loadURL(url: string): Promise<void> {
    this.loadedUrls.push(url);
    return Promise.resolve();
  }

  show(): void {}
}

export const electronModule = {
  app,
  BrowserWindow: FakeBrowserWindow,
  dialog: { showErrorBox: (title: string) => void errorBoxes.push(title) },
  ipcMain: {
    handle: (channel: string, listener: (event: unknown) => unknown) =>
      void ipcHandlers.set(channel, listener),
    removeHandler: (channel: string) => void ipcHandlers.delete(channel),
  },
  Menu: {
    buildFromTemplate: (template: unknown) => template,
    setApplicationMenu: (menu: unknown) => void applicationMenus.push(menu),
  },
  protocol: {
    registerSchemesAsPrivileged: (schemes: typeof privilegedSchemes) =>
      void privilegedSchemes.push(...schemes),
    handle: (scheme: string, handler: (request: Request) => Promise<Response>) =>
      void protocolHandlers.set(scheme, handler),
  },
  session: {
    defaultSession: {
      setPermissionRequestHandler: () => {},
      setPermissionCheckHandler: (handler: (typeof permissionChecks)[number]) =>
        void permissionChecks.push(handler),
    },
  },
  shell: { openExternal: () => Promise.resolve(), openPath: () => Promise.resolve('') },
};
