import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, ensureCliBuilt, runCli, startServe } from '../support/cli';
import { freePort } from '../support/ports';
import { rawRequest, startTestService } from '../support/service';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function mode(file: string): number {
  return statSync(file).mode & 0o777;
}

describe('discovery file', () => {
  it('writes server.json {url, port, pid, started_at} with mode 0600 and removes it on close', async () => {
    const svc = await startTestService();
    const file = path.join(svc.dataDir, 'server.json');
    try {
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
        url: `http://127.0.0.1:${svc.port}`,
        port: svc.port,
        pid: process.pid,
        started_at: expect.stringMatching(ISO_UTC),
      });
      expect(mode(file)).toBe(0o600);
      expect(readFileSync(file, 'utf8')).not.toContain(svc.key);
    } finally {
      await svc.close({ keepData: true });
    }
    expect(existsSync(file)).toBe(false);
    rmSync(svc.dataDir, { recursive: true, force: true });
  });
});

describe('dockhand command line', () => {
  let root: string;
  const env = cliEnv({ DOCKHAND_SECRETS: 'file' });

  beforeAll(() => {
    ensureCliBuilt();
    root = mkdtempSync(path.join(os.tmpdir(), 'dockhand-cli-'));
  });
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('serves on the given port, prints the browser link, and stops cleanly on SIGTERM', async () => {
    const dataDir = path.join(root, 'serve', 'data');
    const port = await freePort();
    const cli = await startServe(['--data-dir', dataDir, '--port', String(port)], env);
    let stopped = false;
    try {
      expect(cli.banner).toMatch(
        new RegExp(`^Dockhand is running at http://127\\.0\\.0\\.1:${port}/#key=[A-Za-z0-9_-]{43}$`),
      );
      expect(cli.port).toBe(port);
      expect(mode(dataDir)).toBe(0o700);

      expect(await rawRequest(port, 'GET', '/alive')).toMatchObject({ status: 200, json: { status: 'ok' } });
      expect(await rawRequest(port, 'GET', '/api/secrets', { key: cli.key })).toMatchObject({
        status: 200,
        json: { custom_secrets: [] },
      });
      expect(await rawRequest(port, 'GET', '/server_info', { key: cli.key })).toMatchObject({
        status: 200,
        json: { secret_storage: 'file', keychain: { backend: 'file', state: 'ok' } },
      });

      const discovery = path.join(dataDir, 'server.json');
      expect(JSON.parse(readFileSync(discovery, 'utf8'))).toEqual({
        url: `http://127.0.0.1:${port}`,
        port,
        pid: cli.child.pid,
        started_at: expect.stringMatching(ISO_UTC),
      });
      expect(mode(discovery)).toBe(0o600);

      const key = await runCli(['key', '--data-dir', dataDir], env);
      expect(key).toMatchObject({ code: 0, stdout: `${cli.key}\n` });

      const result = await cli.stop('SIGTERM');
      stopped = true;
      expect(result).toMatchObject({ code: 0, signal: null });
      expect(existsSync(discovery)).toBe(false);
      expect(existsSync(path.join(dataDir, 'dockhand.db'))).toBe(true);
    } finally {
      if (!stopped) await cli.stop('SIGKILL');
    }
  });

  it('keeps the same key across restarts of serve', async () => {
    const dataDir = path.join(root, 'restart');
    const first = await startServe(['--data-dir', dataDir, '--port', String(await freePort())], env);
    expect((await first.stop()).code).toBe(0);
    const second = await startServe(['--data-dir', dataDir, '--port', String(await freePort())], env);
    try {
      expect(second.key).toBe(first.key);
    } finally {
      expect((await second.stop()).code).toBe(0);
    }
  });

  it('exits 1 with a clear message when --port is taken', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const dataDir = path.join(root, 'taken');
      const result = await runCli(['serve', '--data-dir', dataDir, '--port', String(port)], env);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(
        `dockhand: Port ${port} on 127.0.0.1 is already in use. Choose another with --port, or stop what is using it.`,
      );
      expect(existsSync(path.join(dataDir, 'server.json'))).toBe(false);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  it('refuses an invalid port and an unknown command', async () => {
    const dataDir = path.join(root, 'invalid');
    const badPort = await runCli(['serve', '--data-dir', dataDir, '--port', 'eighty'], env);
    expect(badPort).toMatchObject({ code: 1, stdout: '' });
    expect(badPort.stderr).toContain('dockhand: Invalid port: eighty');
    const unknown = await runCli(['launch'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command: launch');
  });
});
