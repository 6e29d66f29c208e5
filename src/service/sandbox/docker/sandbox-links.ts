import type Docker from 'dockerode';
import type { Logger } from 'pino';
import type { EgressService } from '../link/egress-service';
import { type ForwardTarget, SandboxLink } from '../link/sandbox-link';
import type { DockerWorkspace } from './docker-workspace';

export interface SandboxLinksDeps {
  /** Decides what gated sandboxes' links let out. */
  egress: EgressService;
  /** The sandbox changed (its previews, or its link ended): observe it again. */
  changed: (sandboxId: string) => void;
  workspaceOf: (sandboxId: string, info: Docker.ContainerInspectInfo) => DockerWorkspace;
  logger: Logger;
}

/** The links of running sandboxes (gated and bridge ones), and the ports forwarded into each. */
export class SandboxLinks {
  private readonly links = new Map<string, SandboxLink>();
  private readonly linking = new Map<string, Promise<SandboxLink | null>>();
  /** Ports forwarded into each sandbox, set up again on every start of its link. */
  private readonly inbound = new Map<string, Map<number, ForwardTarget>>();

  constructor(private readonly deps: SandboxLinksDeps) {}

  /** The running sandbox's link (null for host and none networks, or while it is not running). */
  get(sandboxId: string): SandboxLink | null {
    return this.links.get(sandboxId) ?? null;
  }

  /**
   * Makes `port` on the sandbox's loopback lead to `target` on the service's side, now if its link runs and
   * again whenever its link starts (after a resume); until the sandbox is removed.
   */
  async forwardIn(sandboxId: string, port: number, target: ForwardTarget): Promise<void> {
    const ports = this.inbound.get(sandboxId) ?? new Map<number, ForwardTarget>();
    ports.set(port, target);
    this.inbound.set(sandboxId, ports);
    await this.links.get(sandboxId)?.forwardIn(port, target);
  }

  /** This machine's ports the links listen on (no sandbox's proxy may reach them). */
  hostPorts(): number[] {
    return [...this.links.values()].flatMap((link) => link.hostPorts());
  }

  /** The sandbox's link, started unless it runs; one start at a time per sandbox. */
  ensure(id: string, info: Docker.ContainerInspectInfo): Promise<SandboxLink | null> {
    const running = this.links.get(id);
    if (running) return Promise.resolve(running);
    const pending = this.linking.get(id);
    if (pending) return pending;
    const started = SandboxLink.start({
      sandbox: this.deps.workspaceOf(id, info),
      check: (target) => this.deps.egress.check(id, target),
      previewsChanged: () => this.deps.changed(id),
      // A link that ends on its own (its forwarder killed): the next observation starts another.
      ended: (link) => {
        if (this.links.get(id) !== link) return;
        this.links.delete(id);
        this.deps.changed(id);
      },
      logger: this.deps.logger,
    }).then(async (link) => {
      for (const [port, target] of this.inbound.get(id) ?? []) await link.forwardIn(port, target);
      this.links.set(id, link);
      return link;
    });
    this.linking.set(id, started);
    void started.finally(() => this.linking.delete(id)).catch(() => undefined);
    return started;
  }

  close(id: string): void {
    const link = this.links.get(id);
    this.links.delete(id);
    link?.close();
  }

  /** The sandbox is removed: its link closes and its forwarded ports are forgotten. */
  forget(id: string): void {
    this.close(id);
    this.inbound.delete(id);
  }

  closeAll(): void {
    for (const id of [...this.links.keys()]) this.close(id);
  }
}
