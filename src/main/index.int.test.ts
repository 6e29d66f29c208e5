import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GET_CONNECTION_CHANNEL } from '../preload/bridge';
import type { InvokeEvent } from './connection-ipc';
import * as fake from '../../test/support/fake-electron';
import { preventable } from '../../test/support/main-fakes';

// The real main process wired to a fake `electron` module: the Electron binary cannot run here, so
// this checks the composition (service start, protocol, IPC, window, quit) against the real service.
vi.mock('electron', async () => (await import('../../test/support/fake-electron')).electronModule);

const ROOT = path.resolve(import.meta.dirname, '../..');
const SESSION_KEY = 'main-process-wiring-test-key';
const ENV_NAMES = [
  'DOCKHAND_DATA_DIR',
  'DOCKHAND_SECRETS',
  'DOCKHAND_SESSION_API_KEY',
  'ELECTRON_RENDERER_URL',
];

// One run of the main process, from start to quit: the quit case ends it, so the cases keep their order.
describe('the main process, wired to a fake Electron', { shuffle: false }, () => {
  let dataDir: string;
  const savedEnv = new Map(ENV_NAMES.map((name) => [name, process.env[name]]));
  const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
  const signalListeners = new Map(SIGNALS.map((signal) => [signal, process.listeners(signal)]));

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'dockhand-main-'));
    process.env.DOCKHAND_DATA_DIR = dataDir;
    process.env.DOCKHAND_SECRETS = 'file';
    process.env.DOCKHAND_SESSION_API_KEY = SESSION_KEY;
    delete process.env.ELECTRON_RENDERER_URL;
    fake.app.appPath = ROOT;
    await import('./index');
    await vi.waitFor(() => expect(fake.windows).toHaveLength(1), { timeout: 30_000, interval: 50 });
  });

  afterAll(async () => {
    if (fake.app.exitCodes.length === 0) {
      fake.app.quit();
      await vi.waitFor(() => expect(fake.app.exitCodes).toHaveLength(1), { timeout: 30_000 });
    }
    // index.ts quits on these signals; the test process must keep its own behaviour.
    for (const [signal, before] of signalListeners) {
      for (const listener of process.listeners(signal)) {
        if (!before.includes(listener)) process.off(signal, listener);
      }
    }
    for (const [name, value] of savedEnv) {
      if (value === undefined) Reflect.deleteProperty(process.env, name);
      else process.env[name] = value;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  const window = () => fake.windows[0] ?? expect.fail('no window');
  const askConnection = (event: InvokeEvent) => {
    const handler = fake.ipcHandlers.get(GET_CONNECTION_CHANNEL) ?? expect.fail('no connection handler');
    return Promise.resolve().then(() => handler(event)) as Promise<{ baseUrl: string; apiKey: string }>;
  };
  const fromMainWindow = (): InvokeEvent => ({
    sender: { id: window().webContents.id },
    senderFrame: { url: 'app://dockhand/index.html', parent: null },
  });

  it('prepares Electron before ready: data folder, privileged app:// scheme, sandbox', () => {
    expect(fake.app.getPath('userData')).toBe(dataDir);
    expect(fake.privilegedSchemes).toEqual([
      { scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) },
    ]);
    expect(fake.app.sandboxed).toBe(true);
    expect(fake.errorBoxes).toEqual([]);
  });

  it('opens one secure window on the app:// page with the CommonJS preload', () => {
    expect(window().options.webPreferences).toMatchObject({
      preload: path.join(ROOT, 'out', 'preload', 'index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    });
    expect(window().loadedUrls).toEqual(['app://dockhand/index.html']);
    expect(fake.applicationMenus).toHaveLength(1);
  });

  it('hands the main window a connection that works against the running service', async () => {
    const { baseUrl, apiKey } = await askConnection(fromMainWindow());
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(apiKey).toBe(SESSION_KEY);
    const keyed = (key: string) =>
      fetch(`${baseUrl}/server_info`, { headers: { 'X-Session-API-Key': key, Origin: 'app://dockhand' } });
    const response = await keyed(apiKey);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('app://dockhand');
    expect((await response.json()) as { data_dir: string }).toMatchObject({ data_dir: dataDir });
    expect((await keyed('not-the-session-key')).status).toBe(401);
  });

  it('refuses the connection to another page', async () => {
    await expect(
      askConnection({
        sender: { id: window().webContents.id },
        senderFrame: { url: 'https://evil.example/', parent: null },
      }),
    ).rejects.toThrow(/may not read/);
  });

  it('serves app:// with a CSP that lets the page reach exactly the service', async () => {
    const { baseUrl } = await askConnection(fromMainWindow());
    const handler = fake.protocolHandlers.get('app') ?? expect.fail('no app:// handler');
    const response = await handler(new Request('app://dockhand/index.html'));
    expect(response.headers.get('content-security-policy')).toContain(
      `connect-src ${baseUrl} ${baseUrl.replace(/^http:/, 'ws:')};`,
    );
    const built = existsSync(path.join(ROOT, 'out', 'renderer', 'index.html'));
    expect(response.status).toBe(built ? 200 : 404);
    const check = fake.permissionChecks[0] ?? expect.fail('no permission check handler');
    expect(check(null, 'loopback-network', 'app://dockhand')).toBe(true);
    expect(check(null, 'media', 'app://dockhand')).toBe(false);
  });

  it('quits by closing the service once, then exiting with 0', async () => {
    const { baseUrl } = await askConnection(fromMainWindow());
    const first = preventable();
    fake.app.emit('before-quit', first);
    fake.app.emit('before-quit', preventable());
    expect(first.prevented).toBe(true);
    await vi.waitFor(() => expect(fake.app.exitCodes).toEqual([0]), { timeout: 30_000, interval: 50 });
    expect(fake.ipcHandlers.has(GET_CONNECTION_CHANNEL)).toBe(false);
    await expect(fetch(`${baseUrl}/alive`)).rejects.toThrow();
    expect(existsSync(path.join(dataDir, 'server.json'))).toBe(false);
    expect(existsSync(path.join(dataDir, 'logs', 'dockhand.log'))).toBe(true);
  });
});
