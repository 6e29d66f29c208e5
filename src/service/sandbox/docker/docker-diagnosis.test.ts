import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { apiOlderThan, diagnoseConnectionError, type MachineFacts } from './docker-diagnosis';
import { type DockerEndpoint, resolveDockerEndpoint, machineEnvironment } from './docker-endpoint';
import { DockerConnection } from './docker-status';

const LINUX: MachineFacts = { platform: 'linux', dockerInstalled: true, wsl: false };

function endpointFor(socket: string): DockerEndpoint {
  return resolveDockerEndpoint(machineEnvironment({ DOCKER_HOST: `unix://${socket}` }));
}

/** The error a real connect() to `socket` fails with. */
function connectError(socket: string): Promise<NodeJS.ErrnoException> {
  return new Promise((resolve, reject) => {
    const client = connect(socket);
    client.once('connect', () => reject(new Error('connected')));
    client.once('error', resolve);
  });
}

const dirs: string[] = [];
const servers: Server[] = [];

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'dockhand-diag-'));
  dirs.push(dir);
  return dir;
}

/** An HTTP server on a unix socket that answers like an engine with the given API version. */
async function fakeEngine(apiVersion: string): Promise<string> {
  const socket = path.join(tempDir(), 'engine.sock');
  const server = createServer((req, res) => {
    if (req.url?.endsWith('/_ping')) {
      res.end('OK');
      return;
    }
    res.setHeader('Content-Type', 'application/json');
    res.end(
      JSON.stringify({ ApiVersion: apiVersion, Version: apiVersion === '1.40' ? '19.03.15' : '24.0.7' }),
    );
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  return socket;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('diagnoseConnectionError', () => {
  it('names a missing socket "not running" with the fix for the address DOCKER_HOST names', async () => {
    const error = await connectError('/nonexistent.sock');
    expect(error.code).toBe('ENOENT');
    const diagnosis = diagnoseConnectionError(error, endpointFor('/nonexistent.sock'), LINUX);
    expect(diagnosis.cause).toBe('not_running');
    expect(diagnosis.message).toContain('unix:///nonexistent.sock (DOCKER_HOST)');
    expect(diagnosis.fix).toContain('unset DOCKER_HOST');
  });

  it('names "not installed" when no default socket and no docker client exist', async () => {
    const error = await connectError('/nonexistent.sock');
    const endpoint: DockerEndpoint = {
      url: 'unix:///var/run/docker.sock',
      source: { kind: 'default', found: false },
      options: { socketPath: '/var/run/docker.sock' },
      problem: null,
    };
    const diagnosis = diagnoseConnectionError(error, endpoint, { ...LINUX, dockerInstalled: false });
    expect(diagnosis.cause).toBe('not_installed');
    expect(diagnosis.fix).toMatch(/Install Docker Engine/);
    const mac = diagnoseConnectionError(error, endpoint, {
      ...LINUX,
      platform: 'darwin',
      dockerInstalled: false,
    });
    expect(mac.fix).toMatch(/Install Docker Desktop/);
  });

  it('tells WSL users to turn on Docker Desktop WSL integration', async () => {
    const error = await connectError('/nonexistent.sock');
    const endpoint: DockerEndpoint = {
      url: 'unix:///var/run/docker.sock',
      source: { kind: 'default', found: false },
      options: { socketPath: '/var/run/docker.sock' },
      problem: null,
    };
    const diagnosis = diagnoseConnectionError(error, endpoint, { ...LINUX, wsl: true });
    expect(diagnosis.cause).toBe('not_running');
    expect(diagnosis.fix).toMatch(/WSL integration/);
  });

  it('names a socket nobody listens on (ECONNREFUSED) "not running"', async () => {
    const socket = path.join(tempDir(), 'stale.sock');
    // A process that listens, then dies without removing its socket file.
    const child = spawn(process.execPath, [
      '-e',
      `require('net').createServer().listen(${JSON.stringify(socket)})`,
    ]);
    while (!existsSync(socket)) await sleep(20);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const error = await connectError(socket);
    expect(error.code).toBe('ECONNREFUSED');
    expect(diagnoseConnectionError(error, endpointFor(socket), LINUX).cause).toBe('not_running');
  });

  it('names EACCES "permission denied" with the docker group fix', () => {
    const error = Object.assign(new Error('connect EACCES /var/run/docker.sock'), { code: 'EACCES' });
    const diagnosis = diagnoseConnectionError(error, endpointFor('/var/run/docker.sock'), LINUX);
    expect(diagnosis.cause).toBe('permission_denied');
    expect(diagnosis.fix).toContain('usermod -aG docker');
  });
});

describe('apiOlderThan', () => {
  it('compares API versions numerically', () => {
    expect(apiOlderThan('1.40')).toBe(true);
    expect(apiOlderThan('1.41')).toBe(false);
    expect(apiOlderThan('1.9')).toBe(true);
    expect(apiOlderThan('1.100')).toBe(false);
    expect(apiOlderThan('2.0')).toBe(false);
  });
});

describe('DockerConnection.check', () => {
  it('reports an engine older than API 1.41 as engine_too_old', async () => {
    const socket = await fakeEngine('1.40');
    const status = await new DockerConnection({
      env: {},
      endpoint: endpointFor(socket),
      facts: LINUX,
    }).check();
    expect(status).toMatchObject({ available: false, cause: 'engine_too_old', api_version: null });
    expect(status.error).toContain('API 1.40');
    expect(status.fix).toMatch(/Update Docker/);
  });

  it('reports a current engine as available with its API version', async () => {
    const socket = await fakeEngine('1.43');
    const status = await new DockerConnection({
      env: {},
      endpoint: endpointFor(socket),
      facts: LINUX,
    }).check();
    expect(status).toEqual({
      available: true,
      endpoint: `unix://${socket}`,
      error: null,
      cause: null,
      fix: null,
      api_version: '1.43',
    });
  });

  it('reports a misconfigured address without dialling anything', async () => {
    const endpoint = resolveDockerEndpoint(machineEnvironment({ DOCKER_HOST: 'ftp://nowhere' }));
    const status = await new DockerConnection({ env: {}, endpoint, facts: LINUX }).check();
    expect(status.cause).toBe('misconfigured');
    expect(status.fix).toMatch(/DOCKER_HOST/);
  });
});
