import type Docker from 'dockerode';
import type { Logger } from 'pino';
import type { FileSurvey, SurveyRoot } from '../files/sandbox-files';
import { containerName } from '../sandbox-id';
import { type ObservedState, SandboxFailure, type SandboxRecord, type SandboxSpec } from '../sandbox-models';
import type { CreateRequest, SandboxProvider } from '../sandbox-provider';
import type { EgressService } from '../link/egress-service';
import { type ForwardTarget, SandboxLink } from '../link/sandbox-link';
import {
  APP_PORTS,
  containerOptions,
  exposedUrls,
  type NetworkMode,
  networkOf,
  type SandboxLimits,
  WORKSPACE_DIR,
} from './container-options';
import { REMOVED_OUTSIDE_DOCKHAND, statusOf } from './container-state';
import { ignoringGone } from './docker-errors';
import { DockerEventWatcher } from './docker-events';
import { type DockerImages, type ImageContents, isRootUser } from './docker-images';
import { type DockerConnection, reasonText } from './docker-status';
import { firstProbeCommand, readAheadOf } from './first-probe';
import { installFilter, LABEL } from './labels';
import { LentFolders } from './lent-folders';
import { ensureSandboxNetwork } from './sandbox-network';
import { DockerWorkspace } from './docker-workspace';
import { WarmPool, type WarmPoolDeps } from './warm-pool';
import { guarded, type OwnContainer, ownContainer, removeOwnVolume } from './own-container';
import { waitUntilReady } from './readiness-probe';
import { SandboxLinks } from './sandbox-links';

const STOP_TIMEOUT_S = 10;

export interface DockerProviderConfig {
  /** The network of new sandboxes, read at each creation (the setting may change). */
  network: () => NetworkMode;
  limits: SandboxLimits;
  allowSudo: boolean;
  /** Decides what gated sandboxes' links let out. */
  egress: EgressService;
}

/** What the warm pool reads of the service: its size, the default spec, and which sandboxes have a record. */
export type WarmPoolOptions = Omit<WarmPoolDeps, 'provider' | 'logger'>;
/** Network modes whose sandboxes get a link: gated for everything, bridge for the port previews. */
const LINKED: NetworkMode[] = ['gated', 'bridge'];

