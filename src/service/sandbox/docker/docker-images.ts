import type Docker from 'dockerode';
import type { Logger } from 'pino';
import { extract } from 'tar-stream';
import type { ImageProgress } from '../../../shared/api/sandbox-specs';
import { SandboxFailure } from '../sandbox-provider';
import { dockerErrorText } from './docker-errors';
import type { DockerConnection } from './docker-status';
import { installLabels, LABEL } from './labels';

/** §15: a pull may take up to 15 minutes. */
const PULL_TIMEOUT_MS = 15 * 60 * 1000;

/** What Dockhand needs to know about an image's files before it runs a sandbox from it. */
export interface ImageContents {
  /** The non-root user to run as (the image's USER, else a login user in /etc/passwd), or null for root. */
  user: string | null;
  hasBash: boolean;
}

interface PullEvent {
  id?: string;
  status?: string;
  error?: string;
  progressDetail?: { current?: number; total?: number };
}

/** Chooses the non-root login user of an /etc/passwd: `dockhand`, else uid 1000, else the lowest uid >= 1000. */
export function loginUser(passwd: string): string | null {
  const users = passwd
    .split('\n')
    .map((line) => line.split(':'))
    .filter((fields) => fields.length >= 7)
    .map(([name = '', , uid = '', , , , shell = '']) => ({ name, uid: Number(uid), shell }))
    .filter((u) => u.uid >= 1000 && u.uid < 65534 && !/(nologin|false)$/.test(u.shell))
    .sort((a, b) => a.uid - b.uid);
  const chosen = users.find((u) => u.name === 'dockhand') ?? users.find((u) => u.uid === 1000) ?? users[0];
  return chosen?.name ?? null;
}

export function isRootUser(user: string): boolean {
  return /^(root|0)(:.*)?$/.test(user);
}

async function readArchivedFile(archive: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const tar = extract();
    let content: string | null = null;
    tar.on('entry', (_header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
      stream.on('end', () => {
        content ??= Buffer.concat(chunks).toString('utf8');
        next();
      });
      stream.resume();
    });
    tar.on('finish', () => resolve(content ?? ''));
    tar.on('error', reject);
    archive.pipe(tar);
  });
}

/**
 * Images on the engine: whether one is present, pulls with progress (shared by every sandbox that waits
 * for the same image), and what an image holds (its user, bash), learned once per image id.
 */
export class DockerImages {
  private readonly pulls = new Map<string, Promise<void>>();
  private readonly progressByImage = new Map<string, ImageProgress>();
  private readonly contentsById = new Map<string, Promise<ImageContents>>();

  constructor(
    private readonly connection: DockerConnection,
    private readonly instanceId: string,
    /** The image `npm run sandbox:image` builds, named in pull failures. */
    private readonly offlineImage: string,
    private readonly logger: Logger,
  ) {}

  /** The image's inspect data, or null when it is absent or Docker is not available. */
  async inspect(image: string): Promise<Docker.ImageInspectInfo | null> {
    try {
      return await this.connection.client.getImage(image).inspect();
    } catch {
      return null;
    }
  }

  /** The pull under way, or the last failed one (null when none). */
  progress(image: string): ImageProgress | null {
    return this.progressByImage.get(image) ?? null;
  }

  /**
   * Pulls the image unless it is present (a failure names the offline image as the fix), then tells what it
   * holds: its user and whether it has bash.
   */
  async prepare(image: string, signal: AbortSignal): Promise<ImageContents> {
    let info = await this.inspect(image);
    if (!info) {
      let pull = this.pulls.get(image);
      if (!pull) {
        pull = this.pull(image).finally(() => this.pulls.delete(image));
        this.pulls.set(image, pull);
      }
      await Promise.race([
        pull,
        new Promise<never>((_, reject) => {
          if (signal.aborted) reject(signal.reason);
          signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        }),
      ]);
      info = await this.inspect(image);
      if (!info) throw new SandboxFailure(`Image ${image} is missing although its pull succeeded`);
    }
    return this.contents(image, info.Id, info.Config?.User ?? '');
  }

