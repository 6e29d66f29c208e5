import net from 'node:net';
import type { Duplex, Readable, Writable } from 'node:stream';
import type { Logger } from 'pino';
import type { ExposedUrl } from '../sandbox-models';
import type { EgressDecision } from './egress-gate';
import { createEgressProxy } from './egress-proxy';
import type { EgressTarget } from './egress-policy';
import { FORWARDER_NAME, FORWARDER_SCRIPT } from './forwarder';
import { LinkMux, type LinkStream } from './link-mux';

/** The proxy's port on the sandbox's loopback (HTTP_PROXY and HTTPS_PROXY name it). */
export const PROXY_PORT = 3128;
/** How long the forwarder may take to start and listen. */
const START_TIMEOUT_MS = 15_000;

/** A process started in the sandbox with raw pipes to its stdin and stdout. */
export interface PipedProcess {
  stdin: Writable;
  stdout: Readable;
  /** The end of what it wrote to stderr. */
  stderr(): string;
}

/** What the link needs of a sandbox: a Node runtime in it, a helper file, and a process over an exec's stdio. */
export interface LinkSandbox {
  readonly sandboxId: string;
  installHelper(name: string, script: string): Promise<string>;
  /** The path of a Node binary that runs in the sandbox (Dockhand's lent one first), or null. */
  linkNode(): Promise<string | null>;
  /** Runs argv as root with its stdin and stdout piped to the service. */
  spawnPiped(argv: string[]): Promise<PipedProcess>;
}

/** Where a port forwarded into the sandbox leads: a loopback port of this machine, or a callback. */
export type ForwardTarget = { host: '127.0.0.1'; port: number } | ((socket: Duplex) => void);

export interface SandboxLinkOptions {
  sandbox: LinkSandbox;
  /** Decides (and records) one connection through the proxy. */
  check(target: EgressTarget): Promise<EgressDecision>;
  /** The set of listening ports inside the sandbox changed (the previews follow it). */
  previewsChanged(): void;
  /** The link ended without `close()` (its forwarder or the exec went away). */
  ended?(link: SandboxLink): void;
  logger: Logger;
}

export class LinkUnavailable extends Error {}

interface Preview {
  sandboxPort: number;
  server: net.Server;
  hostPort: number;
}

/**
 * One running sandbox's link to the service: the forwarder in the sandbox carries its connections over one
 * exec's stdio (so it works wherever the Docker API does). Through it the service offers the egress proxy on
 * the sandbox's 127.0.0.1:3128, ports inside the sandbox that lead to the service's side (`forwardIn`), and
 * ports on this machine's 127.0.0.1 that lead into the sandbox (`forwardOut`, and every listening port as a
 * preview).
 */
export class SandboxLink {
  private readonly inbound = new Map<number, ForwardTarget>();
  private readonly waitingListen = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private readonly previews = new Map<number, Preview>();
  private readonly outward = new Set<net.Server>();
  private readonly proxy;
  private mux: LinkMux | null = null;
  private closed = false;
  private readyResolve: () => void = () => undefined;
  private readonly ready = new Promise<void>((resolve) => (this.readyResolve = resolve));

  private constructor(private readonly options: SandboxLinkOptions) {
    this.proxy = createEgressProxy(options.check);
    this.inbound.set(PROXY_PORT, (socket) => this.proxy.serve(socket));
  }

  /** Starts the forwarder and the proxy; resolves once the proxy listens in the sandbox. */
  static async start(options: SandboxLinkOptions): Promise<SandboxLink> {
    const link = new SandboxLink(options);
    try {
      await link.connect();
    } catch (error) {
      link.close();
      throw error;
    }
    return link;
  }

  /** The 127.0.0.1 ports of this machine the link listens on (never reachable through any sandbox's proxy). */
  hostPorts(): number[] {
    return [...this.outward].flatMap((server) => {
      const address = server.address();
      return address && typeof address === 'object' ? [address.port] : [];
    });
  }

  /** The sandbox's listening ports, each forwarded to a loopback port of this machine. */
  previewUrls(): ExposedUrl[] {
    return [...this.previews.values()].map((preview) => ({
      name: 'PREVIEW',
      url: `http://127.0.0.1:${preview.hostPort}`,
      port: preview.hostPort,
      sandbox_port: preview.sandboxPort,
    }));
  }

  /** Listens on `port` of the sandbox's loopback; each connection goes to `target` on the service's side. */
  async forwardIn(port: number, target: ForwardTarget): Promise<void> {
    this.inbound.set(port, target);
    await this.listen(port);
  }

