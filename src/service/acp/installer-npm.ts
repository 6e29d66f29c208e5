import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { hostNode } from '../sandbox/host-node';
import type { InstallerNpm } from './agent-installs';

/**
 * The npm that installs coding agents, run on this computer's Node: the npm shipped beside that Node (the
 * packaged app's), else the `npm` on the PATH (its `npm-cli.js`, as a Node installed from a package links
 * it). Null when there is neither.
 */
export function installerNpm(environment: NodeJS.ProcessEnv): InstallerNpm | null {
  const node = hostNode();
  if (!node) return null;
  if (node.npm) return { node: node.node, npmCli: path.join(node.npm, 'bin', 'npm-cli.js') };
  for (const dir of (environment.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, 'npm');
    if (!existsSync(candidate)) continue;
    const target = realpathSync(candidate);
    if (path.basename(target) === 'npm-cli.js') return { node: node.node, npmCli: target };
  }
  return null;
}
