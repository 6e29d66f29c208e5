import { EventEmitter } from 'node:events';
import type Docker from 'dockerode';
import type { Logger } from 'pino';
import type { ImageProgress } from '../../../shared/api/sandbox-specs';
import { readSandboxFile } from '../files/file-stream';
import { SandboxFailure } from '../sandbox-models';
import { dockerErrorText } from './docker-errors';
import type { DockerConnection } from './docker-status';
import { installLabels, LABEL } from './labels';
import { buildOwnImage, type OwnImage } from './own-image';

/** An image's /etc/passwd is read for its login user; past this it is treated as absent. */
const MAX_PASSWD_BYTES = 1024 * 1024;
/** api-contract §15: a pull may take up to 15 minutes. */
const PULL_TIMEOUT_MS = 15 * 60 * 1000;
/** Building the own image offline makes a Debian base first (about 3 minutes here). */
const BUILD_TIMEOUT_MS = 20 * 60 * 1000;

/** What Dockhand needs to know about an image's files before it runs a sandbox from it. */
export interface ImageContents {
  /** The non-root user to run as (the image's USER, else a login user in /etc/passwd), or null for root. */
  user: string | null;
  hasBash: boolean;
}

/** The image a sandbox runs, with what it holds. */
export interface PreparedImage {
  /** The configured image, or Dockhand's own one when the configured one could not be had. */
  image: string;
  contents: ImageContents;
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

/** Waits for `task`, or rejects as soon as `signal` aborts (the task goes on for others). */
async function unlessAborted(task: Promise<void>, signal: AbortSignal): Promise<void> {
  await Promise.race([
    task,
    new Promise<never>((_, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    }),
  ]);
}

/**
 * Images on the engine: whether one is present, pulls and builds with progress (one at a time per image,
 * shared by every sandbox that waits for it), and what an image holds (its user, bash), learned once per
 * image id. When the configured image is missing and cannot be pulled, sandboxes run Dockhand's own image,
 * built first when it is missing too.
 */
export class DockerImages {
  private readonly pulls = new Map<string, Promise<void>>();
  private readonly builds = new Map<string, Promise<void>>();
  private readonly progressByImage = new Map<string, ImageProgress>();
  private readonly contentsById = new Map<string, Promise<ImageContents>>();
  private readonly notices = new EventEmitter();

  constructor(
    private readonly connection: DockerConnection,
    private readonly instanceId: string,
    private readonly ownImage: OwnImage,
    private readonly logger: Logger,
  ) {
    this.notices.setMaxListeners(0);
  }

  /** Calls `listener` with each progress message about getting `image` (pull, build, substitution). */
  onNotice(image: string, listener: (message: string) => void): () => void {
    this.notices.on(image, listener);
    return () => this.notices.off(image, listener);
  }

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
   * The image to run for `image` (see `available`), with what it holds: its user and whether it has bash.
   */
  async prepare(image: string, signal: AbortSignal): Promise<PreparedImage> {
    const used = await this.available(image, signal);
    const info = await this.inspect(used);
    if (!info) throw new SandboxFailure(`Image ${used} is missing although it was just pulled or built`);
    return { image: used, contents: await this.contents(used, info.Id, info.Config?.User ?? '') };
  }

  /**
   * `image` when present or pulled; else Dockhand's own image, built first when it is missing too (the own
   * image itself is never pulled: no registry has it).
   */
  async available(image: string, signal: AbortSignal): Promise<string> {
    if (await this.inspect(image)) return image;
    const own = this.ownImage.name;
    let pullError: string | null = null;
    if (image !== own) {
      try {
        await unlessAborted(
          this.shared(this.pulls, image, () => this.pull(image)),
          signal,
        );
        return image;
      } catch (error) {
        if (signal.aborted) throw error;
        pullError = error instanceof Error ? error.message : String(error);
      }
      const present = (await this.inspect(own)) !== null;
      const message =
        `${image} could not be pulled (${pullError}); using Dockhand's own image ${own}` +
        (present ? '' : ', built first');
      this.logger.warn({ image, own }, message);
      this.notices.emit(image, message);
      if (present) return own;
    }
    await unlessAborted(
      this.shared(this.builds, own, () => this.build(image, pullError)),
      signal,
    );
    return own;
  }

  /** The pull or build of `key` under way, else a new one from `start`. */
  private shared(running: Map<string, Promise<void>>, key: string, start: () => Promise<void>) {
    let task = running.get(key);
    if (!task) {
      task = start().finally(() => running.delete(key));
      running.set(key, task);
    }
    return task;
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
      const passwd = await readSandboxFile(
        { download: (path) => probe.getArchive({ path }) },
        '/etc/passwd',
        MAX_PASSWD_BYTES,
      ).then(
        (bytes) => bytes.toString('utf8'),
        () => '',
      );
      return { user: loginUser(passwd), hasBash };
    } finally {
      await probe.remove({ force: true });
    }
  }

  /** Builds the own image for sandboxes that asked for `requested`; its progress shows on both. */
  private async build(requested: string, pullError: string | null): Promise<void> {
    const own = this.ownImage.name;
    const show = (progress: ImageProgress) => {
      for (const image of new Set([own, requested])) this.progressByImage.set(image, progress);
    };
    let logged = '';
    this.logger.info({ image: own }, `Building the sandbox image ${own}`);
    try {
      await buildOwnImage(
        this.ownImage,
        ({ percent, message }) => {
          const text = `Building the sandbox image ${own}: ${message}`;
          show({ state: 'building', percent, message: text });
          this.notices.emit(requested, text);
          if (text !== logged) this.logger.info({ image: own, percent }, (logged = text));
        },
        AbortSignal.timeout(BUILD_TIMEOUT_MS),
      );
      for (const image of [own, requested]) this.progressByImage.delete(image);
      this.logger.info({ image: own }, `Built the sandbox image ${own}`);
    } catch (error) {
      const message =
        (pullError ? `Image ${requested} could not be pulled (${pullError}), and ` : '') +
        `Dockhand's own image ${own} could not be built: ${error instanceof Error ? error.message : String(error)}. ` +
        `Build it with \`npm run sandbox:image\`, or choose an image that is present.`;
      show({ state: 'failed', percent: null, message });
      this.logger.warn({ image: own }, message);
      throw new SandboxFailure(message);
    }
  }

  /** Pulls the image with progress; rejects with the engine's reason. */
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
              this.notices.emit(image, `Pulling ${image}: ${percent}%`);
            }
          },
        );
      });
      const failure = events.find((event) => event.error);
      if (failure?.error) throw new Error(failure.error);
      this.logger.info({ image }, `Pulled sandbox image ${image}`);
    } catch (error) {
      throw new Error(dockerErrorText(error), { cause: error });
    } finally {
      this.progressByImage.delete(image);
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
