import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundledNode, type HostProcess, provides } from './bundled-runtime';

let root: string;

/** A Node distribution folder: `bin/node`, and npm's package when asked. */
function distribution(folder: string, withNpm: boolean): string {
  mkdirSync(path.join(folder, 'bin'), { recursive: true });
  writeFileSync(path.join(folder, 'bin', 'node'), '');
  if (withNpm) {
    mkdirSync(path.join(folder, 'lib', 'node_modules', 'npm', 'bin'), { recursive: true });
    writeFileSync(path.join(folder, 'lib', 'node_modules', 'npm', 'bin', 'npx-cli.js'), '');
  }
  return path.join(folder, 'bin', 'node');
}

function host(overrides: Partial<HostProcess>): HostProcess {
  return { execPath: '/nowhere/node', platform: 'linux', arch: 'x64', versions: {}, ...overrides };
}

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('bundledNode', () => {
  it('is the node binary the service runs on, with the npm beside it', () => {
    root = mkdtempSync(path.join(tmpdir(), 'bundled-node-'));
    const node = distribution(root, true);
    const runtime = bundledNode(host({ execPath: node }));
    expect(runtime).toEqual({
      node,
      npm: path.join(root, 'lib', 'node_modules', 'npm'),
      machines: ['x86_64'],
    });
    expect(runtime && provides(runtime, 'npx')).toBe(true);
  });

  it('provides node but not npx when npm is not beside the binary', () => {
    root = mkdtempSync(path.join(tmpdir(), 'bundled-node-'));
    const runtime = bundledNode(host({ execPath: distribution(root, false), arch: 'arm64' }));
    expect(runtime).toMatchObject({ npm: null, machines: ['aarch64', 'arm64'] });
    expect(runtime && provides(runtime, 'node')).toBe(true);
    expect(runtime && provides(runtime, 'npx')).toBe(false);
  });

  it('in Electron is the Node distribution in resources/node, or none', () => {
    root = mkdtempSync(path.join(tmpdir(), 'bundled-node-'));
    const electron = distribution(path.join(root, 'app'), true);
    const resources = path.join(root, 'resources');
    const packaged = host({ execPath: electron, versions: { electron: '38.0.0' }, resourcesPath: resources });
    expect(bundledNode(packaged)).toBeNull();
    const node = distribution(path.join(resources, 'node'), true);
    expect(bundledNode(packaged)).toMatchObject({
      node,
      npm: path.join(resources, 'node', 'lib', 'node_modules', 'npm'),
    });
  });

  it('is none off Linux or on an unknown architecture', () => {
    root = mkdtempSync(path.join(tmpdir(), 'bundled-node-'));
    const node = distribution(root, true);
    expect(bundledNode(host({ execPath: node, platform: 'darwin' }))).toBeNull();
    expect(bundledNode(host({ execPath: node, arch: 'mips' }))).toBeNull();
    expect(bundledNode(host({ execPath: path.join(root, 'missing') }))).toBeNull();
  });
});
