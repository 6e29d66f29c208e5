import type { WarmPoolState } from '../../shared/api/server';
import type { NetworkMode } from './docker/container-options';
import type { SandboxProviderKind } from './sandbox-models';
import type { SandboxProvider } from './sandbox-provider';

const NO_POOL: WarmPoolState = { size: 0, ready: 0, filling: 0, spec: null, error: null };

/** For /server_info: the provider of new sandboxes, and plainly whether commands are isolated. */
export function sandboxSummary(provider: SandboxProvider, kind: SandboxProviderKind, network: NetworkMode) {
  const isolated = provider.isolated;
  return {
    provider: kind,
    isolated,
    network: kind === 'docker' ? network : null,
    warning: isolated
      ? null
      : 'Process sandboxes are on: commands run unsandboxed on this computer, as your user, with access to ' +
        'your files. Use the "docker" sandbox provider for isolation.',
    warm_pool: provider.pool?.state() ?? NO_POOL,
  };
}