  /** Read once per image id, from a container that is never started. */
  private contents(image: string, imageId: string, configuredUser: string): Promise<ImageContents> {
    let contents = this.contentsById.get(imageId);
    if (!contents) {
      contents = this.readContents(this.connection.client, image, configuredUser);
      contents.catch(() => this.contentsById.delete(imageId));
      this.contentsById.set(imageId, contents);
    }
    return contents;
  }

  private async readContents(docker: Docker, image: string, configuredUser: string): Promise<ImageContents> {
    const probe = await docker.createContainer({
      Image: image,
      Cmd: ['true'],
      Labels: { ...installLabels(this.instanceId), [LABEL.probe]: 'image' },
      HostConfig: { NetworkMode: 'none' },
    });
    try {
      const hasBash = await probe.infoArchive({ path: '/bin/bash' }).then(
        () => true,
        () => false,
      );
      if (configuredUser) return { user: isRootUser(configuredUser) ? null : configuredUser, hasBash };
      const passwd = await probe
        .getArchive({ path: '/etc/passwd' })
        .then(readArchivedFile)
        .catch(() => '');
      return { user: loginUser(passwd), hasBash };
    } finally {
      await probe.remove({ force: true });
    }
  }

  private async pull(image: string): Promise<void> {
    const docker = this.connection.client;
    this.progressByImage.set(image, { state: 'pulling', percent: null, message: `Pulling ${image}` });
    this.logger.info({ image }, `Pulling sandbox image ${image}`);
    try {
      const stream = await docker.pull(image, { abortSignal: AbortSignal.timeout(PULL_TIMEOUT_MS) });
      const events = await new Promise<PullEvent[]>((resolve, reject) => {
        const layers = new Map<string, { current: number; total: number }>();
        let logged = -10;
        docker.modem.followProgress(
          stream,
          (error: Error | null, output: PullEvent[]) => (error ? reject(error) : resolve(output)),
          (event: PullEvent) => {
            const percent = this.track(image, event, layers);
            if (percent !== null && percent >= logged + 10) {
              logged = percent;
              this.logger.info({ image, percent }, `Pulling ${image}: ${percent}%`);
            }
          },
        );
      });
      const failure = events.find((event) => event.error);
      if (failure?.error) throw new Error(failure.error);
      this.progressByImage.delete(image);
      this.logger.info({ image }, `Pulled sandbox image ${image}`);
    } catch (error) {
      const message =
        `Image ${image} is not present and could not be pulled: ${dockerErrorText(error)}. ` +
        `Build the offline image with \`npm run sandbox:image\` and set DOCKHAND_SANDBOX_IMAGE=${this.offlineImage}`;
      this.progressByImage.set(image, { state: 'failed', percent: null, message });
      this.logger.warn({ image }, message);
      throw new SandboxFailure(message);
    }
  }

  /** Updates the pull's progress from one event; returns the overall percent when layer sizes are known. */
  private track(image: string, event: PullEvent, layers: Map<string, { current: number; total: number }>) {
    if (event.id && event.status === 'Downloading' && event.progressDetail?.total) {
      layers.set(event.id, { current: event.progressDetail.current ?? 0, total: event.progressDetail.total });
    } else if (event.id && /^(Download complete|Pull complete)$/.test(event.status ?? '')) {
      const layer = layers.get(event.id);
      if (layer) layer.current = layer.total;
    }
    const total = [...layers.values()].reduce((sum, layer) => sum + layer.total, 0);
    const current = [...layers.values()].reduce(
      (sum, layer) => sum + Math.min(layer.current, layer.total),
      0,
    );
    const percent = total > 0 ? Math.floor((current / total) * 100) : null;
    this.progressByImage.set(image, {
      state: 'pulling',
      percent,
      message: `Pulling ${image}${percent === null ? '' : `: ${percent}%`}`,
    });
    return percent;
  }
}
