import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { pack, type Pack } from 'tar-stream';
import { addFile, addTree } from './archive-tree';
import { dockerExec } from './docker-exec';
import { type BundledCommand, type BundledNode, provides, RUNTIME_BIN, RUNTIME_DIR } from './bundled-runtime';

const NPM_DIR = `${RUNTIME_DIR}/lib/node_modules/npm`;
const NPX_SHIM = `#!/bin/sh\nexec ${RUNTIME_BIN}/node ${NPM_DIR}/bin/npx-cli.js "$@"\n`;

/** Copies into one container run one after another (two servers may need node at once). */
const copies = new Map<string, Promise<boolean>>();

/** Archive paths are relative to `/`. */
const inArchive = (absolute: string) => absolute.slice(1);

/** Writes the runtime's archive: `bin/node`, and for `npx` npm's folder and an `npx` shim. */
async function writeArchive(archive: Pack, runtime: BundledNode, command: BundledCommand): Promise<void> {
  const addDirectory = (dir: string) =>
    archive.entry({ name: inArchive(dir), type: 'directory', mode: 0o755 });
  ['/opt', RUNTIME_DIR, RUNTIME_BIN].forEach(addDirectory);
  const node = await stat(runtime.node);
  await addFile(archive, inArchive(`${RUNTIME_BIN}/node`), runtime.node, 0o755, node.size);
  if (command === 'npx' && runtime.npm) {
    [`${RUNTIME_DIR}/lib`, `${RUNTIME_DIR}/lib/node_modules`].forEach(addDirectory);
    await addTree(archive, inArchive(NPM_DIR), runtime.npm);
    archive.entry({ name: inArchive(`${RUNTIME_BIN}/npx`), mode: 0o755 }, NPX_SHIM);
  }
  archive.finalize();
}

/** Whether the copied command runs in the container (a copy may exist but not run, e.g. on musl). */
async function runs(container: Docker.Container, installed: string): Promise<boolean> {
  return (await dockerExec(container, [installed, '--version'])).exitCode === 0;
}

async function copyRuntime(
  container: Docker.Container,
  runtime: BundledNode,
  command: BundledCommand,
): Promise<boolean> {
  const installed = `${RUNTIME_BIN}/${command}`;
  if (await runs(container, installed)) return true;
  const machine = (await dockerExec(container, ['uname', '-m'])).stdout.trim();
  if (!runtime.machines.includes(machine)) return false;
  const archive = pack();
  const written = writeArchive(archive, runtime, command).catch((error: unknown) => {
    archive.destroy(error instanceof Error ? error : new Error(String(error)));
    throw error;
  });
  await Promise.all([written, container.putArchive(Readable.from(archive), { path: '/' })]);
  return runs(container, installed);
}

/**
 * Puts Dockhand's bundled Node runtime into `/opt/dockhand/bin` of a container that lacks `command`
 * (`node`, or `npx` when npm is bundled too), if the container's machine matches the host's. Resolves to
 * whether `command` can now run from there; an existing copy is reused.
 */
export function provideBundledRuntime(
  container: Docker.Container,
  runtime: BundledNode | null,
  command: BundledCommand,
): Promise<boolean> {
  if (!runtime || !provides(runtime, command)) return Promise.resolve(false);
  const previous = copies.get(container.id) ?? Promise.resolve();
  // A copy that fails leaves the command missing: the caller gives the missing-command warning.
  const copy = previous.then(() => copyRuntime(container, runtime, command)).catch(() => false);
  copies.set(container.id, copy);
  void copy.then(() => {
    if (copies.get(container.id) === copy) copies.delete(container.id);
  });
  return copy;
}
