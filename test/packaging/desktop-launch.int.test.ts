/**
 * `scripts/dockhand.sh` with no arguments: set-up (which builds the app), then the built app in the Electron
 * binary. Our machines cannot download Electron, so a stand-in executable takes its place through the
 * electron package's own ELECTRON_OVERRIDE_DIST_PATH and records how it was started. Set-up is idempotent: after
 * scripts/test.sh ran it, it only rebuilds what changed (and, the binary being found, downloads nothing).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DOCKHAND = path.join(ROOT, 'scripts', 'dockhand.sh');
const ELECTRON_BINARY = path.join(ROOT, 'scripts', 'lib', 'electron-binary.ts');

describe('scripts/dockhand.sh, the desktop app', () => {
  let distDir: string;
  let record: string;

  beforeAll(() => {
    distDir = mkdtempSync(path.join(os.tmpdir(), 'dockhand-electron-dist-'));
    record = path.join(distDir, 'started.json');
    const standIn = path.join(distDir, 'electron');
    writeFileSync(standIn, `#!/bin/sh\nprintf '{"cwd":"%s","args":"%s"}' "$PWD" "$*" > '${record}'\n`);
    chmodSync(standIn, 0o755);
  });

  afterAll(() => {
    rmSync(distDir, { recursive: true, force: true });
  });

  it('builds the app, then starts the built app (package.json main) in the Electron binary', () => {
    const env = { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: distDir };
    execFileSync('bash', [DOCKHAND], {
      cwd: os.tmpdir(),
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 600_000,
    });
    expect(JSON.parse(readFileSync(record, 'utf8'))).toEqual({ cwd: ROOT, args: '.' });
    const { main } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { main: string };
    expect(main).toBe('out/main/index.js');
    expect(existsSync(path.join(ROOT, main))).toBe(true);
    expect(existsSync(path.join(ROOT, 'out', 'renderer', 'index.html'))).toBe(true);
    // The build is newer than every source it was made from.
    const newer = execFileSync(
      'find',
      ['src', 'electron.vite.config.ts', 'package-lock.json', '-newer', 'out/.built', '-print', '-quit'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(newer).toBe('');
  }, 600_000);

  it('names the binary it finds, or says why there is none and how to get it', () => {
    const found = spawnSync(process.execPath, [ELECTRON_BINARY], {
      env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: distDir },
      encoding: 'utf8',
    });
    expect(found).toMatchObject({ status: 0, stdout: `${path.join(distDir, 'electron')}\n` });

    const empty = mkdtempSync(path.join(os.tmpdir(), 'dockhand-electron-empty-'));
    try {
      const missing = spawnSync(process.execPath, [ELECTRON_BINARY], {
        env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: empty },
        encoding: 'utf8',
      });
      expect(missing.status).toBe(1);
      expect(missing.stdout).toBe('');
      expect(missing.stderr).toContain(`No Electron binary: ${path.join(empty, 'electron')} does not exist.`);
      expect(missing.stderr).toContain('npx install-electron --no');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
