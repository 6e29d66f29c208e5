import type { Logger } from 'pino';
import type { SessionKey } from '../secrets/session-key';
import type { Db } from '../storage/database';
import { DockerImages } from './docker/docker-images';
import { DockerSandboxProvider, type ReadAheadRoots } from './docker/docker-provider';
import { type DockerAvailability, DockerConnection } from './docker/docker-status';
import { hostBaseEnvironment } from './process/host-environment';
import { SandboxProcesses } from './process/sandbox-processes';
import { ProcessSandboxProvider } from './process/process-provider';
import type { EgressPolicy } from './link/egress-policy';
import { EgressService } from './link/egress-service';
import type { ForwardTarget, SandboxLink } from './link/sandbox-link';
import { resolveSandboxConfig, type SandboxConfig } from './sandbox-config';
import type { ExposedUrl, SandboxSettings } from './sandbox-models';
import { SandboxService } from './sandbox-service';
import type { SandboxUsers } from './sandbox-users';
import { SandboxSpecs } from './sandbox-specs';
import { SandboxStore } from './sandbox-store';

export interface SandboxLayerOptions {
  dataDir: string;
  db: Db;
  /** The user's settings as the sandboxes read them, at each use. */
  settings: () => SandboxSettings;
  sessionKey: SessionKey;
  logger: Logger;
  version: string;
  startedAt: Date;
  /** The service's environment (config.ts reads it): DOCKHAND_SANDBOX_*, the engine address, the host PATH/HOME. */
  environment: NodeJS.ProcessEnv;
  docker?: DockerConnection;
  config?: Partial<SandboxConfig>;
  /** What a new sandbox's first probe reads ahead for the start pipeline (nothing when not given). */
  readAheadRoots?: ReadAheadRoots;
  /** The conversations on the sandboxes (see SandboxUsers). */
  users: SandboxUsers;
  /** The sandboxes' agent-server endpoints, reported among their exposed URLs. */
  agentServerUrls: (sandboxId: string) => ExposedUrl[];
  /** The egress policy of a gated sandbox now (its conversation's, else the settings'). */
  egressPolicy: (sandboxId: string) => EgressPolicy;
  /** Dockhand's own API port, which no sandbox may reach. */
  servicePort: () => number;
  /** How long a sandbox's refused connection is held for the user to allow (confirmation mode); ms. */
  egressHoldMs: (sandboxId: string) => number;
}

export interface SandboxLayer {
  /** The Docker engine's state now, with its fix when it cannot be used (for /server_info). */
  dockerStatus(): Promise<DockerAvailability>;
  sandboxes: SandboxService;
  specs: SandboxSpecs;
  /** What gated sandboxes may reach, and what they tried. */
  egress: EgressService;
  /** A running sandbox's link (gated and bridge networks). */
  link(sandboxId: string): SandboxLink | null;
  /**
   * A port on the sandbox's loopback that leads to `target` on the service's side (e.g. the model gateway),
   * kept across pauses and resumes until the sandbox is deleted.
   */
  forwardIn(sandboxId: string, port: number, target: ForwardTarget): Promise<void>;
  /** Logs the Docker diagnosis, then reconciles the sandboxes (in the background when Docker is down). */
  start(): Promise<void>;
}

/** Builds the sandbox service with both providers, the specs and the Docker connection. */
export function createSandboxLayer(options: SandboxLayerOptions): SandboxLayer {
  const { logger } = options;
  const config = resolveSandboxConfig(options.config ?? {}, options.environment);
  const docker = options.docker ?? new DockerConnection({ env: options.environment });
  const store = new SandboxStore(options.db);
  const instanceId = store.instanceId();
  const ownImage = { name: `dockhand/sandbox:${options.version}`, buildScript: config.imageBuildScript };
  const images = new DockerImages(docker, instanceId, ownImage, logger);
  const specs = new SandboxSpecs(options.settings, images, config.image, options.startedAt);
  const egress = new EgressService({
    policy: options.egressPolicy,
    resolve: config.resolver,
    protectedPorts: () => [options.servicePort(), ...dockerProvider.linkHostPorts()],
    holdMs: options.egressHoldMs,
  });
  const dockerProvider: DockerSandboxProvider = new DockerSandboxProvider(
    docker,
    images,
    instanceId,
    {
      network: () => sandboxes.networkMode(),
      limits: config.limits,
      allowSudo: config.allowSudo,
      egress,
    },
    logger,
    {
      // The override, else the setting; nothing while new sandboxes are not Docker's.
      size: () =>
        sandboxes.providerKind() === dockerProvider.kind
          ? (config.warmPool ?? options.settings().warmPool)
          : 0,
      spec: () => specs.default(),
      claimed: (id) => store.get(id) !== null,
    },
    options.readAheadRoots,
  );
  const sandboxes: SandboxService = new SandboxService({
    store,
    providers: {
      docker: dockerProvider,
      process: new ProcessSandboxProvider(
        options.dataDir,
        new SandboxProcesses(),
        hostBaseEnvironment(options.environment),
      ),
    },
    settings: options.settings,
    sessionKey: options.sessionKey,
    config,
    users: options.users,
    agentServerUrls: options.agentServerUrls,
    logger,
  });

  return {
    dockerStatus: () => docker.check(),
    sandboxes,
    specs,
    egress,
    link: (sandboxId) => dockerProvider.link(sandboxId),
    forwardIn: (sandboxId, port, target) => dockerProvider.forwardIn(sandboxId, port, target),
    async start() {
      const status = await docker.check();
      if (status.available) {
        logger.info({ endpoint: status.endpoint, api_version: status.api_version }, 'Docker is available');
      } else {
        logger.warn(
          { endpoint: status.endpoint, cause: status.cause },
          `Docker is not available: ${status.error}. Fix: ${status.fix}`,
        );
      }
      if (sandboxes.providerKind() === 'process') logger.warn(sandboxes.describe().warning);
      const reconciled = sandboxes.start();
      if (status.available) await reconciled;
      else
        reconciled.catch((error: unknown) => logger.error({ err: error }, 'Sandbox reconciliation failed'));
    },
  };
}
