import { createServer, type Server } from 'node:http';
import type { Logger } from 'pino';
import { sameKey } from '../http/api-keys';
import { createApp } from '../http/app';
import { KeyGate } from '../http/key-gate';
import { answerClientErrorsAsJson } from '../http/client-errors';
import { httpError } from '../http/errors';
import { buildOpenApi } from '../http/openapi';
import { defineRoute, type RouteSpec } from '../http/routes';
import { Upgrades } from '../http/upgrades';
import { sandboxKey } from '../secrets/sandbox-key';
import { type AgentServerDeps, SandboxConversations } from './backend';
import { EventsSockets, GOING_AWAY } from './events-socket';
import { agentServerRoutes } from './routes';

/** How long closing sockets may take their closing handshake before they are cut. */
const CLOSE_GRACE_MS = 1000;

export interface EndpointOptions {
  deps: AgentServerDeps;
  sandboxId: string;
  logger: Logger;
  rateLimitPerSecond: number;
  /** Page origins allowed besides the endpoint's and the service's own and app://dockhand, as for the service. */
  extraOrigins: readonly string[];
}

/** The endpoint's own OpenAPI document, like the upstream agent server's `/openapi.json`. */
function documentRoute(routes: RouteSpec[], version: string): RouteSpec {
  let document: unknown = null;
  return defineRoute({
    method: 'get',
    path: '/openapi.json',
    tag: 'agent-server',
    summary: 'This document',
    open: true,
    responses: { 200: { description: 'OpenAPI 3.1 document' } },
    handler: () =>
      (document ??= buildOpenApi(routes, version, {
        title: 'Dockhand agent-server endpoint of a sandbox',
        description:
          "The OpenHands agent-server calls on one sandbox's conversations. Send the sandbox's key in the " +
          'X-Session-API-Key header (the websocket also takes it in the `session_api_key` query).',
        tags: [],
      })),
  });
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/**
 * One sandbox's agent-server endpoint: its own HTTP server on 127.0.0.1, with the service's Host, Origin,
 * key and rate-limit checks (`createApp`) for every request, the websocket handshake included, and only that
 * sandbox's key accepted. A handshake runs through the same app as a request; the events route then takes
 * the raw socket over.
 */
export class AgentServerEndpoint {
  private readonly upgrades = new Upgrades();
  private readonly sockets: EventsSockets;
  private readonly server: Server;
  private port = 0;

  private constructor(private readonly options: EndpointOptions) {
    const { deps, sandboxId } = options;
    const conversations = new SandboxConversations(deps, sandboxId, (id, query, req) => {
      const upgrade = this.upgrades.take(req);
      if (!upgrade) throw httpError(426, 'Upgrade Required');
      this.sockets.accept(req, upgrade.socket, upgrade.head, id, query);
    });
    this.sockets = new EventsSockets(conversations, deps);
    const routes = agentServerRoutes(conversations);
    const app = createApp({
      routes: [...routes, documentRoute(routes, deps.ctx.version)],
      keys: new KeyGate({
        // Like the service's own check: a sandbox key opens anything only while its sandbox is RUNNING.
        accepts: (key) =>
          deps.ctx.sandboxes.find(sandboxId)?.status === 'RUNNING' &&
          sameKey(key, sandboxKey(deps.ctx.sessionKey.current, sandboxId)),
      }),
      // Its own origins, and the service's: the OpenHands UI Dockhand serves calls it from there.
      origins: { ports: () => [this.port, deps.ctx.port()], extra: options.extraOrigins },
      rateLimitPerSecond: options.rateLimitPerSecond,
      logger: options.logger.child({ agent_server: sandboxId }),
      dataDir: deps.ctx.dataDir,
    });
    this.server = createServer(app);
    answerClientErrorsAsJson(this.server);
    this.upgrades.attach(this.server, app);
  }

  /** Listens on `preferredPort` when it is free (the port it had before a pause), else on any free port. */
  static async open(options: EndpointOptions, preferredPort = 0): Promise<AgentServerEndpoint> {
    const endpoint = new AgentServerEndpoint(options);
    endpoint.port = await listen(endpoint.server, preferredPort).catch(() => listen(endpoint.server, 0));
    return endpoint;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get listeningPort(): number {
    return this.port;
  }

  /** Closes the event sockets that are open (the key rotated); the endpoint keeps listening. */
  closeSockets(code: number, reason: string): void {
    this.sockets.closeAll(code, reason);
  }

  /** Stops listening and closes every connection and socket. */
  close(reason: string): void {
    this.sockets.closeAll(GOING_AWAY, reason);
    this.server.close();
    this.server.closeAllConnections();
    setTimeout(() => this.sockets.terminateAll(), CLOSE_GRACE_MS).unref();
  }
}
