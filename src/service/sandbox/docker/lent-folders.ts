import { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { pack } from 'tar-stream';
import { addTree } from './archive-tree';
import { dockerExec } from './docker-exec';
import { LABEL } from './labels';

/**
 * The volume that holds folders lent to every sandbox of this engine (installed coding agents), mounted
 * read-only at LENT_DIR. Its entries are immutable (a name carries its version), so installs of Dockhand on
 * one engine share it, and a container made before a folder was lent sees it as soon as it is.
 */
export const LENT_VOLUME = 'dockhand-lent';
export const LENT_DIR = '/opt/dockhand-lent';

/** The read-only mount of the lent folders in a sandbox container. */
export function lentMount(): Docker.MountSettings {
  return {
    Type: 'volume',
    Source: LENT_VOLUME,
    Target: LENT_DIR,
    ReadOnly: true,
    VolumeOptions: {
      NoCopy: true,
      Labels: { [LABEL.managed]: 'true' },
      DriverConfig: { Name: 'local', Options: {} },
    },
  };
}

const NAME = /^[a-z0-9][a-z0-9._@-]*$/;

/**
 * Copies host folders into the lent volume, once per name, through a short-lived container that mounts the
 * volume writable (the sandboxes never do). The copy lands under `<name>.partial` and is renamed when
 * complete, so a sandbox sees a lent folder whole or not at all; an interrupted copy is redone.
 */
export class LentFolders {
  private readonly copies = new Map<string, Promise<string>>();

  constructor(private readonly docker: Docker) {}

  /** The folder's path in every sandbox; `image` runs the copy (any image with `sh`, `rm` and `mv`). */
  lend(folder: string, name: string, image: string): Promise<string> {
    if (!NAME.test(name)) throw new Error(`not a lent folder name: ${name}`);
    let copy = this.copies.get(name);
    if (!copy) {
      copy = this.copy(folder, name, image);
      this.copies.set(name, copy);
      // A failed copy is retried by the next call.
      copy.catch(() => this.copies.delete(name));
    }
    return copy;
  }

  private async copy(folder: string, name: string, image: string): Promise<string> {
    const container = await this.docker.createContainer({
      Image: image,
      Cmd: ['sleep', 'infinity'],
      User: 'root',
      Labels: { [LABEL.managed]: 'true', [LABEL.probe]: 'true' },
      HostConfig: {
        NetworkMode: 'none',
        CapDrop: ['ALL'],
        CapAdd: ['CHOWN', 'DAC_OVERRIDE', 'FOWNER'],
        SecurityOpt: ['no-new-privileges'],
        Mounts: [{ ...lentMount(), ReadOnly: false }],
      },
    });
    try {
      await container.start();
      const present = await dockerExec(container, ['test', '-d', `${LENT_DIR}/${name}`]);
      if (present.exitCode === 0) return `${LENT_DIR}/${name}`;
      await run(container, ['rm', '-rf', `${LENT_DIR}/${name}.partial`]);
      const archive = pack();
      const written = addTree(archive, `${name}.partial`, folder)
        .then(() => archive.finalize())
        .catch((error: unknown) => {
          archive.destroy(error instanceof Error ? error : new Error(String(error)));
          throw error;
        });
      await Promise.all([written, container.putArchive(Readable.from(archive), { path: LENT_DIR })]);
      await run(container, ['mv', '-T', `${LENT_DIR}/${name}.partial`, `${LENT_DIR}/${name}`]);
      return `${LENT_DIR}/${name}`;
    } finally {
      await container.remove({ force: true }).catch(() => undefined);
    }
  }
}

async function run(container: Docker.Container, argv: string[]): Promise<void> {
  const result = await dockerExec(container, argv);
  if (result.exitCode !== 0) throw new Error(`${argv.join(' ')}: ${result.stderr.trim() || result.exitCode}`);
}
