import { describe, expect, it } from 'vitest';
import type { SandboxSpec } from '../sandbox-models';
import { BUILT_IN_IMAGE, INITIAL_ENV, WORKING_DIR } from '../sandbox-specs';
import {
  type ContainerPlan,
  containerOptions,
  DEFAULT_LIMITS,
  exposedUrls,
  networkOf,
} from './container-options';
import { SANDBOX_NETWORK, sandboxNetworkOptions } from './sandbox-network';

const SPEC: SandboxSpec = {
  id: BUILT_IN_IMAGE,
  command: ['sleep', 'infinity'],
  initialEnv: INITIAL_ENV,
  workingDir: WORKING_DIR,
  title: 'Built-in',
  description: '',
};
const ID = 'sbx-3kT9qLmN2pXv8RbC1dFh4Z';

function plan(change: Partial<ContainerPlan> = {}): ContainerPlan {
  return {
    sandboxId: ID,
    instanceId: 'install-1',
    spec: SPEC,
    user: 'dockhand',
    network: 'bridge',
    limits: DEFAULT_LIMITS,
    allowSudo: true,
    ...change,
  };
}

describe('containerOptions', () => {
  it('labels, names, mounts and limits the container as api-contract §11 says', () => {
    const options = containerOptions(plan());
    expect(options.name).toBe(`dockhand-${ID}`);
    expect(options.Labels).toEqual({
      'dev.dockhand.managed': 'true',
      'dev.dockhand.instance': 'install-1',
      'dev.dockhand.sandbox_id': ID,
      'dev.dockhand.spec': BUILT_IN_IMAGE,
      'dev.dockhand.network': 'bridge',
    });
    expect(options.Cmd).toEqual(['sleep', 'infinity']);
    expect(options.Env).toEqual(['LANG=C.UTF-8']);
    expect(options.WorkingDir).toBe('/workspace/project');
    expect(options.User).toBe('dockhand');
    const host = options.HostConfig ?? {};
    expect(host.Init).toBe(true);
    expect(host.Privileged).toBe(false);
    expect(host.Mounts?.[0]).toMatchObject({
      Type: 'volume',
      Source: `dockhand-ws-${ID}`,
      Target: '/workspace',
      VolumeOptions: { Labels: { 'dev.dockhand.managed': 'true', 'dev.dockhand.sandbox_id': ID } },
    });
    expect(host.NanoCpus).toBe(2_000_000_000);
    expect(host.Memory).toBe(4 * 1024 ** 3);
    expect(host.MemorySwap).toBe(host.Memory);
    expect(host.PidsLimit).toBe(1024);
  });

  it('drops every capability but the few sudo and file ownership need', () => {
    const host = containerOptions(plan()).HostConfig ?? {};
    expect(host.CapDrop).toEqual(['ALL']);
    expect(host.CapAdd).toEqual(
      expect.arrayContaining(['CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'SETUID', 'SETGID', 'AUDIT_WRITE', 'KILL']),
    );
    expect(host.CapAdd).not.toContain('NET_RAW');
    expect(host.CapAdd).not.toContain('SYS_ADMIN');
  });

  it('sets no-new-privileges unless a non-root user may use sudo', () => {
    expect(containerOptions(plan()).HostConfig?.SecurityOpt).toEqual([]);
    expect(containerOptions(plan({ allowSudo: false })).HostConfig?.SecurityOpt).toEqual([
      'no-new-privileges',
    ]);
    const root = containerOptions(plan({ user: null }));
    expect(root.User).toBeUndefined();
    expect(root.HostConfig?.SecurityOpt).toEqual(['no-new-privileges']);
  });

  it('publishes the app ports on random 127.0.0.1 ports on the sandbox bridge network', () => {
    const options = containerOptions(plan());
    expect(options.ExposedPorts).toEqual({ '8011/tcp': {}, '8012/tcp': {} });
    expect(options.HostConfig?.PortBindings).toEqual({
      '8011/tcp': [{ HostIp: '127.0.0.1', HostPort: '' }],
      '8012/tcp': [{ HostIp: '127.0.0.1', HostPort: '' }],
    });
    expect(options.HostConfig?.NetworkMode).toBe(SANDBOX_NETWORK);
  });

  it('puts bridge sandboxes on a network where containers cannot reach each other, never the default bridge', () => {
    expect(containerOptions(plan()).HostConfig?.NetworkMode).not.toBe('bridge');
    expect(containerOptions(plan()).HostConfig?.NetworkMode).toBe('dockhand-sandboxes');
    expect(sandboxNetworkOptions()).toEqual({
      Name: 'dockhand-sandboxes',
      Driver: 'bridge',
      CheckDuplicate: true,
      Options: { 'com.docker.network.bridge.enable_icc': 'false' },
      Labels: { 'dev.dockhand.managed': 'true' },
    });
  });

  it('publishes nothing without a network, and maps the hostname for sudo', () => {
    const options = containerOptions(plan({ network: 'none' }));
    expect(options.HostConfig?.NetworkMode).toBe('none');
    expect(options.HostConfig?.PortBindings).toBeUndefined();
    expect(options.ExposedPorts).toBeUndefined();
    expect(options.Hostname).toBe('sandbox');
    expect(options.HostConfig?.ExtraHosts).toEqual(['sandbox:127.0.0.1']);
  });

  it("gives a gated sandbox only loopback, and its link's proxy in the environment of everything it runs", () => {
    const options = containerOptions(plan({ network: 'gated' }));
    expect(options.HostConfig?.NetworkMode).toBe('none');
    expect(options.HostConfig?.PortBindings).toBeUndefined();
    expect(options.Labels?.['dev.dockhand.network']).toBe('gated');
    expect(options.Env).toEqual(
      expect.arrayContaining([
        'HTTP_PROXY=http://127.0.0.1:3128',
        'HTTPS_PROXY=http://127.0.0.1:3128',
        'http_proxy=http://127.0.0.1:3128',
        'https_proxy=http://127.0.0.1:3128',
        'NO_PROXY=localhost,127.0.0.1',
        'LANG=C.UTF-8',
      ]),
    );
    expect(options.HostConfig?.ExtraHosts).toEqual(['sandbox:127.0.0.1']);
    // Other modes have no proxy.
    expect(containerOptions(plan()).Env).toEqual(['LANG=C.UTF-8']);
  });

  it("reads a container's network from its label, else from Docker's mode", () => {
    const info = (labels: Record<string, string>, mode: string) => ({
      Config: { Labels: labels },
      HostConfig: { NetworkMode: mode },
    });
    expect(networkOf(info({ 'dev.dockhand.network': 'gated' }, 'none'))).toBe('gated');
    expect(networkOf(info({}, 'none'))).toBe('none');
    expect(networkOf(info({}, 'dockhand-sandboxes'))).toBe('bridge');
  });

  it('keeps the host name and ports with host networking', () => {
    const options = containerOptions(plan({ network: 'host' }));
    expect(options.HostConfig?.NetworkMode).toBe('host');
    expect(options.Hostname).toBeUndefined();
    expect(options.HostConfig?.PortBindings).toBeUndefined();
  });
});

describe('exposedUrls', () => {
  it('reports the published host ports on a bridge', () => {
    const ports = {
      '8011/tcp': [{ HostIp: '127.0.0.1', HostPort: '51234' }],
      '8012/tcp': [{ HostIp: '127.0.0.1', HostPort: '51235' }],
    };
    expect(exposedUrls('bridge', ports)).toEqual([
      { name: 'WORKER_1', url: 'http://localhost:51234', port: 51234 },
      { name: 'WORKER_2', url: 'http://localhost:51235', port: 51235 },
    ]);
  });

  it('reports the container ports themselves with host networking', () => {
    expect(exposedUrls('host', {}).map((url) => url.port)).toEqual([8011, 8012]);
  });

  it('reports nothing without a network', () => {
    expect(exposedUrls('none', {})).toEqual([]);
  });
});