/** The folders a new sandbox's first probe reads ahead, for its working dir (see `takeReadAhead`). */
export type ReadAheadRoots = (workingDir: string) => SurveyRoot[];

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
  /** Paused containers of the default spec, claimed by the sandbox service's `create`. */
  readonly pool: WarmPool;
  private watcher: DockerEventWatcher | null = null;
  /** What each new container's first probe read ahead, until its sandbox's start takes it. */
  private readonly readAheads = new Map<string, FileSurvey>();
  private readonly lent: LentFolders;
  private readonly links: SandboxLinks;
  private changed: (sandboxId: string | null) => void = () => undefined;

  constructor(
    private readonly connection: DockerConnection,
    private readonly images: DockerImages,
    private readonly instanceId: string,
    private readonly config: DockerProviderConfig,
    private readonly logger: Logger,
    pool: WarmPoolOptions,
    private readonly readAheadRoots: ReadAheadRoots = () => [],
  ) {
    this.lent = new LentFolders(connection.client);
    this.pool = new WarmPool({ ...pool, provider: this, logger });
    this.links = new SandboxLinks({
      egress: config.egress,
      changed: (id) => this.changed(id),
      workspaceOf: (id, info) => this.workspaceOf(id, info),
      logger,
    });
  }

  async ensureAvailable(): Promise<void> {
    await this.connection.require();
  }

  async create(request: CreateRequest): Promise<ObservedState> {
    const { id, spec, signal } = request;
    if (this.pool.takeClaim(id)) {
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
    this.links.close(id);
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
      this.links.close(record.id);
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
      await waitUntilReady(found.container, ['true']);
      return this.linked(record.id, found.container);
    });
  }

  remove(record: SandboxRecord): Promise<void> {
    this.readAheads.delete(record.id);
    this.links.forget(record.id);
    this.config.egress.forget(record.id);
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
    if (state.Status !== 'running') {
      this.links.close(record.id);
      return { status, error, exposedUrls: [] };
    }
    // Already known to be ready (e.g. the event of its own start, or its previews changed): no second probe.
    if (record.status !== 'RUNNING') await waitUntilReady(found.container, ['true']);
    return this.linked(record.id, found.container);
  }

  watch(changed: (sandboxId: string | null) => void): void {
    this.changed = changed;
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
    return this.workspaceOf(record.id, found.info);
  }

  /** The running sandbox's link (null for host and none networks, or while it is not running). */
  link(sandboxId: string): SandboxLink | null {
    return this.links.get(sandboxId);
  }

  /**
   * Makes `port` on the sandbox's loopback lead to `target` on the service's side, now if its link runs and
   * again whenever its link starts (after a resume); until the sandbox is removed.
   */
  async forwardIn(sandboxId: string, port: number, target: ForwardTarget): Promise<void> {
    await this.links.forwardIn(sandboxId, port, target);
  }

  /** This machine's ports the links listen on (no sandbox's proxy may reach them). */
  linkHostPorts(): number[] {
    return this.links.hostPorts();
  }

  async close(): Promise<void> {
    this.watcher?.close();
    this.links.closeAll();
  }

  private workspaceOf(sandboxId: string, info: Docker.ContainerInspectInfo): DockerWorkspace {
    const config = info.Config;
    return new DockerWorkspace({
      sandboxId,
      container: this.connection.client.getContainer(containerName(sandboxId)),
      user: config.User && !isRootUser(config.User) ? config.User : null,
      workspaceDir: WORKSPACE_DIR,
      workingDir: config.WorkingDir || WORKSPACE_DIR,
      appPorts: { ...APP_PORTS },
      lent: this.lent,
    });
  }

  /**
   * A ready container as RUNNING, with its link started when its network has one (a gated sandbox whose link
   * cannot start fails: it would have no way out) and its previews among the exposed URLs.
   */
  private async linked(id: string, container: Docker.Container): Promise<ObservedState> {
    const info = await container.inspect();
    const network = networkOf(info);
    const fixed = exposedUrls(network, info.NetworkSettings.Ports);
    if (!LINKED.includes(network)) return { status: 'RUNNING', error: null, exposedUrls: fixed };
    let link: SandboxLink | null;
    try {
      // Once more when the start beside the first probe came too early.
      link = await this.links.ensure(id, info).catch(() => this.links.ensure(id, info));
    } catch (error) {
      if (network === 'gated')
        throw new SandboxFailure(error instanceof Error ? error.message : String(error));
      this.logger.warn({ sandbox: id, err: error }, 'The sandbox link did not start: no port previews');
      link = null;
    }
    return { status: 'RUNNING', error: null, exposedUrls: [...fixed, ...(link?.previewUrls() ?? [])] };
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
    const network = this.config.network();
    if (network === 'bridge') await ensureSandboxNetwork(this.connection.client);
    const container = await this.connection.client.createContainer(
      containerOptions({
        sandboxId: id,
        instanceId: this.instanceId,
        spec,
        user: contents.user,
        pooled: options.pooled ?? false,
        network,
        limits: this.config.limits,
        allowSudo: this.config.allowSudo,
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
    // The link starts beside the first probe (a start that came too early is tried again by `linked`).
    if (LINKED.includes(network)) {
      void container
        .inspect()
        .then((info) => this.links.ensure(id, info))
        .catch(() => undefined);
    }
    await waitUntilReady(container, firstProbeCommand(probe), (result) => {
      const survey = readAheadOf(result, probe);
      if (survey) this.readAheads.set(id, survey);
    });
    // A pooled container's link starts now too and stays through the pool's pause: a claim finds it running.
    return this.linked(id, container);
  }

  /**
   * Claims a warm-pool container for its sandbox: unpaused, it is ready at once (it was before it was
   * paused). Null when it is not this install's, is gone, or cannot run.
   */
  private async claimPooled(id: string): Promise<ObservedState | null> {
    let found: OwnContainer | null;
    try {
      found = await this.ownContainer(id);
      // Made before the network setting changed: a fresh container takes its place.
      if (!found || networkOf(found.info) !== this.config.network()) return null;
      const state = found.info.State.Status;
      if (state === 'paused') await found.container.unpause();
      else if (state !== 'running') return null;
    } catch (error) {
      this.logger.warn({ sandbox: id, err: error }, 'Could not claim the warm-pool container');
      return null;
    }
    return this.linked(id, found.container);
  }

  private guard<T>(action: string, operation: () => Promise<T>): Promise<T> {
    return guarded(this.connection, action, operation);
  }

  private ownContainer(sandboxId: string): Promise<OwnContainer | null> {
    return ownContainer(this.connection.client, this.instanceId, sandboxId);
  }

  private removeVolume(sandboxId: string): Promise<void> {
    return removeOwnVolume(this.connection.client, this.instanceId, sandboxId);
  }
}
