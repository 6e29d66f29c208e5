import { setTimeout as sleep } from 'node:timers/promises';
import type Docker from 'dockerode';
import type { Logger } from 'pino';
import { HttpError, httpError } from '../../http/errors';
import type { FileSurvey, SurveyRoot } from '../files/sandbox-files';
import { containerName, volumeName } from '../sandbox-id';
import { type ObservedState, SandboxFailure, type SandboxRecord, type SandboxSpec } from '../sandbox-models';
import type { CreateRequest, SandboxProvider } from '../sandbox-provider';
import type { ExecResult } from '../sandbox-workspace';
import {
  APP_PORTS,
  containerOptions,
  exposedUrls,
  type NetworkMode,
  type SandboxLimits,
  WORKSPACE_DIR,
} from './container-options';
import { REMOVED_OUTSIDE_DOCKHAND, statusOf } from './container-state';
import { dockerErrorText, dockerStatusCode, ignoringGone } from './docker-errors';
import { dockerExec } from './docker-exec';
import { DockerEventWatcher } from './docker-events';
import { type DockerImages, type ImageContents, isRootUser } from './docker-images';
import { type DockerConnection, DockerUnavailable, reasonText } from './docker-status';
import { firstProbeCommand, readAheadOf } from './first-probe';
import { installFilter, LABEL } from './labels';
import { LentFolders } from './lent-folders';
import { ensureSandboxNetwork } from './sandbox-network';
import { DockerWorkspace } from './docker-workspace';

/** api-contract §14: a sandbox whose probe keeps failing this long goes to ERROR. */
const PROBE_FAILURE_LIMIT_MS = 30_000;
const PROBE_INTERVAL_MS = 250;
const STOP_TIMEOUT_S = 10;

export interface DockerProviderConfig {
  network: NetworkMode;
  limits: SandboxLimits;
  allowSudo: boolean;
}

/** The folders a new sandbox's first probe reads ahead, for its working dir (see `takeReadAhead`). */
export type ReadAheadRoots = (workingDir: string) => SurveyRoot[];

interface OwnContainer {
  container: Docker.Container;
  info: Docker.ContainerInspectInfo;
}

const REMOVED_OUTSIDE: ObservedState = {
  status: 'MISSING',
  error: REMOVED_OUTSIDE_DOCKHAND,
  exposedUrls: [],
};

/**
 * Sandboxes as Docker containers (`dockhand-<id>`) with a named volume at /workspace, kept live from the
 * engine's events. Only containers labelled with this install's id are ever touched.
 */
export class DockerSandboxProvider implements SandboxProvider {
  readonly kind = 'docker' as const;
  readonly isolated = true;
  private watcher: DockerEventWatcher | null = null;
  /** What each new container's first probe read ahead, until its sandbox's start takes it. */
  private readonly readAheads = new Map<string, FileSurvey>();
  private readonly lent: LentFolders;

  constructor(
    private readonly connection: DockerConnection,
    private readonly images: DockerImages,
    private readonly instanceId: string,
    private readonly config: DockerProviderConfig,
    private readonly logger: Logger,
    private readonly readAheadRoots: ReadAheadRoots = () => [],
  ) {
    this.lent = new LentFolders(connection.client);
  }

  async ensureAvailable(): Promise<void> {
    await this.connection.require();
  }

  async create(request: CreateRequest): Promise<ObservedState> {
    const { id, spec, signal } = request;
    if (request.pooled) {
      const claimed = await this.claimPooled(id);
      if (claimed) return claimed;
      // The pooled container is gone or broken: a fresh one of the same id takes its place.
      await this.removePooled(id);
    }
    // Where the spec's image cannot be had, Dockhand's own image stands in.
    const { image, contents } = await this.images.prepare(spec.id, signal);
    return this.startContainer(id, { ...spec, id: image }, contents, {
      onCreated: request.onCreated,
      signal,
    });
  }

  /**
   * Makes a warm-pool container: created, started and made ready like a sandbox's (no secrets exist at this
   * point: they go per exec once claimed), then paused. Never pulls: an absent image is a SandboxFailure.
   */
  async createPooled(
    id: string,
    spec: SandboxSpec,
    signal: AbortSignal,
  ): Promise<{ containerId: string; imageId: string }> {
    const image = await this.images.inspect(spec.id);
    if (!image) throw new SandboxFailure(`Image ${spec.id} is not present yet`);
    const { contents } = await this.images.prepare(spec.id, signal);
    let containerId = '';
    await this.startContainer(id, spec, contents, {
      pooled: true,
      signal,
      onCreated: (created) => (containerId = created),
    });
    signal.throwIfAborted();
    await this.connection.client.getContainer(containerId).pause();
    return { containerId, imageId: image.Id };
  }

