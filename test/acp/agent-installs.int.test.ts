import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { acpAgent } from '../../src/service/acp/agent-catalog';
import { AgentInstalls, type InstallerNpm } from '../../src/service/acp/agent-installs';
import { installerNpm } from '../../src/service/acp/installer-npm';
import { LentFolders, lentMount } from '../../src/service/sandbox/docker/lent-folders';
import { DockerWorkspace } from '../../src/service/sandbox/docker/docker-workspace';
import { dockerUnavailableReason, removeContainer, SANDBOX_IMAGE } from '../support/test-sandboxes';

/** The npm the service would install agents with here. */
function testNpm(): InstallerNpm {
  const npm = installerNpm(process.env);
  if (!npm) throw new Error('no npm on the PATH of the tests');
  return npm;
}

/** A port on 127.0.0.1 that refuses connections (listened on, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const root = mkdtempSync(path.join(os.tmpdir(), 'dockhand-agents-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const installs = (environment: NodeJS.ProcessEnv) =>
  new AgentInstalls({ root, npm: testNpm(), arch: process.arch, environment });

describe('agent installs', () => {
  it('reports a registry it cannot reach as a failed install with the reason, and leaves nothing half-installed', async () => {
    const registry = `http://127.0.0.1:${await closedPort()}/`;
    const unreachable = installs({
      ...process.env,
      npm_config_registry: registry,
      npm_config_fetch_retries: '0',
    });
    await unreachable.init();
    await expect(unreachable.ensure('opencode')).rejects.toThrow(
      /Installing opencode \(opencode-ai@1\.18\.33\) failed/,
    );
    const status = await unreachable.status('opencode');
    expect(status.state).toBe('failed');
    expect(status.error).toMatch(/Fix: check that this computer reaches the npm registry/);
    expect(readdirSync(root)).toEqual([]);
  });

  it('installs the pinned package from the registry, once, and reports it installed with its size', async () => {
    const registryInstalls = installs(process.env);
    const heard: string[] = [];
    const [first, second] = await Promise.all([
      registryInstalls.ensure('opencode', (message) => heard.push(message)),
      registryInstalls.ensure('opencode'),
    ]);
    expect(second.folder).toBe(first.folder);
    expect(heard.length).toBeGreaterThan(0);
    expect(readdirSync(root)).toEqual(['opencode-1.18.33']);
    expect(existsSync(path.join(first.folder, first.launch.entry))).toBe(true);
    const status = await registryInstalls.status('opencode');
    expect(status).toMatchObject({ state: 'installed', error: null });
    expect(status.size_bytes).toBeGreaterThan(10_000_000);
    console.log(
      `opencode ${acpAgent('opencode').version}: ${status.size_bytes} bytes in ${status.install_seconds} s`,
    );
    // A later service finds the install as it was, and sweeps only unfinished ones.
    const later = installs(process.env);
    await later.init();
    expect((await later.status('opencode')).state).toBe('installed');
  });
});

const docker = new Docker();
const dockerSkip = await dockerUnavailableReason(docker);
if (dockerSkip) console.warn(`Skipping lent agent folders: ${dockerSkip}`);

describe.skipIf(dockerSkip !== null)('an installed agent lent to a container sandbox', () => {
  it('runs from the read-only lent volume, copied once for every sandbox of the engine', async () => {
    const installed = await installs(process.env).ensure('opencode');
    const containers = await Promise.all(
      [1, 2].map(async () => {
        const container = await docker.createContainer({
          Image: SANDBOX_IMAGE,
          Cmd: ['sleep', 'infinity'],
          User: 'dockhand',
          Labels: { 'dev.dockhand.managed': 'true', 'dev.dockhand.test': 'lent-folders' },
          HostConfig: { Init: true, NetworkMode: 'none', Mounts: [lentMount()] },
        });
        await container.start();
        return container;
      }),
    );
    try {
      const lent = new LentFolders(docker);
      const workspaces = containers.map(
        (container, index) =>
          new DockerWorkspace({
            sandboxId: `lent-${index}`,
            container,
            user: 'dockhand',
            workspaceDir: '/workspace',
            workingDir: '/workspace',
            appPorts: { WORKER_1: 0, WORKER_2: 0 },
            lent,
          }),
      );
      const [inFirst, inSecond] = await Promise.all(
        workspaces.map((workspace) => workspace.lend(installed.folder, installed.lentName)),
      );
      expect(inSecond).toBe(inFirst);
      for (const workspace of workspaces) {
        const version = await workspace.exec([`${inFirst}/${installed.launch.entry}`, '--version']);
        expect(version.stdout.trim()).toBe(acpAgent('opencode').version);
        const write = await workspace.exec(['touch', `${inFirst}/planted`]);
        expect(write.exitCode).not.toBe(0);
        expect(write.stderr).toMatch(/Read-only file system/);
      }
    } finally {
      await Promise.all(containers.map(removeContainer));
    }
  });
});
