import type Docker from 'dockerode';
import type { SandboxSpec } from '../sandbox-models';
import { containerName, volumeName } from '../sandbox-id';
import { installLabels, LABEL } from './labels';
import { lentMount } from './lent-folders';
import { SANDBOX_NETWORK } from './sandbox-network';

export const WORKSPACE_DIR = '/workspace';
/** Container ports of the two app ports (WORKER_1, WORKER_2). */
export const APP_PORTS = { WORKER_1: 8011, WORKER_2: 8012 } as const;
const HOSTNAME = 'sandbox';

/**
 * `bridge` (default, with egress: Dockhand's own bridge network, where sandboxes cannot reach each other),
 * `none` (no network, tests) or `host` (tests that reach 127.0.0.1).
 */
export type NetworkMode = 'bridge' | 'none' | 'host';

export interface SandboxLimits {
  cpus: number;
  memoryBytes: number;
  pids: number;
}

export const DEFAULT_LIMITS: SandboxLimits = { cpus: 2, memoryBytes: 4 * 1024 ** 3, pids: 1024 };

/**
 * Capabilities a non-root user needs for `sudo` (SETUID, SETGID, AUDIT_WRITE), and root inside the sandbox for
 * everyday file work and package installs (CHOWN, DAC_OVERRIDE, FOWNER, FSETID) and for signalling the user's
 * processes (KILL). Everything else Docker grants by default (NET_RAW, MKNOD, SYS_CHROOT, SETFCAP, ...) is dropped.
 */
export const SANDBOX_CAPABILITIES = [
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'SETUID',
  'SETGID',
  'AUDIT_WRITE',
];

export interface ContainerPlan {
  sandboxId: string;
  instanceId: string;
  spec: SandboxSpec;
  /** The image's non-root user, or null to run as root. */
  user: string | null;
  network: NetworkMode;
  limits: SandboxLimits;
  /**
   * Whether the user may use sudo (a setuid binary). When false, or when the sandbox runs as root anyway,
   * `no-new-privileges` is set so no setuid binary can raise privileges.
   */
  allowSudo: boolean;
  /** Made for the warm pool (labelled so a crash leaves nothing that a restart cannot find). */
  pooled?: boolean;
}

function portKey(port: number): string {
  return `${port}/tcp`;
}

/** Hostname and /etc/hosts entries: host networking keeps the host's; `none` needs the name mapped by hand. */
function naming(network: NetworkMode): Pick<Docker.ContainerCreateOptions, 'Hostname'> & {
  ExtraHosts?: string[];
} {
  if (network === 'host') return {};
  if (network === 'none') return { Hostname: HOSTNAME, ExtraHosts: [`${HOSTNAME}:127.0.0.1`] };
  return { Hostname: HOSTNAME };
}

/** The `docker create` options of a sandbox container. */
export function containerOptions(plan: ContainerPlan): Docker.ContainerCreateOptions {
  const { sandboxId, spec, network, limits } = plan;
  const labels = installLabels(plan.instanceId);
  const publish = network === 'bridge';
  const appPorts = Object.values(APP_PORTS);
  const { ExtraHosts, ...names } = naming(network);
  const noNewPrivileges = !plan.allowSudo || plan.user === null;
  return {
    name: containerName(sandboxId),
    Image: spec.id,
    Cmd: spec.command,
    Env: Object.entries(spec.initialEnv).map(([key, value]) => `${key}=${value}`),
    WorkingDir: spec.workingDir,
    ...(plan.user ? { User: plan.user } : {}),
    ...names,
    Labels: {
      ...labels,
      [LABEL.sandboxId]: sandboxId,
      [LABEL.spec]: spec.id,
      ...(plan.pooled ? { [LABEL.pool]: 'true' } : {}),
    },
    ...(publish ? { ExposedPorts: Object.fromEntries(appPorts.map((port) => [portKey(port), {}])) } : {}),
    HostConfig: {
      Init: true,
      NetworkMode: network === 'bridge' ? SANDBOX_NETWORK : network,
      ...(ExtraHosts ? { ExtraHosts } : {}),
      ...(publish
        ? {
            PortBindings: Object.fromEntries(
              appPorts.map((port) => [portKey(port), [{ HostIp: '127.0.0.1', HostPort: '' }]]),
            ),
          }
        : {}),
      Mounts: [
        {
          Type: 'volume',
          Source: volumeName(sandboxId),
          Target: WORKSPACE_DIR,
          // Created with the container; seeded from the image's /workspace (NoCopy false).
          VolumeOptions: {
            NoCopy: false,
            Labels: { ...labels, [LABEL.sandboxId]: sandboxId },
            DriverConfig: { Name: 'local', Options: {} },
          },
        },
        lentMount(),
      ],
      NanoCpus: Math.round(limits.cpus * 1e9),
      Memory: limits.memoryBytes,
      MemorySwap: limits.memoryBytes,
      PidsLimit: limits.pids,
      Privileged: false,
      CapDrop: ['ALL'],
      CapAdd: SANDBOX_CAPABILITIES,
      SecurityOpt: noNewPrivileges ? ['no-new-privileges'] : [],
      RestartPolicy: { Name: 'no' },
    },
  };
}

/** The app ports as reachable from this machine, from the container's inspect data. */
export function exposedUrls(
  network: NetworkMode,
  ports: Record<string, { HostIp: string; HostPort: string }[] | null> | undefined,
) {
  const entries = Object.entries(APP_PORTS) as [keyof typeof APP_PORTS, number][];
  return entries.flatMap(([name, containerPort]) => {
    // Host networking: the app's port is the host's port.
    const hostPort =
      network === 'host' ? containerPort : Number(ports?.[portKey(containerPort)]?.[0]?.HostPort ?? NaN);
    return Number.isInteger(hostPort) && hostPort > 0
      ? [{ name, url: `http://localhost:${hostPort}`, port: hostPort }]
      : [];
  });
}
