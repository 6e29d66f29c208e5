import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import type { AgentFolder } from './acp-host';
import { bundledNode } from '../sandbox/docker/bundled-runtime';
import { hostNode } from '../sandbox/host-node';
import type { SandboxWorkspace } from '../sandbox/sandbox-workspace';

/** An installed agent as a sandbox sees it: its folder and the Node that runs it. */
export interface LentAgent {
  dir: string;
  node: string;
}

/** The lent name of a Node binary's folder: unique per binary (its path, size and time), as lent names must be. */
function nodeName(node: string): string {
  const { size, mtimeMs } = statSync(node);
  return `node-${createHash('sha256').update(`${node}:${size}:${mtimeMs}`).digest('hex').slice(0, 16)}`;
}

/**
 * Makes an installed agent runnable in the sandbox: its folder lent read-only (`SandboxWorkspace.lend`),
 * and this computer's Node lent beside it, which runs Node agents (they need a newer Node than an image may
 * have; a container needs a Linux binary of its CPU).
 */
export async function lendAgent(workspace: SandboxWorkspace, agent: AgentFolder): Promise<LentAgent> {
  const node = workspace.isolated ? bundledNode()?.node : hostNode()?.node;
  if (!node) throw new Error('This computer has no Node runtime that can run coding agents in the sandbox.');
  const [dir, nodeDir] = await Promise.all([
    workspace.lend(agent.folder, agent.lentName),
    workspace.lend(path.dirname(node), nodeName(node)),
  ]);
  return { dir, node: path.posix.join(nodeDir, path.basename(node)) };
}
