import { existsSync } from 'node:fs';
import path from 'node:path';

/** What the host's Node runtime is resolved from: the process the service runs in. */
export interface HostProcess {
  execPath: string;
  platform: NodeJS.Platform;
  arch: string;
  versions: { electron?: string };
  resourcesPath?: string;
}

/**
 * The Node runtime of this computer: the binary the service runs on, or in the packaged app (where that is
 * Electron) the Node distribution shipped in `resources/node/` (`bin/node`, `lib/node_modules/npm`), with
 * npm's package folder when it is there. Null when there is none.
 */
export function hostNode(host: HostProcess = process): { node: string; npm: string | null } | null {
  const node = host.versions.electron
    ? host.resourcesPath && path.join(host.resourcesPath, 'node', 'bin', 'node')
    : host.execPath;
  if (!node || !existsSync(node)) return null;
  const npm = path.join(path.dirname(path.dirname(node)), 'lib', 'node_modules', 'npm');
  return { node, npm: existsSync(path.join(npm, 'bin', 'npx-cli.js')) ? npm : null };
}
