import type { Logger } from 'pino';
import type { SandboxInfo } from '../../shared/api/sandboxes';
import { HttpError } from '../http/errors';
import type { SessionKey } from '../secrets/session-key';
import type { FileSurvey } from './files/sandbox-files';
import { KeyedQueue } from './keyed-queue';
import { decodeCursor, encodeCursor } from '../http/page-cursor';
import type { NetworkMode } from './docker/container-options';
import type { SandboxConfig } from './sandbox-config';
import { isSandboxId } from './sandbox-id';
import {
  type ExposedUrl,
  type ObservedState,
  sandboxBroken,
  SandboxFailure,
  sandboxNotFound,
  sandboxNotRunning,
  type SandboxProviderKind,
  type SandboxRecord,
  type SandboxSettings,
  type SandboxSpec,
  type SandboxStatus,
} from './sandbox-models';
import type { SandboxPool, SandboxProvider } from './sandbox-provider';
import type { SandboxStore } from './sandbox-store';
import type { SandboxWorkspace } from './sandbox-workspace';
import type { SandboxUsers } from './sandbox-users';
import { type SandboxChangeEvent, SandboxChanges } from './sandbox-changes';
import { sandboxInfo } from './sandbox-info';
import { changesRecord, failureText, observeSandbox } from './sandbox-observation';
import { IdlePause } from './idle-pause';
import { LiveCap } from './live-cap';
import { sandboxSummary } from './sandbox-summary';
import { newSandboxRecord } from './new-sandbox';

export interface SandboxServiceDeps {
  store: SandboxStore;
  providers: Record<SandboxProviderKind, SandboxProvider>;
  /** The settings as they are now. */
  settings: () => SandboxSettings;
  sessionKey: SessionKey;
  config: SandboxConfig;
  /** The conversations on the sandboxes, asked before a sandbox is paused or deleted. */
  users: SandboxUsers;
  /** The sandboxes' agent-server endpoints, reported among the exposed URLs while they listen. */
  agentServerUrls: (sandboxId: string) => ExposedUrl[];
  logger: Logger;
}

const LIVE: SandboxStatus[] = ['STARTING', 'RUNNING'];

/**
 * The sandboxes: their records, the state machine of api-contract §14, the live-sandbox cap, idle pausing,
 * reconciliation with what the providers see, and the workspaces commands run in.
 * Operations on one sandbox run one at a time, in order.
 */
export class SandboxService {
  private readonly queue = new KeyedQueue();
  private readonly starting = new Map<string, AbortController>();
  private readonly changes: SandboxChanges;
  private readonly idlePause: IdlePause;
  private readonly liveCap: LiveCap;

  constructor(private readonly deps: SandboxServiceDeps) {
    this.changes = new SandboxChanges(deps.logger);
    this.idlePause = new IdlePause({
      idleSeconds: deps.config.idlePauseSeconds,
      runningByLastUse: () => deps.store.runningByLastUse(),
      isIdle: (id) => deps.users.isIdle(id),
      pause: (id) => this.queue.run(id, () => this.pauseNow(id)),
      logger: deps.logger,
    });
    this.liveCap = new LiveCap({
      queue: this.queue,
      store: deps.store,
      users: deps.users,
      maxLive: () => this.maxLive(),
      pauseNow: (id) => this.pauseNow(id),
      logger: deps.logger,
    });
  }

  /** Reconciles the records with what the providers see, then keeps them live. */
  async start(): Promise<void> {
    for (const provider of Object.values(this.deps.providers)) {
      provider.watch((sandboxId) => {
        if (sandboxId) void this.refresh(sandboxId);
        else void this.reconcile(provider.kind);
      });
    }
    await this.reconcile();
    for (const pool of this.pools()) void pool.start();
    this.idlePause.start();
  }

  /** Calls `listener` on every status change; returns the function that unsubscribes. */
  onChange(listener: (event: SandboxChangeEvent) => void): () => void {
    return this.changes.on(listener);
  }

  /** The provider new sandboxes get: DOCKHAND_SANDBOX_PROVIDER, else the `sandbox_provider` setting. */
  providerKind(): SandboxProviderKind {
    return this.deps.config.provider ?? this.deps.settings().provider ?? 'docker';
  }

  /** The network of new Docker sandboxes: DOCKHAND_SANDBOX_NETWORK, else the `sandbox_network` setting. */
  networkMode(): NetworkMode {
    return this.deps.config.network ?? this.deps.settings().network;
  }

  /** For /server_info: the provider of new sandboxes, and plainly whether commands are isolated. */
  describe() {
    const kind = this.providerKind();
    return sandboxSummary(this.deps.providers[kind], kind, this.networkMode());
  }

  /**
   * Throws 503 when the provider a conversation would use cannot be used now: its sandbox's provider, or
   * the provider of new sandboxes. Only the Docker provider needs Docker.
   */
  async ensureAvailable(sandboxId: string | null): Promise<void> {
    const record = sandboxId && isSandboxId(sandboxId) ? this.deps.store.get(sandboxId) : null;
    const usable = record && record.status !== 'ERROR' && record.status !== 'MISSING';
    await this.deps.providers[usable ? record.provider : this.providerKind()].ensureAvailable();
  }

