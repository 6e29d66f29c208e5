import { execFileSync, spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import Docker from 'dockerode';
import pino from 'pino';
import { LentFolders } from '../../../src/service/sandbox/docker/lent-folders';
import { DockerWorkspace } from '../../../src/service/sandbox/docker/docker-workspace';
import {
  decideEgress,
  type EgressDecision,
  localAddresses,
} from '../../../src/service/sandbox/link/egress-gate';
import type { EgressPolicy } from '../../../src/service/sandbox/link/egress-policy';
import { PROXY_PORT, SandboxLink } from '../../../src/service/sandbox/link/sandbox-link';
import { removeContainer, startTestContainer } from '../../support/test-sandboxes';

/** The proxy environment a gated sandbox's commands get. */
export const PROXY_ENV = {
  HTTP_PROXY: `http://127.0.0.1:${PROXY_PORT}`,
  HTTPS_PROXY: `http://127.0.0.1:${PROXY_PORT}`,
  http_proxy: `http://127.0.0.1:${PROXY_PORT}`,
  https_proxy: `http://127.0.0.1:${PROXY_PORT}`,
  NO_PROXY: 'localhost,127.0.0.1',
  no_proxy: 'localhost,127.0.0.1',
};

export function policyOf(
  preset: EgressPolicy['preset'],
  allow: string[] = [],
  deny: string[] = [],
): EgressPolicy {
  return { preset, allow, deny, modelHosts: ['models.test'], serviceHosts: [] };
}

/**
 * A container without network (only loopback) and its link, whose proxy decides with `policy` and resolves
 * the names in `names` (to loopback servers of this machine): no real DNS is ever asked.
 */
export async function startLinkedContainer(
  purpose: string,
  options: { policy: () => EgressPolicy; names: Record<string, string>; protectedPorts?: number[] },
) {
  const docker = new Docker();
  const container = await startTestContainer(docker, purpose);
  const workspace = new DockerWorkspace({
    sandboxId: purpose,
    container,
    user: null,
    workspaceDir: '/workspace',
    workingDir: '/',
    appPorts: { WORKER_1: 8011, WORKER_2: 8012 },
    lent: new LentFolders(docker),
  });
  const decisions: EgressDecision[] = [];
  let previewChanges = 0;
  const gate = {
    resolve: async (host: string) => {
      const address = options.names[host];
      if (!address) throw new Error(`${host} is not a test name`);
      return [address];
    },
    context: () => ({
      hostAddresses: localAddresses(),
      protectedPorts: new Set([...(options.protectedPorts ?? []), ...link.hostPorts()]),
    }),
  };
  const link: SandboxLink = await SandboxLink.start({
    sandbox: workspace,
    check: async (target) => {
      const decision = await decideEgress(gate, options.policy(), target);
      decisions.push(decision);
      return decision;
    },
    previewsChanged: () => previewChanges++,
    logger: pino({ level: 'silent' }),
  });
  return {
    container,
    workspace,
    link,
    decisions,
    previewChanges: () => previewChanges,
    /** Runs a command in the sandbox with the proxy environment. */
    run: (argv: string[], env: Record<string, string> = {}) =>
      workspace.exec(argv, { env: { ...PROXY_ENV, ...env }, timeout: 60 }),
    async close() {
      link.close();
      await removeContainer(container);
    },
  };
}

/** A loopback HTTP server answering `body` (or `bytes` zero bytes) on every path. */
export async function startWebServer(
  body = 'hello from the host\n',
): Promise<{ port: number; server: Server }> {
  const server = createServer((request, response) => {
    const size = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('bytes') ?? NaN);
    if (Number.isInteger(size) && size > 0) {
      response.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': size });
      const chunk = Buffer.alloc(64 * 1024);
      let left = size;
      const write = () => {
        while (left > 0) {
          const piece = chunk.subarray(0, Math.min(left, chunk.length));
          left -= piece.length;
          if (!response.write(piece)) return void response.once('drain', write);
        }
        response.end();
      };
      write();
      return;
    }
    response.writeHead(200, { 'Content-Type': 'text/plain' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, server };
}

/** Copies this machine's npm (the package folder `npm` runs from) into the container at /opt/npm. */
export async function installHostNpm(container: Docker.Container): Promise<string> {
  const cli = realpathSync(execFileSync('which', ['npm'], { encoding: 'utf8' }).trim());
  const folder = path.dirname(path.dirname(cli));
  const archive = spawn('tar', ['-C', path.dirname(folder), '-c', path.basename(folder)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await container.putArchive(archive.stdout, { path: '/opt' });
  return `/opt/${path.basename(folder)}/bin/npm-cli.js`;
}
