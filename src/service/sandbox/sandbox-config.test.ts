import { describe, expect, it } from 'vitest';
import { systemResolver } from './link/egress-gate';
import { resolveSandboxConfig } from './sandbox-config';

describe('resolveSandboxConfig', () => {
  it('has the documented defaults', () => {
    expect(resolveSandboxConfig({}, {})).toEqual({
      provider: null,
      image: null,
      imageBuildScript: null,
      network: null,
      resolver: systemResolver,
      limits: { cpus: 2, memoryBytes: 4 * 1024 ** 3, pids: 1024 },
      allowSudo: true,
      idlePauseSeconds: 900,
      onClose: 'pause',
      warmPool: null,
    });
  });

  it('reads the environment, with explicit options first', () => {
    const env = {
      DOCKHAND_SANDBOX_PROVIDER: 'process',
      DOCKHAND_SANDBOX_IMAGE: 'dockhand/sandbox:1.0.0',
      DOCKHAND_SANDBOX_NETWORK: 'host',
      DOCKHAND_SANDBOX_IDLE_PAUSE_S: '0',
      DOCKHAND_SANDBOX_WARM_POOL: '0',
    };
    expect(resolveSandboxConfig({}, env)).toMatchObject({
      provider: 'process',
      image: 'dockhand/sandbox:1.0.0',
      network: 'host',
      idlePauseSeconds: 0,
      warmPool: 0,
    });
    expect(
      resolveSandboxConfig({ network: 'none', limits: { cpus: 1, memoryBytes: 1, pids: 10 } }, env),
    ).toMatchObject({
      network: 'none',
      limits: { cpus: 1, memoryBytes: 1, pids: 10 },
    });
  });

  it('refuses values it does not know instead of guessing', () => {
    expect(() => resolveSandboxConfig({}, { DOCKHAND_SANDBOX_PROVIDER: 'kubernetes' })).toThrow(
      /DOCKHAND_SANDBOX_PROVIDER must be one of docker, process/,
    );
    expect(() => resolveSandboxConfig({}, { DOCKHAND_SANDBOX_NETWORK: 'macvlan' })).toThrow(
      /gated, bridge, host, none/,
    );
    expect(() => resolveSandboxConfig({}, { DOCKHAND_SANDBOX_WARM_POOL: '-1' })).toThrow(
      /DOCKHAND_SANDBOX_WARM_POOL must be a whole number/,
    );
  });
});
