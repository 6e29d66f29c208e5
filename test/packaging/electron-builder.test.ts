import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveAppPaths } from '../../src/main/app-paths';
import { bundledNode } from '../../src/service/sandbox/docker/bundled-runtime';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CONFIG_FILE = path.join(ROOT, 'electron-builder.json');

interface FileSet {
  from: string;
  to: string;
  filter?: string[];
}

interface BuilderConfig {
  appId: string;
  productName: string;
  files: string[];
  asarUnpack: string[];
  extraResources: FileSet[];
  npmRebuild: boolean;
  electronFuses: Record<string, boolean>;
  linux: { target: string[]; icon: string; extraResources: FileSet[] };
  mac: { target: string[]; icon: string };
  win: { target: string[]; icon: string };
}

const config = JSON.parse(readFileSync(CONFIG_FILE, 'utf8')) as BuilderConfig;

// electron-builder's own loader and schema check, from the electron-builder install.
const builderConfig = createRequire(import.meta.url)('app-builder-lib/out/util/config/config') as {
  getConfig(projectDir: string): Promise<{ appId?: string }>;
  validateConfiguration(config: unknown, debugLogger: { isEnabled: boolean; add(): void }): Promise<void>;
};

function pngSize(file: string): { width: number; height: number } {
  const data = readFileSync(file);
  expect(data.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(data.toString('ascii', 12, 16)).toBe('IHDR');
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith(suffix))
    .map((name) => path.join(dir, name));
}

describe('electron-builder.json', () => {
  it('gives the deb package the maintainer address and homepage it requires', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      author?: { email?: string };
      homepage?: string;
    };
    expect(config.linux.target).toContain('deb');
    expect(pkg.author?.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
    expect(pkg.homepage).toMatch(/^https:\/\//);
  });

  it('is the configuration electron-builder loads from the project folder', async () => {
    const loaded = await builderConfig.getConfig(ROOT);
    expect(loaded.appId).toBe('dev.dockhand.app');
  });

  it("passes electron-builder's schema, which rejects misspelt options", async () => {
    const quiet = { isEnabled: false, add: () => {} };
    await expect(builderConfig.validateConfiguration(config, quiet)).resolves.toBeUndefined();
    const misspelt = { ...config, electronFuses: { ...config.electronFuses, runAsNod: false } };
    await expect(builderConfig.validateConfiguration(misspelt, quiet)).rejects.toThrow(/configuration/);
  }, 60_000); // compiling electron-builder's JSON schema takes seconds on a busy machine

  it('names the app', () => {
    expect(config.appId).toBe('dev.dockhand.app');
    expect(config.productName).toBe('Dockhand');
  });

  it('names every target: AppImage and deb, dmg, nsis', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
  });

  it('points at icon files that exist, at the sizes each platform needs', () => {
    const linuxIcons = path.join(ROOT, config.linux.icon);
    expect(pngSize(path.join(linuxIcons, '512x512.png'))).toEqual({ width: 512, height: 512 });
    expect(pngSize(path.join(linuxIcons, '1024x1024.png'))).toEqual({ width: 1024, height: 1024 });
    for (const name of readdirSync(linuxIcons).filter((n) => /^\d+x\d+\.png$/.test(n))) {
      const size = Number(name.split('x')[0]);
      expect(pngSize(path.join(linuxIcons, name)), name).toEqual({ width: size, height: size });
    }

    const icns = readFileSync(path.join(ROOT, config.mac.icon));
    expect(icns.toString('ascii', 0, 4)).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);

    const ico = readFileSync(path.join(ROOT, config.win.icon));
    expect(ico.readUInt16LE(2)).toBe(1);
    const widths = Array.from({ length: ico.readUInt16LE(4) }, (_, i) => ico[6 + i * 16] || 256);
    expect(widths).toContain(256);
  });

  it('packs the built app and package.json, whose main is inside it', () => {
    expect(config.files).toEqual(['out/**', 'package.json']);
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { main: string };
    expect(config.files.some((pattern) => path.matchesGlob(pkg.main, pattern))).toBe(true);
  });

  it("keeps keytar's native binary outside the asar and rebuilds native modules for Electron", () => {
    // test/packaging/production-install.int.test.ts checks every binary of a production install.
    expect(config.asarUnpack).toEqual(['**/node_modules/keytar/**']);
    const binaries = filesUnder(path.join(ROOT, 'node_modules', 'keytar'), '.node');
    expect(binaries.length).toBeGreaterThan(0);
    for (const binary of binaries) {
      const relative = path.relative(ROOT, binary).split(path.sep).join('/');
      expect(
        config.asarUnpack.some((pattern) => path.matchesGlob(relative, pattern)),
        relative,
      ).toBe(true);
    }
    expect(config.npmRebuild).toBe(true);
  });

  it('ships the pinned Node binary on Linux where the packaged service finds the runtime it lends sandboxes', () => {
    const node = config.linux.extraResources.find((set) => set.from === '.tools/node/bin/node');
    if (!node) throw new Error('.tools/node/bin/node is not in linux.extraResources');
    // Lay the resource out as electron-builder does, then ask the service where its runtime is.
    const resourcesPath = mkdtempSync(path.join(os.tmpdir(), 'dockhand-resources-'));
    try {
      const shipped = path.join(resourcesPath, node.to);
      mkdirSync(path.dirname(shipped), { recursive: true });
      copyFileSync(path.join(ROOT, node.from), shipped);
      const host = {
        execPath: '/opt/Dockhand/dockhand',
        platform: 'linux',
        arch: 'x64',
        resourcesPath,
      } as const;
      expect(bundledNode({ ...host, versions: { electron: '45.4.1' } })?.node).toBe(shipped);
    } finally {
      rmSync(resourcesPath, { recursive: true, force: true });
    }
  });

  it('ships the sandbox Dockerfile where the packaged app looks for it', () => {
    const sandbox = config.extraResources.find((set) => set.from === 'resources/sandbox');
    if (!sandbox) throw new Error('resources/sandbox is not in extraResources');
    expect(existsSync(path.join(ROOT, sandbox.from, 'Dockerfile'))).toBe(true);
    expect(sandbox.filter ?? ['**/*']).toEqual(['**/*']);
    const resourcesPath = '/opt/Dockhand/resources';
    const packaged = resolveAppPaths({
      isPackaged: true,
      appPath: path.join(resourcesPath, 'app.asar'),
      resourcesPath,
    });
    expect(packaged.sandboxDir).toBe(path.join(resourcesPath, sandbox.to));
  });

  it('sets the Electron fuses', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });
});
