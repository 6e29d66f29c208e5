import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { resolveServiceConfig, type ServiceConfig } from './config';
import { privateFolder } from './data-dir';
import { AgentStateStore } from './agent/agent-state-store';
import { acpHost } from './acp/acp-host';
import { createLlmClient } from './agent/llm/llm-client';
import { EditHistory } from './agent/tools/str-replace-editor/edit-history';
import type { ServiceContext } from './context';
import { ConversationService } from './conversations/conversation-service';
import { ConversationStore, type ConversationRecord } from './conversations/conversation-store';
import { AppConversations } from './conversations/app-conversations';
import { ConversationMetricsReader } from './conversations/conversation-metrics';
import { WorkspaceAccess } from './conversations/workspace-access';
import { LocalRepositoryExport } from './local-repository/local-repository-export';
import { LocalRepositoryStore } from './local-repository/local-repository-store';
import { StartTaskStore } from './conversations/start-task-store';
import { AgentServers } from './agent-server/agent-servers';
import { appConversationRoutes } from './routes/v1/app-conversations';
import { v1EventRoutes } from './routes/v1/events';
import { EventLog } from './events/event-log';
import { conversationTargets, settingsBudget } from './gateway/gateway-target';
import { ModelGateway } from './gateway/model-gateway';
import { attachSocketServer } from './routes/v0/socket-server';
import { ApiKeys } from './http/api-keys';
import { createApp } from './http/app';
import { KeyGate } from './http/key-gate';
import type { OriginPolicy } from './http/security';
import { conversationRoutes } from './routes/v0/conversations';
import { conversationStreamRoutes } from './routes/v0/conversation-stream';
import { conversationTerminalRoutes } from './routes/v0/conversation-terminal';
import { TerminalSockets } from './routes/v0/terminal-sockets';
import { ConversationTerminals } from './conversations/conversation-terminals';
import { Upgrades } from './http/upgrades';
import { TERMINAL_KEY_PROTOCOL_PREFIX } from '../shared/api/terminal';
import { conversationWorkspaceRoutes } from './routes/v0/conversation-workspace';
import { localRepositoryRoutes } from './routes/v0/local-repository';
import type { RouteSpec } from './http/routes';
import { publicApiBase } from './git/provider-api';
import { ProviderTokenService } from './git/provider-tokens';
import { DEFAULT_PORT, listenOnLoopback } from './listen';
import { createLogger } from './logger';
import { serverRoutes } from './routes/server';
import { agentRoutes } from './routes/v0/agents';
import { AgentInstalls } from './acp/agent-installs';
import { installerNpm } from './acp/installer-npm';
import { optionsRoutes } from './routes/v0/options';
import { gitRoutes } from './routes/v0/git';
import { secretsRoutes } from './routes/v0/secrets';
import { settingsRoutes } from './routes/v0/settings';
import { sandboxSpecsRoutes } from './routes/v1/sandbox-specs';
import { sandboxesRoutes } from './routes/v1/sandboxes';
import type { SandboxSettings } from './sandbox/sandbox-models';
import { createSandboxLayer } from './sandbox/sandbox-layer';
import type { SandboxUsers } from './sandbox/sandbox-users';
import { ConversationEgress } from './conversations/conversation-egress';
import { conversationNetworkRoutes } from './routes/v0/conversation-network';
import { readAheadRoots } from './conversations/start-survey';
import { CustomSecretService } from './secrets/custom-secrets';
import { MaskedValues } from './secrets/masked-values';
import { LiveSecretMasker } from './events/secret-masker';
import { openSecretStore } from './secrets/open-secret-store';
import { SessionKey } from './secrets/session-key';
import { DEFAULTS, SettingsService } from './settings/settings-service';
import { type Db, openDatabase } from './storage/database';

export const VERSION = '1.0.0';
/** The port on a linked sandbox's loopback where its agents reach the model gateway. */
const GATEWAY_PORT_IN_SANDBOX = 39217;
export const DISCOVERY_FILE = 'server.json';