  /** A listening 127.0.0.1 port of this machine whose connections reach `sandboxPort` inside the sandbox. */
  async forwardOut(sandboxPort: number): Promise<{ port: number; close(): void }> {
    const server = await this.listenOut(sandboxPort);
    return {
      port: (server.address() as net.AddressInfo).port,
      close: () => {
        this.outward.delete(server);
        server.close();
      },
    };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.mux?.close();
    this.proxy.close();
    for (const server of this.outward) server.close();
    this.outward.clear();
    this.previews.clear();
    for (const waiting of this.waitingListen.values()) waiting.reject(new LinkUnavailable('The link closed'));
  }

  private async connect(): Promise<void> {
    const { sandbox } = this.options;
    // Two independent execs, side by side: the runtime (copied in when missing) and the script.
    const [node, script] = await Promise.all([
      sandbox.linkNode(),
      sandbox.installHelper(FORWARDER_NAME, FORWARDER_SCRIPT),
    ]);
    if (!node) {
      throw new LinkUnavailable(
        "The gated network needs Node in the sandbox for its link, and neither Dockhand's runtime nor the image provides it. " +
          'Choose an image with node, or the bridge network in Settings > Sandboxes.',
      );
    }
    const forwarder = await sandbox.spawnPiped([node, script]);
    this.mux = new LinkMux(forwarder.stdout, forwarder.stdin, {
      accepted: (port, stream) => this.accepted(port, stream),
      control: (message) => this.control(message),
      ended: (error) => {
        if (!this.closed) {
          this.options.logger.warn(
            { sandbox: sandbox.sandboxId, err: error, stderr: forwarder.stderr() },
            'The sandbox link ended',
          );
        }
        const unexpected = !this.closed;
        this.close();
        if (unexpected) this.options.ended?.(this);
      },
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new LinkUnavailable(`The sandbox link did not start: ${forwarder.stderr().trim()}`)),
        START_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([this.ready.then(() => this.listen(PROXY_PORT)), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private listen(port: number): Promise<void> {
    const mux = this.mux;
    if (!mux || this.closed) return Promise.reject(new LinkUnavailable('The link is closed'));
    return new Promise((resolve, reject) => {
      this.waitingListen.set(port, { resolve, reject });
      mux.control({ op: 'listen', port });
    });
  }

  private accepted(port: number, stream: LinkStream): void {
    const target = this.inbound.get(port);
    if (!target) {
      stream.destroy();
      return;
    }
    if (typeof target === 'function') {
      target(stream);
      return;
    }
    const socket = net.connect({ host: target.host, port: target.port, allowHalfOpen: true });
    socket.setNoDelay(true);
    splice(socket, stream);
  }

  private control(message: unknown): void {
    if (!message || typeof message !== 'object') return;
    const { op, port, ports, error } = message as Record<string, unknown>;
    if (op === 'ready') this.readyResolve();
    else if ((op === 'listening' || op === 'listen_failed') && typeof port === 'number') {
      const waiting = this.waitingListen.get(port);
      this.waitingListen.delete(port);
      if (op === 'listening') waiting?.resolve();
      else
        waiting?.reject(
          new LinkUnavailable(`The sandbox could not listen on port ${port}: ${String(error)}`),
        );
    } else if (op === 'ports' && Array.isArray(ports)) {
      void this.updatePreviews(ports.filter((value): value is number => Number.isInteger(value)));
    }
  }

  /** Forwards each newly listening port out, and stops forwarding the ones that closed. */
  private async updatePreviews(ports: number[]): Promise<void> {
    const listening = new Set(ports.filter((port) => port > 0 && port < 65536 && !this.inbound.has(port)));
    let changed = false;
    for (const [port, preview] of this.previews) {
      if (listening.has(port)) continue;
      this.previews.delete(port);
      this.outward.delete(preview.server);
      preview.server.close();
      changed = true;
    }
    for (const port of listening) {
      if (this.previews.has(port) || this.closed) continue;
      const server = await this.listenOut(port);
      if (this.closed) return;
      this.previews.set(port, {
        sandboxPort: port,
        server,
        hostPort: (server.address() as net.AddressInfo).port,
      });
      changed = true;
    }
    if (changed) this.options.previewsChanged();
  }

  private async listenOut(sandboxPort: number): Promise<net.Server> {
    const server = net.createServer({ allowHalfOpen: true }, (socket) => {
      socket.setNoDelay(true);
      if (this.mux) splice(socket, this.mux.open(sandboxPort));
      else socket.destroy();
    });
    this.outward.add(server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return server;
  }
}

/** Joins a socket and a link stream both ways, half-closes included; either end failing ends both. */
function splice(socket: net.Socket, stream: Duplex): void {
  socket.pipe(stream);
  stream.pipe(socket);
  socket.on('error', () => stream.destroy());
  stream.on('error', () => socket.destroy());
  // A normal end has already ended the other side through the pipe, which then finishes what it holds.
  socket.once('close', () => {
    if (!stream.writableEnded) stream.destroy();
  });
  stream.once('close', () => {
    if (!socket.writableEnded) socket.destroy();
  });
}