  /** The settings changed (pool size, images or provider): the warm pools follow. */
  settingsChanged(): void {
    for (const pool of this.pools()) pool.refill();
  }

  maxLive(): number {
    return this.deps.settings().maxLive;
  }

  /** STARTING and RUNNING sandboxes. */
  liveCount(): number {
    return this.deps.store.countLive();
  }

  find(id: string): SandboxInfo | null {
    const record = isSandboxId(id) ? this.deps.store.get(id) : null;
    return record ? this.info(record) : null;
  }

  get(id: string): SandboxInfo {
    return this.info(this.record(id));
  }

  /** Newest first; MISSING sandboxes only when asked for by status. */
  search(query: { pageId?: string | null; limit: number; status?: SandboxStatus }) {
    const after = query.pageId ? (decodeCursor(query.pageId, 2) as [string, string]) : null;
    const records = this.deps.store.page({
      after,
      limit: query.limit + 1,
      ...(query.status ? { status: query.status } : {}),
    });
    const items = records.slice(0, query.limit);
    const last = items.at(-1);
    return {
      items: items.map((record) => this.info(record)),
      next_page_id: records.length > query.limit && last ? encodeCursor([last.createdAt, last.id]) : null,
    };
  }

  /**
   * Creates a sandbox from `spec` and starts it in the background: the answer is STARTING. One the provider
   * prepared ahead of time (its pool) is claimed first, and the record takes its id. Beyond the live cap the
   * least recently used idle RUNNING sandbox is paused first, else 409.
   */
  async create(spec: SandboxSpec): Promise<SandboxInfo> {
    const provider = this.deps.providers[this.providerKind()];
    await provider.ensureAvailable();
    const prepared = (await provider.pool?.claim(spec)) ?? null;
    const record = await this.liveCap
      .admit(null, () => {
        const created = newSandboxRecord(provider.kind, spec, prepared);
        this.deps.store.insert(created);
        return created;
      })
      .catch((error: unknown) => {
        if (prepared) provider.pool?.giveBack(prepared);
        throw error;
      });
    const controller = new AbortController();
    this.starting.set(record.id, controller);
    void this.queue
      .run(record.id, () => this.startNew(record, spec, provider, controller.signal))
      .finally(() => this.starting.delete(record.id));
    this.emit(record);
    return this.info(record);
  }

  /** Resolves once the operations queued for the sandbox (e.g. its start) have finished. */
  async settled(id: string): Promise<SandboxInfo> {
    await this.queue.settled(id);
    return this.get(id);
  }

  /** Pauses a sandbox (idempotent); its conversations' loops are stopped first. */
  async pause(id: string): Promise<void> {
    const record = this.usable(id);
    await this.deps.providers[record.provider].ensureAvailable();
    await this.queue.run(id, () => this.pauseNow(id));
  }

  /** Resumes a sandbox (idempotent) and waits until it is RUNNING; may pause another to make room. */
  async resume(id: string): Promise<void> {
    const record = this.usable(id);
    await this.deps.providers[record.provider].ensureAvailable();
    await this.queue.run(id, () => this.resumeNow(id));
  }

  /** The sandbox RUNNING: waits for its start, resumes it when paused; 409 when it cannot run. */
  async ensureRunning(id: string): Promise<SandboxInfo> {
    await this.queue.settled(id);
    if (this.record(id).status !== 'RUNNING') await this.resume(id);
    return this.get(id);
  }

  /** Stops and removes the sandbox with its workspace, then forgets it. */
  async delete(id: string): Promise<void> {
    const record = this.record(id);
    await this.deps.providers[record.provider].ensureAvailable();
    this.starting.get(id)?.abort(new SandboxFailure('The sandbox was deleted while it was starting'));
    await this.queue.run(id, async () => {
      const current = this.deps.store.get(id);
      if (!current) return;
      await this.deps.users.release(id, 'delete');
      await this.deps.providers[current.provider].remove(current);
      this.deps.store.delete(id);
      this.emit({ ...current, status: 'MISSING', error: 'Deleted' }, true);
    });
  }

  /** Marks the sandbox as used now (for least-recently-used eviction and idle pausing). */
  touch(id: string): void {
    this.deps.store.touch(id, new Date().toISOString());
  }

  /**
   * What a new sandbox's first probe surveyed of its workspace, for the start that created it: handed out
   * once, and only while nobody else has asked for the sandbox's workspace (and so could have changed a file).
   */
  takeReadAhead(id: string): FileSurvey | null {
    const record = this.deps.store.get(id);
    return record ? this.deps.providers[record.provider].takeReadAhead(id) : null;
  }

  /**
   * The workspace of a RUNNING sandbox, where its commands, shell, files and MCP servers run; marks the
   * sandbox used. 409 unless it is RUNNING.
   */
  async workspace(id: string): Promise<SandboxWorkspace> {
    const record = this.record(id);
    if (record.status !== 'RUNNING') throw sandboxNotRunning(id, record.status);
    this.touch(id);
    // Whoever has the workspace may change files: what was read ahead no longer stands.
    this.deps.providers[record.provider].takeReadAhead(id);
    return this.deps.providers[record.provider].workspace(record);
  }