  /** Removes a warm-pool container (paused or not) with its volume, at once. */
  async removePooled(id: string): Promise<void> {
    this.readAheads.delete(id);
    const found = await this.ownContainer(id);
    if (found) await ignoringGone(() => found.container.remove({ force: true }));
    await this.removeVolume(id);
  }

  /** The sandbox ids of this install's warm-pool containers, claimed or not. */
  async pooledIds(): Promise<string[]> {
    const containers = await this.connection.client.listContainers({
      all: true,
      filters: { label: [...installFilter(this.instanceId), `${LABEL.pool}=true`] },
    });
    return containers.flatMap((info) => info.Labels[LABEL.sandboxId] ?? []);
  }

  /** The id of the image `image` names now, or null when it is absent. */
  async imageId(image: string): Promise<string | null> {
    return (await this.images.inspect(image))?.Id ?? null;
  }

  pause(record: SandboxRecord): Promise<ObservedState> {
    return this.guard('pause', async () => {
      const found = await this.ownContainer(record.id);
      if (!found) return REMOVED_OUTSIDE;
      if (found.info.State.Status === 'running') await found.container.pause();
      return { status: 'PAUSED', error: null, exposedUrls: [] };
    });
  }

  resume(record: SandboxRecord): Promise<ObservedState> {
    return this.guard('resume', async () => {
      const found = await this.ownContainer(record.id);
      if (!found) return REMOVED_OUTSIDE;
      const state = found.info.State.Status;
      if (state === 'paused') await found.container.unpause();
      else if (state !== 'running') await found.container.start();
      return this.waitUntilReady(found.container, ['true']);
    });
  }

  remove(record: SandboxRecord): Promise<void> {
    this.readAheads.delete(record.id);
    return this.guard('delete', async () => {
      const found = await this.ownContainer(record.id);
      if (found) {
        const { container, info } = found;
        if (info.State.Status === 'paused') await ignoringGone(() => container.unpause());
        await ignoringGone(() => container.stop({ t: STOP_TIMEOUT_S }));
        await ignoringGone(() => container.remove({ force: true }));
      }
      await this.removeVolume(record.id);
    });
  }

  async observe(record: SandboxRecord): Promise<ObservedState> {
    let found: OwnContainer | null;
    try {
      found = await this.ownContainer(record.id);
    } catch (error) {
      const diagnosis = await this.connection.diagnose();
      if ('apiVersion' in diagnosis) throw error;
      return { status: 'ERROR', error: `Docker is not available: ${reasonText(diagnosis)}`, exposedUrls: [] };
    }
    if (!found) return REMOVED_OUTSIDE;
    const state = found.info.State;
    // Created but never started (Dockhand stopped in between): resume starts it.
    if (state.Status === 'created') return { status: 'PAUSED', error: null, exposedUrls: [] };
    const { status, error } = statusOf(state);
    if (state.Status !== 'running') return { status, error, exposedUrls: [] };
    // Already known to be ready (e.g. the event of its own start): no second probe.
    if (record.status === 'RUNNING')
      return { status: 'RUNNING', error: null, exposedUrls: record.exposedUrls };
    return this.waitUntilReady(found.container, ['true']);
  }

  watch(changed: (sandboxId: string | null) => void): void {
    this.watcher = new DockerEventWatcher(
      this.connection,
      this.instanceId,
      { changed, connectionChanged: () => changed(null) },
      this.logger,
    );
    this.watcher.start();
  }

  takeReadAhead(id: string): FileSurvey | null {
    const survey = this.readAheads.get(id) ?? null;
    this.readAheads.delete(id);
    return survey;
  }

  async workspace(record: SandboxRecord): Promise<DockerWorkspace> {
    const found = await this.guard('inspect', () => this.ownContainer(record.id));
    if (!found) throw new SandboxFailure(REMOVED_OUTSIDE.error ?? 'The container is missing');
    const config = found.info.Config;
    return new DockerWorkspace({
      sandboxId: record.id,
      container: this.connection.client.getContainer(containerName(record.id)),
      user: config.User && !isRootUser(config.User) ? config.User : null,
      workspaceDir: WORKSPACE_DIR,
      workingDir: config.WorkingDir || WORKSPACE_DIR,
      appPorts: { ...APP_PORTS },
      lent: this.lent,
    });
  }

  async close(): Promise<void> {
    this.watcher?.close();
  }

