import { hostNode, type HostProcess } from '../host-node';

export type { HostProcess };

/** Where a bundled runtime is copied inside a sandbox container (`bin/` is added to the server's PATH). */
export const RUNTIME_DIR = '/opt/dockhand';
export const RUNTIME_BIN = `${RUNTIME_DIR}/bin`;

/** The commands a bundled runtime can stand in for (uv is not bundled). */
export type BundledCommand = 'node' | 'npx';

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
 * The Node runtime to copy into sandboxes: the host's (`../host-node.ts`), when the host is Linux on a CPU
 * the container can run (a binary of another system would not run in a Linux container). Null otherwise.
 */
export function bundledNode(host: HostProcess = process): BundledNode | null {
  const machines = MACHINES[host.arch];
  const node = hostNode(host);
  if (host.platform !== 'linux' || !machines || !node) return null;
  return { ...node, machines };
}

/** Whether the runtime can provide `command` (`npx` needs npm beside node). */
export function provides(runtime: BundledNode, command: BundledCommand): boolean {
  return command === 'node' || runtime.npm !== null;
}
