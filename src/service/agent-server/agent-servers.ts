import type { ExposedUrl, SandboxStatus } from '../../shared/api/sandboxes';
import { AgentServerEndpoint, type EndpointOptions } from './endpoint';

/** Close code for sockets opened with a key that no longer opens anything (policy violation). */
const KEY_ROTATED = 1008;
/**
 * An endpoint is bound while its sandbox starts, so its URL is known by the time the sandbox is reported
 * RUNNING; it answers only while the sandbox is RUNNING (its key opens nothing before).
 */
const OPEN_WHILE: SandboxStatus[] = ['STARTING', 'RUNNING'];

/**
 * The agent-server endpoints: one per running sandbox, opened when it starts or resumes (on the port it had,
 * when that is still free) and closed when it pauses, stops, fails or goes; event sockets close when the
 * session key (and with it every sandbox key) rotates.
 */
export class AgentServers {
  private readonly endpoints = new Map<string, AgentServerEndpoint>();
  private readonly opening = new Map<string, Promise<void>>();
  private readonly lastPorts = new Map<string, number>();
  private closed = false;

  constructor(private readonly options: Omit<EndpointOptions, 'sandboxId'>) {
    const { ctx } = options.deps;
    ctx.sandboxes.onChange(({ sandbox, deleted }) => {
      if (!deleted && OPEN_WHILE.includes(sandbox.status)) void this.open(sandbox.id);
      else
        this.closeOne(sandbox.id, deleted ? 'The sandbox was deleted' : `The sandbox is ${sandbox.status}`);
      if (deleted) this.lastPorts.delete(sandbox.id);
    });
    ctx.sessionKey.onRotate(() => {
      for (const endpoint of this.endpoints.values())
        endpoint.closeSockets(KEY_ROTATED, 'The session key was rotated');
    });
  }

  /** Opens the endpoints of the sandboxes already RUNNING (after a restart). */
  async start(): Promise<void> {
    const { sandboxes } = this.options.deps.ctx;
    let pageId: string | null = null;
    do {
      const page: { items: { id: string }[]; next_page_id: string | null } = sandboxes.search({
        pageId,
        limit: 100,
        status: 'RUNNING',
      });
      await Promise.all(page.items.map((sandbox) => this.open(sandbox.id)));
      pageId = page.next_page_id;
    } while (pageId);
  }

  /** The sandbox's AGENT_SERVER exposed URL while its endpoint listens. */
  exposedUrls(sandboxId: string): ExposedUrl[] {
    const endpoint = this.endpoints.get(sandboxId);
    return endpoint ? [{ name: 'AGENT_SERVER', url: endpoint.url, port: endpoint.listeningPort }] : [];
  }

  /** Resolves once the sandbox's endpoint is open (or could not be). */
  async whenOpen(sandboxId: string): Promise<void> {
    await this.opening.get(sandboxId);
  }

  close(): void {
    this.closed = true;
    for (const id of [...this.endpoints.keys()]) this.closeOne(id, 'Dockhand is shutting down');
  }

  private open(sandboxId: string): Promise<void> {
    if (this.closed || this.endpoints.has(sandboxId)) return Promise.resolve();
    const current = this.opening.get(sandboxId);
    if (current) return current;
    const opening = AgentServerEndpoint.open({ ...this.options, sandboxId }, this.lastPorts.get(sandboxId))
      .then((endpoint) => {
        const status = this.options.deps.ctx.sandboxes.find(sandboxId)?.status;
        // The sandbox may have paused, or the service closed, while the port was being bound.
        if (this.closed || !status || !OPEN_WHILE.includes(status))
          return endpoint.close('The sandbox is not running');
        this.endpoints.set(sandboxId, endpoint);
        this.lastPorts.set(sandboxId, endpoint.listeningPort);
        this.options.logger.info({ sandbox: sandboxId, url: endpoint.url }, 'agent-server endpoint open');
      })
      .catch((error: unknown) =>
        this.options.logger.error({ err: error, sandbox: sandboxId }, 'agent-server endpoint failed to open'),
      )
      .finally(() => this.opening.delete(sandboxId));
    this.opening.set(sandboxId, opening);
    return opening;
  }

  private closeOne(sandboxId: string, reason: string): void {
    const endpoint = this.endpoints.get(sandboxId);
    if (!endpoint) return;
    this.endpoints.delete(sandboxId);
    endpoint.close(reason);
    this.options.logger.info({ sandbox: sandboxId, reason }, 'agent-server endpoint closed');
  }
}
