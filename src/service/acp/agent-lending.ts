import { spawn } from 'node:child_process';
import path from 'node:path';
import type { AcpAgentSpec } from './agent-catalog';
import { bundledNode } from '../sandbox/docker/bundled-runtime';
import type { SandboxWorkspace } from '../sandbox/sandbox-workspace';

/** An installed agent as a sandbox sees it: its folder and the Node that runs it. */
export interface LentAgent {
  dir: string;
  node: string;
}

/** Where agents are lent inside a container: out of the workspace, owned by root, read-only to the agent. */
const LENT_DIR = '/opt/dockhand/agents';
const DONE_MARK = '.dockhand-lent';

/**
 * A `tar` of `entries` under `dir`, owned by root: extracted in a container as the engine's root, the
 * sandbox user can read and run the files but change none of them.
 */
function tarOf(dir: string, entries: string[]): NodeJS.ReadableStream & { done: Promise<void> } {
  const child = spawn('tar', ['-c', '--owner=0', '--group=0', '--numeric-owner', '-C', dir, ...entries], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-2000)));
  const done = new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`tar of ${dir} failed: ${stderr.trim() || code}`)),
    );
  });
  return Object.assign(child.stdout, { done });
}

/**
 * Makes an agent installed on this machine runnable in the sandbox, with Dockhand's own Node (agents need a
 * newer one than an image may have). A process sandbox runs on this machine: the install is used where it
 * is. A container gets a copy in `/opt/dockhand/agents/<kind>-<version>` once (kept while the container
 * lives, through pauses), with the Node binary beside it; the copy is marked done only when complete.
 */
export async function lendAgent(
  workspace: SandboxWorkspace,
  spec: AcpAgentSpec,
  installDir: string,
): Promise<LentAgent> {
  const runtime = bundledNode();
  if (!workspace.isolated) return { dir: installDir, node: runtime?.node ?? 'node' };
  if (!runtime) throw new Error('Dockhand has no Node runtime to lend to the sandbox on this computer.');
  const dir = `${LENT_DIR}/${spec.kind}-${spec.version}`;
  const node = `${dir}/.dockhand/bin/node`;
  if (await workspace.files.stat(`${dir}/${DONE_MARK}`)) return { dir, node };
  const made = await workspace.exec(
    ['sh', '-c', 'rm -rf -- "$1" && mkdir -p -- "$1/.dockhand/bin"', 'sh', dir],
    {
      user: 'root',
    },
  );
  if (made.exitCode !== 0) throw new Error(`Could not make ${dir} in the sandbox: ${made.stderr.trim()}`);
  for (const [from, entries, to] of [
    [installDir, ['.'], dir],
    [path.dirname(runtime.node), [path.basename(runtime.node)], `${dir}/.dockhand/bin`],
  ] as const) {
    const archive = tarOf(from, [...entries]);
    await Promise.all([workspace.files.upload(to, archive), archive.done]);
  }
  const checked = await workspace.exec(
    ['sh', '-c', '"$1" --version >/dev/null && touch -- "$2"', 'sh', node, `${dir}/${DONE_MARK}`],
    { user: 'root' },
  );
  if (checked.exitCode !== 0)
    throw new Error(
      `Dockhand's Node does not run in this sandbox: ${checked.stderr.trim() || checked.exitCode}`,
    );
  return { dir, node };
}