  /** Creates and starts a sandbox's container, then waits until it is ready (RUNNING). */
  private async startContainer(
    id: string,
    spec: SandboxSpec,
    contents: ImageContents,
    options: { signal: AbortSignal; pooled?: boolean; onCreated?: (containerId: string) => void },
  ): Promise<ObservedState> {
    const { signal } = options;
    signal.throwIfAborted();
    if (!contents.hasBash) {
      throw new SandboxFailure(`Image ${spec.id} has no /bin/bash; choose an image that provides it.`);
    }
    if (this.config.network === 'bridge') await ensureSandboxNetwork(this.connection.client);
    const container = await this.connection.client.createContainer(
      containerOptions({
        sandboxId: id,
        instanceId: this.instanceId,
        spec,
        user: contents.user,
        pooled: options.pooled ?? false,
        ...this.config,
      }),
    );
    options.onCreated?.(container.id);
    signal.throwIfAborted();
    await container.start();
    const probe = {
      workspaceDir: WORKSPACE_DIR,
      workingDir: spec.workingDir,
      user: contents.user,
      roots: this.readAheadRoots(spec.workingDir),
    };
    return this.waitUntilReady(container, firstProbeCommand(probe), (result) => {
      const survey = readAheadOf(result, probe);
      if (survey) this.readAheads.set(id, survey);
    });
  }

  /**
   * Claims a warm-pool container for its sandbox: unpaused, it is ready at once (it was before it was
   * paused). Null when it is not this install's, is gone, or cannot run.
   */
  private async claimPooled(id: string): Promise<ObservedState | null> {
    try {
      const found = await this.ownContainer(id);
      if (!found) return null;
      const state = found.info.State.Status;
      if (state === 'paused') await found.container.unpause();
      else if (state !== 'running') return null;
      return {
        status: 'RUNNING',
        error: null,
        exposedUrls: exposedUrls(
          found.info.HostConfig.NetworkMode as NetworkMode,
          found.info.NetworkSettings.Ports,
        ),
      };
    } catch (error) {
      this.logger.warn({ sandbox: id, err: error }, 'Could not claim the warm-pool container');
      return null;
    }
  }

  /** Removes the sandbox's volume when it is this install's. */
  private async removeVolume(id: string): Promise<void> {
    const volume = this.connection.client.getVolume(volumeName(id));
    const volumeInfo = await volume.inspect().catch((error: unknown) => {
      if (dockerStatusCode(error) === 404) return null;
      throw error;
    });
    if (volumeInfo && volumeInfo.Labels?.[LABEL.instance] === this.instanceId) {
      await ignoringGone(() => volume.remove());
    }
  }

  /**
   * Runs a Docker operation for a request: a lost engine becomes 503 and a refusal by the engine a 409 with
   * its words, so that neither reads as a bug (500).
   */
  private async guard<T>(action: string, operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof HttpError || error instanceof SandboxFailure) throw error;
      const diagnosis = await this.connection.diagnose();
      if (!('apiVersion' in diagnosis)) throw new DockerUnavailable(diagnosis);
      if (dockerStatusCode(error) !== undefined) {
        throw httpError(409, `Docker could not ${action} the sandbox: ${dockerErrorText(error)}`);
      }
      throw error;
    }
  }

  /** The sandbox's container with its inspect data, or null when it is gone or not this install's. */
  private async ownContainer(sandboxId: string): Promise<OwnContainer | null> {
    const container = this.connection.client.getContainer(containerName(sandboxId));
    let info: Docker.ContainerInspectInfo;
    try {
      info = await container.inspect();
    } catch (error) {
      if (dockerStatusCode(error) === 404) return null;
      throw error;
    }
    const labels = info.Config.Labels ?? {};
    if (labels[LABEL.instance] !== this.instanceId || labels[LABEL.sandboxId] !== sandboxId) return null;
    return { container, info };
  }

  /**
   * Probes with `docker exec` (as root) until a probe passes, then reports RUNNING with the published ports.
   * A probe that runs and fails, a container that stops, or 30 s of probes that cannot run: SandboxFailure.
   */
  private async waitUntilReady(
    container: Docker.Container,
    probe: string[],
    passed: (result: ExecResult) => void = () => undefined,
  ): Promise<ObservedState> {
    const deadline = Date.now() + PROBE_FAILURE_LIMIT_MS;
    for (;;) {
      let lastError: string;
      try {
        const result = await dockerExec(container, probe);
        if (result.exitCode === 0) {
          passed(result);
          break;
        }
        const output = result.stderr.trim() || result.stdout.trim();
        throw new SandboxFailure(
          `The sandbox's readiness probe failed (exit code ${result.exitCode})${output ? `: ${output}` : ''}`,
        );
      } catch (error) {
        if (error instanceof SandboxFailure) throw error;
        lastError = dockerErrorText(error);
      }
      const info = await container.inspect();
      if (info.State.Status !== 'running') {
        const exit = info.State.OOMKilled ? 'out of memory' : `exit code ${info.State.ExitCode}`;
        throw new SandboxFailure(`The sandbox stopped while starting (${exit})`);
      }
      if (Date.now() > deadline) {
        throw new SandboxFailure(`The sandbox did not become ready within 30 s: ${lastError}`);
      }
      await sleep(PROBE_INTERVAL_MS);
    }
    const info = await container.inspect();
    return {
      status: 'RUNNING',
      error: null,
      exposedUrls: exposedUrls(info.HostConfig.NetworkMode as NetworkMode, info.NetworkSettings.Ports),
    };
  }
}