export interface DockhandService {
  readonly url: string;
  readonly port: number;
  readonly context: ServiceContext;
  /** The event log every conversation's events go through (tests write into it as the agent would). */
  readonly events: EventLog;
  /** The model gateway the agents in sandboxes call instead of the provider (`endpointFor`). */
  readonly gateway: ModelGateway;
  /** The service's database, for tests that look at what was stored; nothing in the service is handed it. */
  readonly db: Db;
  /** Stops accepting requests, closes connections and storage, removes the discovery file. */
  close(): Promise<void>;
}

function writeDiscoveryFile(dataDir: string, url: string, port: number): string {
  const file = path.join(dataDir, DISCOVERY_FILE);
  writeFileSync(file, JSON.stringify({ url, port, pid: process.pid, started_at: new Date().toISOString() }), {
    mode: 0o600,
  });
  chmodSync(file, 0o600);
  return file;
}

/** The composition root: builds every dependency, the routes and the HTTP server, then listens. */
export async function createService(options: ServiceConfig): Promise<DockhandService> {
  const config = resolveServiceConfig(options);
  const rateLimitPerSecond = config.rateLimitPerSecond;
  const extraOrigins = config.allowedOrigins;
  const dataDir = path.resolve(config.dataDir);
  // 0700 at every start, also when the folder existed: what is in it is this user's only.
  privateFolder(dataDir);
  const logger = config.logger ?? createLogger(dataDir, config.logLevel);
  const db = openDatabase(dataDir);
  const secrets = config.secretStore ?? (await openSecretStore(config.secretsBackend, dataDir, logger));
  const sessionKey = await SessionKey.load({
    store: secrets,
    dataDir,
    override: config.sessionApiKey,
    logger,
  });
  const providerApiBase = config.providerApiBase ?? publicApiBase;
  const providerTokens = new ProviderTokenService(db, secrets, providerApiBase);
  const settings = new SettingsService(db, secrets, providerTokens);
  // MCP secrets an older version kept in SQLite move to the secret store (retried at each start until they can).
  await settings.migrateMcpSecrets().catch((error: unknown) => {
    logger.warn({ err: error }, 'MCP secrets could not move from the settings into the secret store yet');
  });
  const startedAt = new Date();
  // The sandboxes ask the conversations (may a sandbox pause? stop its loops first) and the agent servers
  // (their URLs), both built on the sandbox service below. Instead of setters called later, the sandboxes get
  // callbacks now that reach those services once they exist; until then there is no conversation and no
  // endpoint, and the callbacks say so (building the masked values already lists the sandboxes).
  let conversationUsers: SandboxUsers | null = null;
  let agentServerEndpoints: AgentServers | null = null;
  const sandboxLayer = createSandboxLayer({
    dataDir,
    db,
    settings: () => sandboxSettings(settings),
    sessionKey,
    logger,
    version: VERSION,
    startedAt,
    readAheadRoots,
    users: {
      isIdle: (id) => conversationUsers?.isIdle(id) ?? true,
      release: async (id, reason) => conversationUsers?.release(id, reason),
      resumed: (id) => conversationUsers?.resumed(id),
    },
    agentServerUrls: (id) => agentServerEndpoints?.exposedUrls(id) ?? [],
    egressPolicy: (sandboxId) => conversationEgress.policy(sandboxId),
    egressHoldMs: (sandboxId) => conversationEgress.holdMs(sandboxId),
    servicePort: () => port,
    environment: config.environment,
    ...(config.docker ? { docker: config.docker } : {}),
    ...(config.sandbox ? { config: config.sandbox } : {}),
  });
  const agentInstalls = new AgentInstalls({
    root: path.join(dataDir, 'agents'),
    npm: installerNpm(config.environment),
    arch: process.arch,
    environment: config.environment,
  });
  await agentInstalls.init();
  const maskedValues = new MaskedValues(secrets, sessionKey, sandboxLayer.sandboxes);
  let port = 0;
  const context: ServiceContext = {
    version: VERSION,
    dataDir,
    logger,
    secrets,
    masker: new LiveSecretMasker(() => maskedValues.values()),
    sessionKey,
    settings,
    providerTokens,
    customSecrets: new CustomSecretService(db, secrets),
    providerApiBase,
    gitScheme: config.gitScheme ?? 'https',
    port: () => port,
    sandboxes: sandboxLayer.sandboxes,
    sandboxLink: sandboxLayer.link,
    forwardIntoSandbox: sandboxLayer.forwardIn,
    sandboxSpecs: sandboxLayer.specs,
    llmFactory: config.llmFactory ?? createLlmClient,
    limits: config.limits,
    acp: acpHost(
      {
        install: (kind, onProgress) => agentInstalls.ensure(kind, onProgress),
        modelEndpoint: async (conversationId, sandboxId) => {
          // A sandbox with a link (gated, bridge) reaches the gateway on a port of its own loopback that the
          // link forwards here; a process sandbox and a container on the host's network on its loopback port.
          if (!sandboxLayer.link(sandboxId)) {
            return gateway.endpointFor(conversationId, `http://127.0.0.1:${gateway.port}`);
          }
          const target = { host: '127.0.0.1' as const, port: gateway.port };
          await sandboxLayer.forwardIn(sandboxId, GATEWAY_PORT_IN_SANDBOX, target);
          return gateway.endpointFor(conversationId, `http://127.0.0.1:${GATEWAY_PORT_IN_SANDBOX}`);
        },
      },
      config.acp,
    ),
    agentInstalls,
    agentStates: new AgentStateStore(db),
    editHistory: (conversationId) => new EditHistory(db, conversationId),
    localRepositories: new LocalRepositoryStore(dataDir),
  };

  const events = new EventLog(db);
  const conversationStore = new ConversationStore(db);
  // The workspaces and the conversations need each other: a conversation's workspace is looked up by its
  // record, and the conversations count what their workspaces changed. `require` is only called later.
  const workspaces: WorkspaceAccess = new WorkspaceAccess({
    sandboxes: context.sandboxes,
    localRepositories: context.localRepositories,
    conversations: { require: (id): ConversationRecord => conversations.require(id) },
  });
  const conversations = new ConversationService(context, events, conversationStore, workspaces);
  conversationUsers = conversations.sandboxUsers;
  conversations.init();
  const gateway = new ModelGateway({
    logger,
    agentStates: context.agentStates,
    targets: conversationTargets(context, conversationStore),
    budgetLimits: settingsBudget(context),
  });
  conversations.onDeleted((id) => gateway.revoke(id));
  gateway.onStatus(({ conversationId, ...update }) => conversations.showStatus(conversationId, update));
  const conversationEgress = new ConversationEgress({
    egress: sandboxLayer.egress,
    store: conversationStore,
    events,
    masker: context.masker,
    settings: () => settings.stored(),
    gitHosts: () => providerTokens.hostsByProvider(),
    allowAlways: (entry) => settings.allowEgress(entry),
  });
  conversationEgress.start();
  const appConversations = new AppConversations(
    context,
    conversations,
    conversationStore,
    new StartTaskStore(db),
  );

  const agentServers = new AgentServers({
    deps: {
      ctx: context,
      conversations,
      store: conversationStore,
      events,
      workspaces,
      metrics: new ConversationMetricsReader(context, conversations),
    },
    logger,
    rateLimitPerSecond,
    extraOrigins,
  });
  agentServerEndpoints = agentServers;

  const keys = new KeyGate(
    new ApiKeys(sessionKey, (id) => {
      const sandboxId = conversationStore.get(id)?.sandboxId ?? null;
      // A sandbox key is reported only while its sandbox runs, and only then does it open anything.
      return sandboxId && context.sandboxes.find(sandboxId)?.status === 'RUNNING' ? sandboxId : null;
    }),
  );
  const origins: OriginPolicy = {
    ports: () => [port],
    extra: extraOrigins,
  };

  const terminals = new ConversationTerminals(context, conversations);
  const terminalSockets = new TerminalSockets(terminals);
  const upgrades = new Upgrades();
  sessionKey.onRotate(() => terminalSockets.closeAll('The session key changed'));

  const routes: RouteSpec[] = [];
  routes.push(
    ...serverRoutes(context, {
      startedAt,
      dockerStatus: () => sandboxLayer.dockerStatus(),
      allRoutes: () => routes,
      runningConversations: () => conversations.runningCount(),
    }),
    ...settingsRoutes(context),
    ...secretsRoutes(context),
    ...gitRoutes(providerTokens, providerApiBase),
    ...optionsRoutes(settings, VERSION),
    ...agentRoutes(settings, agentInstalls),
    ...sandboxesRoutes(context.sandboxes, context.sandboxSpecs),
    ...sandboxSpecsRoutes(context.sandboxSpecs),
    ...conversationRoutes(conversations, events, (id) => conversationEgress.log(id)),
    ...conversationNetworkRoutes(conversations, conversationEgress),
    ...conversationWorkspaceRoutes(conversations, workspaces),
    ...localRepositoryRoutes(
      conversations,
      new LocalRepositoryExport({ settings, store: context.localRepositories, workspaces }),
    ),
    ...conversationStreamRoutes(conversations, events, sessionKey),
    ...conversationTerminalRoutes(terminals, terminalSockets, upgrades),
    ...appConversationRoutes(appConversations),
    ...v1EventRoutes(db),
  );
  const app = createApp({
    routes,
    keys,
    origins,
    rateLimitPerSecond,
    logger,
    dataDir,
    ...(config.rendererDir ? { rendererDir: config.rendererDir } : {}),
  });
  const listening = await listenOnLoopback(app, {
    port: config.port ?? DEFAULT_PORT,
    strict: config.strictPort ?? false,
  });
  port = listening.port;
  // Websocket handshakes other than socket.io's go through the app (the terminal's).
  upgrades.attach(listening.server, app, {
    skip: (req) => req.url?.startsWith('/socket.io/') === true,
    keyProtocolPrefix: TERMINAL_KEY_PROTOCOL_PREFIX,
  });
  const sockets = attachSocketServer(listening.server, {
    conversations,
    events,
    keys,
    origins,
    hasSettings: () => settings.stored() !== null,
    onKeyRotated: (listener) => sessionKey.onRotate(listener),
  });
  await sandboxLayer.start();
  await agentServers.start();
  await gateway.start();
  const url = `http://127.0.0.1:${port}`;
  const discoveryFile = writeDiscoveryFile(dataDir, url, port);
  if (secrets.status.state !== 'ok') {
    logger.warn(
      { keychain: secrets.status },
      `Secrets cannot be stored: ${secrets.status.message}. Fix: ${secrets.status.fix}`,
    );
  }
  logger.info({ url, dataDir }, 'Dockhand service listening');

  return {
    url,
    port,
    context,
    events,
    gateway,
    db,
    close: async () => {
      // Socket clients go first, without socket.io closing the HTTP server (which would wait for open requests).
      sockets.disconnectSockets(true);
      sockets.engine.close();
      terminalSockets.closeAll('The service is closing');
      await terminals.closeAll();
      agentServers.close();
      await gateway.close();
      conversationEgress.close();
      await conversations.close();
      await sandboxLayer.sandboxes.close();
      await closeService(listening.server, () => {
        rmSync(discoveryFile, { force: true });
        db.close();
      });
    },
  };
}

function closeService(server: Server, cleanup: () => void): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => {
      cleanup();
      resolve();
    });
    server.closeAllConnections();
  });
}

/** What the sandboxes read of the settings, with the defaults applied. */
function sandboxSettings(settings: SettingsService): SandboxSettings {
  const stored = settings.stored();
  return {
    provider: stored?.sandbox_provider ?? null,
    warmPool: stored?.sandbox_warm_pool ?? DEFAULTS.sandbox_warm_pool,
    network: stored?.sandbox_network ?? DEFAULTS.sandbox_network,
    maxLive: stored?.max_live_sandboxes ?? DEFAULTS.max_live_sandboxes,
    runtimeImage: stored?.sandbox_runtime_container_image || null,
    baseImage: stored?.sandbox_base_container_image || null,
  };
}
