import type Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { ensureSandboxNetwork, SANDBOX_NETWORK } from './sandbox-network';

/** The network calls of the engine API, on a map of networks by name (no traffic: the options only). */
function engine(existing: Record<string, { Options?: Record<string, string> }>) {
  const created: Docker.NetworkCreateOptions[] = [];
  const docker = {
    getNetwork: (name: string) => ({
      inspect: async () => {
        const found = existing[name];
        if (!found) throw Object.assign(new Error('network not found'), { statusCode: 404 });
        return found;
      },
    }),
    createNetwork: async (options: Docker.NetworkCreateOptions) => {
      created.push(options);
      existing[options.Name] = { Options: options.Options };
    },
  } as unknown as Docker;
  return { docker, created };
}

describe('ensureSandboxNetwork', () => {
  it('creates the sandbox network with inter-container traffic off', async () => {
    const { docker, created } = engine({});
    await ensureSandboxNetwork(docker);
    expect(created).toMatchObject([
      { Name: SANDBOX_NETWORK, Options: { 'com.docker.network.bridge.enable_icc': 'false' } },
    ]);
    await ensureSandboxNetwork(docker);
    expect(created).toHaveLength(1);
  });

  it('refuses a network of that name on which containers can reach each other', async () => {
    const { docker } = engine({ [SANDBOX_NETWORK]: { Options: {} } });
    await expect(ensureSandboxNetwork(docker)).rejects.toThrow(/lets containers reach each other/);
  });
});
