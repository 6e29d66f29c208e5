import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { machineEnvironment, resolveDockerEndpoint } from '../../src/service/sandbox/docker/docker-endpoint';
import { DockerConnection } from '../../src/service/sandbox/docker/docker-status';
import type { SandboxInfo } from '../../src/shared/api/sandboxes';
import { type TestService, tempDataDir } from '../support/service';
import {
  createSandbox,
  dockerSkipReason,
  instanceId,
  removeLabelled,
  startSandboxService,
  statusOf,
} from './support';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const canSwitchUser = process.getuid?.() === 0;
if (!canSwitchUser) {
  console.warn('Skipping the permission-denied test: running the check as another user needs root');
}

function brokenDocker(): DockerConnection {
  const endpoint = resolveDockerEndpoint(machineEnvironment({ DOCKER_HOST: 'unix:///nonexistent.sock' }));
  return new DockerConnection({ env: process.env, endpoint });
}

interface ServerInfoDocker {
  docker: { available: boolean; endpoint: string; error: string; cause: string; fix: string };
}

describe('Docker diagnostics', () => {
  let service: TestService | undefined;

  afterAll(async () => {
    await service?.close();
  });

  it('names a wrong socket path "not running" with the fix, and answers writes with 503', async () => {
    service = await startSandboxService({ docker: brokenDocker() });
    const info = (await service.api('GET', '/server_info')).json as ServerInfoDocker;
    expect(info.docker).toMatchObject({
      available: false,
      endpoint: 'unix:///nonexistent.sock',
      cause: 'not_running',
    });
    expect(info.docker.error).toMatch(
      /^nothing answers at unix:\/\/\/nonexistent\.sock .*; the engine is not running$/,
    );
    expect(info.docker.fix).toMatch(/unset DOCKER_HOST/);

    const created = await service.api('POST', '/api/v1/sandboxes');
    expect(created.status).toBe(503);
    expect((created.json as { detail: string }).detail).toMatch(
      /^Docker is not available: nothing answers at unix:\/\/\/nonexistent\.sock .*; the engine is not running\. .*unset DOCKER_HOST/,
    );
    // Reads still work.
    expect((await service.api('GET', '/api/v1/sandboxes/search')).json).toEqual({
      items: [],
      next_page_id: null,
    });
    const specs = (await service.api('GET', '/api/v1/sandbox-specs/search')).json as {
      items: { image_present: boolean }[];
    };
    expect(specs.items[0]?.image_present).toBe(false);
    await service.close();
    service = undefined;
  });

  it.skipIf(!canSwitchUser)('names permission denied on the socket for a user without access', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dockhand-perm-'));
    chmodSync(dir, 0o755);
    const socket = path.join(dir, 'docker.sock');
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    chmodSync(socket, 0o000);
    try {
      // A real EACCES: the check runs as "nobody", which may not open the 000 socket.
      const output = await new Promise<string>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          ['--import', 'tsx', path.join(ROOT, 'test/sandbox/print-docker-status.ts')],
          {
            cwd: ROOT,
            uid: 65534,
            gid: 65534,
            env: { PATH: process.env.PATH, HOME: os.tmpdir(), DOCKER_HOST: `unix://${socket}` },
          },
        );
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.once('error', reject);
        child.once('exit', (code) =>
          code === 0 ? resolve(stdout) : reject(new Error(`exit ${code}: ${stderr}`)),
        );
      });
      const status = JSON.parse(output) as {
        available: boolean;
        cause: string;
        error: string;
        fix: string;
      };
      expect(status).toMatchObject({ available: false, cause: 'permission_denied' });
      expect(status.error).toBe(`Permission denied on the Docker socket unix://${socket} (DOCKER_HOST)`);
      expect(status.fix).toContain('sudo usermod -aG docker $USER');
    } finally {
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const skipReason = await dockerSkipReason();
if (skipReason) console.warn(`Skipping the lost-Docker test: ${skipReason}`);

describe.skipIf(skipReason !== null)('a sandbox while Docker is unreachable', () => {
  const dataDir = tempDataDir();
  let service: TestService | undefined;
  let label = '';

  afterAll(async () => {
    await service?.close();
    if (label) await removeLabelled(label);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is ERROR with the reason, refuses writes with 503, and recovers when Docker answers again', async () => {
    service = await startSandboxService({ dataDir }, { onClose: 'leave' });
    label = `dev.dockhand.instance=${instanceId(service)}`;
    const sandbox = await createSandbox(service);
    await service.close({ keepData: true });

    service = await startSandboxService({ dataDir, docker: brokenDocker() });
    await expect.poll(() => statusOf(service as TestService, sandbox.id), { timeout: 30_000 }).toBe('ERROR');
    const info = (await service.api('GET', `/api/v1/sandboxes/${sandbox.id}`)).json as SandboxInfo;
    expect(info.error).toMatch(/^Docker is not available: nothing answers at .*; the engine is not running/);
    expect((await service.api('DELETE', `/api/v1/sandboxes/${sandbox.id}`)).status).toBe(503);
    expect((await service.api('POST', `/api/v1/sandboxes/${sandbox.id}/pause`)).status).toBe(409);
    await service.close({ keepData: true });

    service = await startSandboxService({ dataDir });
    expect(await statusOf(service, sandbox.id)).toBe('RUNNING');
  });
});
