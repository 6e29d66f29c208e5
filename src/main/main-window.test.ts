import type { BrowserWindowConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { mainWindowOptions, openMainWindow, type ShellWindow } from './main-window';
import { recordingLog } from '../../test/support/main-fakes';

describe('mainWindowOptions', () => {
  it('follows the security checklist and loads the given preload', () => {
    const prefs = mainWindowOptions('/app/out/preload/index.cjs').webPreferences;
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });

  it('stays hidden until the page is ready', () => {
    expect(mainWindowOptions('/p.cjs').show).toBe(false);
  });
});

type Listener = (...args: never[]) => void;

class FakeWindow implements ShellWindow {
  readonly events: string[] = [];
  readonly listeners = new Map<string, Listener>();
  readyToShow: (() => void) | null = null;
  shown = false;

  constructor(
    readonly options: BrowserWindowConstructorOptions,
    private readonly load: (url: string) => Promise<void>,
  ) {}

  webContents = {
    on: (event: string, listener: Listener) => {
      this.events.push(`on:${event}`);
      this.listeners.set(event, listener);
      return this.webContents;
    },
    setWindowOpenHandler: () => void this.events.push('setWindowOpenHandler'),
  };

  once(_event: 'ready-to-show', listener: () => void): this {
    this.readyToShow = listener;
    return this;
  }

  show(): void {
    this.shown = true;
  }

  loadURL(url: string): Promise<void> {
    this.events.push(`loadURL:${url}`);
    return this.load(url);
  }
}

function open(load: (url: string) => Promise<void> = async () => {}) {
  const log = recordingLog();
  let created: FakeWindow | null = null;
  const window = openMainWindow({
    createWindow: (options) => (created = new FakeWindow(options, load)),
    preloadFile: '/app/out/preload/index.cjs',
    entry: { url: 'app://dockhand/index.html', origin: 'app://dockhand' },
    openExternal: async () => {},
    log,
  });
  return { window, created, log };
}

describe('openMainWindow', () => {
  it('creates the window with the secure options', () => {
    const { window, created } = open();
    expect(window).toBe(created);
    expect(window.options.webPreferences?.sandbox).toBe(true);
  });

  it('guards navigation and new windows before loading the page', () => {
    const { window } = open();
    const load = window.events.indexOf('loadURL:app://dockhand/index.html');
    expect(load).toBeGreaterThan(-1);
    for (const guard of ['on:will-navigate', 'setWindowOpenHandler', 'on:will-attach-webview']) {
      const at = window.events.indexOf(guard);
      expect(at, guard).toBeGreaterThan(-1);
      expect(at, guard).toBeLessThan(load);
    }
  });

  it('shows the window once the page is ready', () => {
    const { window } = open();
    expect(window.shown).toBe(false);
    window.readyToShow?.();
    expect(window.shown).toBe(true);
  });

  it('logs a page that fails to load and a renderer that goes away', async () => {
    const { window, log } = open(() => Promise.reject(new Error('ERR_FILE_NOT_FOUND')));
    await new Promise((resolve) => setImmediate(resolve));
    (window.listeners.get('render-process-gone') as (event: unknown, details: { reason: string }) => void)(
      {},
      { reason: 'crashed' },
    );
    expect(log.entries.map((e) => [e.level, e.message])).toEqual([
      ['error', 'The window could not load the app'],
      ['error', 'The window stopped; View > Reload restarts it'],
    ]);
  });
});