  /** Stops watching; pauses live sandboxes unless configured to leave them running. */
  async close(): Promise<void> {
    this.idlePause.close();
    const pools = Promise.all(this.pools().map((pool) => pool.close()));
    for (const controller of this.starting.values()) {
      controller.abort(new SandboxFailure('Dockhand was closed while the sandbox was starting'));
    }
    await Promise.all(Object.values(this.deps.providers).map((provider) => provider.close()));
    if (this.deps.config.onClose === 'pause') {
      const live = this.deps.store.all().filter((record) => LIVE.includes(record.status));
      await Promise.all(
        live.map((record) =>
          this.queue
            .run(record.id, () => this.pauseNow(record.id))
            .catch((error: unknown) => {
              this.deps.logger.warn(
                { sandbox: record.id, err: error },
                'Could not pause the sandbox at close',
              );
            }),
        ),
      );
    }
    await pools;
    await this.queue.allSettled();
  }

  private pools(): SandboxPool[] {
    return Object.values(this.deps.providers).flatMap((provider) => provider.pool ?? []);
  }

  private record(id: string): SandboxRecord {
    const record = isSandboxId(id) ? this.deps.store.get(id) : null;
    if (!record) throw sandboxNotFound(id);
    return record;
  }

  /** The record, or 409 when it is in ERROR or MISSING (only delete is allowed then). */
  private usable(id: string): SandboxRecord {
    const record = this.record(id);
    if (record.status === 'ERROR' || record.status === 'MISSING') {
      throw sandboxBroken(id, record.status, record.error);
    }
    return record;
  }

  private info(record: SandboxRecord): SandboxInfo {
    return sandboxInfo(record, {
      sessionKey: this.deps.sessionKey,
      agentServerUrls: this.deps.agentServerUrls,
      isolated: this.deps.providers[record.provider].isolated,
    });
  }

  private emit(record: SandboxRecord, deleted = false): void {
    this.changes.emit({ sandbox: this.info(record), deleted });
  }

  /** Stores what a provider observed; emits when the status changed. */
  private apply(id: string, observed: ObservedState): void {
    const record = this.deps.store.get(id);
    if (!record) return;
    const next: SandboxRecord = { ...record, ...observed };
    if (!changesRecord(record, next)) return;
    this.deps.store.update(id, observed);
    if (next.status !== record.status) {
      this.deps.logger.info(
        { sandbox: id, from: record.status, to: next.status, error: next.error },
        'sandbox status',
      );
    }
    this.emit(next);
  }

  private async startNew(
    record: SandboxRecord,
    spec: SandboxSpec,
    provider: SandboxProvider,
    signal: AbortSignal,
  ): Promise<void> {
    try {
      const observed = await provider.create({
        id: record.id,
        spec,
        signal,
        onCreated: (containerId) => this.deps.store.update(record.id, { containerId }),
      });
      this.apply(record.id, observed);
    } catch (error) {
      if (signal.aborted) return;
      this.deps.logger.warn({ sandbox: record.id, err: error }, 'The sandbox could not be started');
      this.apply(record.id, { status: 'ERROR', error: failureText(error), exposedUrls: [] });
    }
  }

  private async pauseNow(id: string): Promise<void> {
    const record = this.usable(id);
    if (record.status === 'PAUSED') return;
    await this.deps.users.release(id, 'pause');
    this.apply(id, await this.deps.providers[record.provider].pause(record));
  }

  private async resumeNow(id: string): Promise<void> {
    const record = this.usable(id);
    if (record.status === 'RUNNING') return;
    await this.liveCap.admit(id, () => this.apply(id, { status: 'STARTING', error: null, exposedUrls: [] }));
    let observed: ObservedState;
    try {
      observed = await this.deps.providers[record.provider].resume(record);
    } catch (error) {
      if (error instanceof HttpError) {
        // Refused (Docker lost or said no): the sandbox is as it was.
        this.apply(id, { status: record.status, error: record.error, exposedUrls: record.exposedUrls });
        throw error;
      }
      observed = { status: 'ERROR', error: failureText(error), exposedUrls: [] };
    }
    this.apply(id, observed);
    this.touch(id);
    if (observed.status !== 'RUNNING') throw sandboxBroken(id, observed.status, observed.error);
    this.deps.users.resumed(id);
  }

  /** Re-reads one sandbox's state from its provider (after an outside change). */
  private refresh(id: string): Promise<void> {
    return this.queue.run(id, async () => {
      const record = this.deps.store.get(id);
      const observed = record && (await observeSandbox(record, this.deps.providers[record.provider]));
      if (observed) this.apply(id, observed);
    });
  }

  /** Observes every sandbox (of one provider): survivors re-attach, vanished ones become MISSING. */
  private async reconcile(kind?: SandboxProviderKind): Promise<void> {
    const records = this.deps.store.all().filter((record) => !kind || record.provider === kind);
    await Promise.all(records.map((record) => this.refresh(record.id)));
  }
}
