import { DEFAULT_LIMITS, type NetworkMode, type SandboxLimits } from './docker/container-options';
import { type Resolver, systemResolver } from './link/egress-gate';
import type { SandboxProviderKind } from './sandbox-models';

export interface SandboxConfig {
  /** Forces the provider of new sandboxes (DOCKHAND_SANDBOX_PROVIDER); null = the `sandbox_provider` setting. */
  provider: SandboxProviderKind | null;
  /** Replaces the built-in image (DOCKHAND_SANDBOX_IMAGE), e.g. the offline `dockhand/sandbox:<version>`. */
  image: string | null;
  /**
   * scripts/sandbox-image.sh, which builds Dockhand's own image when the configured one cannot be had and
   * the own one is missing too; null where it is not shipped (then that case fails, naming the fix).
   */
  imageBuildScript: string | null;
  /**
   * Forces the network of new Docker sandboxes (DOCKHAND_SANDBOX_NETWORK; tests use none or host); null = the
   * `sandbox_network` setting (gated by default).
   */
  network: NetworkMode | null;
  /** Names to addresses for the egress policy (tests map their names to loopback servers); the system's DNS. */
  resolver: Resolver;
  limits: SandboxLimits;
  /** Whether the sandbox user may use sudo (then `no-new-privileges` is not set). */
  allowSudo: boolean;
  /** Pause a RUNNING sandbox unused this long (DOCKHAND_SANDBOX_IDLE_PAUSE_S); 0 = never. */
  idlePauseSeconds: number;
  /** What happens to live sandboxes when the service closes: paused (default, api-contract §18) or left running. */
  onClose: 'pause' | 'leave';
  /** Forces the warm pool's size (DOCKHAND_SANDBOX_WARM_POOL, e.g. 0 in tests); null = the `sandbox_warm_pool` setting. */
  warmPool: number | null;
}

const PROVIDERS = ['docker', 'process'] as const;
const NETWORKS = ['gated', 'bridge', 'host', 'none'] as const;

function oneOf<T extends string>(
  name: string,
  value: string | undefined,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined || value === '') return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new Error(`${name} must be one of ${allowed.join(', ')} (got "${value}")`);
}

function wholeNumber(name: string, value: string | undefined, unit: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a whole number${unit}`);
  return parsed;
}

const seconds = (name: string, value: string | undefined) => wholeNumber(name, value, ' of seconds');
const count = (name: string, value: string | undefined) => wholeNumber(name, value, '');

/**
 * The sandbox configuration: explicit options first, then the environment (the service's, as config.ts read
 * it and passed it down), then the defaults.
 */
export function resolveSandboxConfig(options: Partial<SandboxConfig>, env: NodeJS.ProcessEnv): SandboxConfig {
  return {
    provider:
      options.provider ??
      oneOf('DOCKHAND_SANDBOX_PROVIDER', env.DOCKHAND_SANDBOX_PROVIDER, PROVIDERS) ??
      null,
    image: options.image ?? (env.DOCKHAND_SANDBOX_IMAGE || null),
    imageBuildScript: options.imageBuildScript ?? null,
    network:
      options.network ?? oneOf('DOCKHAND_SANDBOX_NETWORK', env.DOCKHAND_SANDBOX_NETWORK, NETWORKS) ?? null,
    resolver: options.resolver ?? systemResolver,
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    allowSudo: options.allowSudo ?? true,
    idlePauseSeconds:
      options.idlePauseSeconds ??
      seconds('DOCKHAND_SANDBOX_IDLE_PAUSE_S', env.DOCKHAND_SANDBOX_IDLE_PAUSE_S) ??
      900,
    onClose: options.onClose ?? 'pause',
    warmPool: options.warmPool ?? count('DOCKHAND_SANDBOX_WARM_POOL', env.DOCKHAND_SANDBOX_WARM_POOL) ?? null,
  };
}
