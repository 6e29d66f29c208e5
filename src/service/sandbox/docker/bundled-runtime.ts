import { existsSync } from 'node:fs';
import path from 'node:path';

/** Where a bundled runtime is copied inside a sandbox container (`bin/` is added to the server's PATH). */
export const RUNTIME_DIR = '/opt/dockhand';
export const RUNTIME_BIN = `${RUNTIME_DIR}/bin`;

/** The commands a bundled runtime can stand in for (uv is not bundled). */
export type BundledCommand = 'node' | 'npx';

/** What the bundled runtime is resolved from: the process the service runs in. */
export interface HostProcess {
  execPath: string;
  platform: NodeJS.Platform;
  arch: string;
  versions: { electron?: string };
  resourcesPath?: string;
}

/** The host's Node runtime that can be copied into a sandbox. */
export interface BundledNode {
  /** The node binary. */
  node: string;
  /** npm's package folder (`<prefix>/lib/node_modules/npm`), needed for `npx`; null when absent. */
  npm: string | null;
  /** The `uname -m` values of machines the binary runs on. */
  machines: string[];
}

const MACHINES: Record<string, string[]> = {
  x64: ['x86_64'],
  arm64: ['aarch64', 'arm64'],
  arm: ['armv7l', 'armv8l'],
  ppc64: ['ppc64le'],
  s390x: ['s390x'],
  riscv64: ['riscv64'],
};

export function isBundledCommand(command: string): command is BundledCommand {
  return command === 'node' || command === 'npx';
}

/**
 * The Node runtime to copy into sandboxes: the binary the service runs on, or in the packaged app (where
 * that is Electron) the Node distribution shipped in `resources/node/` (`bin/node`, `lib/node_modules/npm`).
 * Null when there is none, or when the host is not Linux (its binary would not run in a Linux container).
 */
export function bundledNode(host: HostProcess = process): BundledNode | null {
  const machines = MACHINES[host.arch];
  if (host.platform !== 'linux' || !machines) return null;
  const node = host.versions.electron
    ? host.resourcesPath && path.join(host.resourcesPath, 'node', 'bin', 'node')
    : host.execPath;
  if (!node || !existsSync(node)) return null;
  const npm = path.join(path.dirname(path.dirname(node)), 'lib', 'node_modules', 'npm');
  return { node, npm: existsSync(path.join(npm, 'bin', 'npx-cli.js')) ? npm : null, machines };
}

/** Whether the runtime can provide `command` (`npx` needs npm beside node). */
export function provides(runtime: BundledNode, command: BundledCommand): boolean {
  return command === 'node' || runtime.npm !== null;
}
