import { app, BrowserWindow } from 'electron';
import path from 'node:path';
import { createService } from '../service/index';

// Placeholder shell: the full Electron main process comes with the desktop app.
async function start(): Promise<void> {
  await app.whenReady();
  const service = await createService({ dataDir: app.getPath('userData'), port: 0 });
  const window = new BrowserWindow({
    width: 1280,
    height: 800,
    webPreferences: {
      preload: path.join(import.meta.dirname, '../preload/index.mjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    },
  });
  await window.loadURL(service.url);
  app.on('before-quit', () => void service.close());
}

void start();
