import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';
import { electronBinary } from '../scripts/lib/electron-binary';
import { ROOT, SCREENSHOT_DIR } from './support/paths';

const binary = electronBinary();

test('the desktop app opens Home with the connection from its bridge, without asking for a key', async () => {
  if (binary.path === null) {
    console.warn(`Skipping the Electron test: ${binary.reason}`);
    test.skip(true, binary.reason);
    return;
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dockhand-e2e-electron-'));
  const app = await electron.launch({
    executablePath: binary.path,
    args: [ROOT],
    cwd: ROOT,
    env: { ...process.env, DOCKHAND_DATA_DIR: dataDir, DOCKHAND_SECRETS: 'file' },
  });
  try {
    const appWindow = await app.firstWindow();
    await expect(appWindow.getByRole('heading', { name: 'Welcome to Dockhand' })).toBeVisible();
    await expect(appWindow.getByRole('region', { name: 'Service status' })).toContainText('Docker');
    expect(await appWindow.evaluate(() => typeof window.dockhand?.getConnection)).toBe('function');
    await appWindow.screenshot({ path: path.join(SCREENSHOT_DIR, 'electron-home.png') });
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
