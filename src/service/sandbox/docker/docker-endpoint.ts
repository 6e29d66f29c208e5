import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DockerOptions } from 'dockerode';

/** Where the engine address came from, as the docker CLI would pick it. */
export type EndpointSource =
  { kind: 'env' } | { kind: 'context'; name: string } | { kind: 'default'; found: boolean };

export interface DockerEndpoint {
  /** The address as the docker CLI prints it, e.g. `unix:///var/run/docker.sock`. */
  url: string;
  source: EndpointSource;
  /** Options for dockerode, or null when the address cannot be used (see `problem`). */
  options: DockerOptions | null;
  /** Why the configured address is unusable (a bad DOCKER_HOST or context), else null. */
  problem: string | null;
}

/** What the resolver reads from the machine; tests pass their own. */
export interface EndpointEnvironment {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  homedir: string;
  exists(file: string): boolean;
  readFile(file: string): string;
}

/** This machine, seen through `env`: the service's environment, passed down from config.ts. */
export function machineEnvironment(env: NodeJS.ProcessEnv): EndpointEnvironment {
  return {
    env,
    platform: process.platform,
    homedir: os.homedir(),
    exists: existsSync,
    readFile: (file) => readFileSync(file, 'utf8'),
  };
}

export const WINDOWS_PIPE = 'npipe:////./pipe/docker_engine';

/** Sockets the common engines listen on, in the order the docker CLI and Docker Desktop prefer. */
export function defaultSockets(machine: EndpointEnvironment): string[] {
  if (machine.platform === 'win32') return [WINDOWS_PIPE];
  const home = machine.homedir;
  const sockets = [
    '/var/run/docker.sock',
    path.join(home, '.docker', 'desktop', 'docker.sock'),
    path.join(home, '.docker', 'run', 'docker.sock'),
    path.join(home, '.colima', 'default', 'docker.sock'),
  ];
  const runtimeDir = machine.env.XDG_RUNTIME_DIR;
  if (runtimeDir) sockets.push(path.join(runtimeDir, 'podman', 'podman.sock'));
  return sockets.map((socket) => `unix://${socket}`);
}

function dockerConfigDir(machine: EndpointEnvironment): string {
  return machine.env.DOCKER_CONFIG || path.join(machine.homedir, '.docker');
}

function readJson(machine: EndpointEnvironment, file: string): Record<string, unknown> | null {
  if (!machine.exists(file)) return null;
  try {
    return JSON.parse(machine.readFile(file)) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** The context named by DOCKER_CONTEXT or `currentContext` in config.json (null = the default context). */
function currentContext(machine: EndpointEnvironment): string | null {
  const fromEnv = machine.env.DOCKER_CONTEXT;
  const name =
    fromEnv ||
    (readJson(machine, path.join(dockerConfigDir(machine), 'config.json'))?.currentContext ?? null);
  return typeof name === 'string' && name !== '' && name !== 'default' ? name : null;
}

function contextDigest(name: string): string {
  return createHash('sha256').update(name).digest('hex');
}

interface ContextEndpoint {
  host: string;
  tlsDir: string | null;
}

function readContext(machine: EndpointEnvironment, name: string): ContextEndpoint | string {
  const base = dockerConfigDir(machine);
  const metaFile = path.join(base, 'contexts', 'meta', contextDigest(name), 'meta.json');
  const meta = readJson(machine, metaFile);
  const endpoints = meta?.Endpoints as Record<string, { Host?: unknown }> | undefined;
  const host = endpoints?.docker?.Host;
  if (typeof host !== 'string' || !host) {
    return `the docker context "${name}" has no engine address (${metaFile} is missing or unreadable)`;
  }
  const tlsDir = path.join(base, 'contexts', 'tls', contextDigest(name), 'docker');
  return { host, tlsDir: machine.exists(path.join(tlsDir, 'ca.pem')) ? tlsDir : null };
}

function tlsFiles(machine: EndpointEnvironment, dir: string): Pick<DockerOptions, 'ca' | 'cert' | 'key'> {
  return {
    ca: machine.readFile(path.join(dir, 'ca.pem')),
    cert: machine.readFile(path.join(dir, 'cert.pem')),
    key: machine.readFile(path.join(dir, 'key.pem')),
  };
}

/** dockerode options for an address, or a reason it cannot be used. */
export function modemOptions(
  url: string,
  machine: EndpointEnvironment,
  tlsDir: string | null,
): DockerOptions | string {
  if (url.startsWith('unix://')) {
    const socketPath = url.slice('unix://'.length);
    return socketPath ? { socketPath } : `"${url}" names no socket`;
  }
  if (url.startsWith('npipe://'))
    return { socketPath: url.slice('npipe://'.length) || '//./pipe/docker_engine' };
  let parsed: URL;
  try {
    parsed = new URL(url.includes('://') ? url : `tcp://${url}`);
  } catch {
    return `"${url}" is not a valid engine address`;
  }
  if (parsed.protocol === 'ssh:') {
    return {
      protocol: 'ssh',
      host: parsed.hostname,
      port: Number(parsed.port || 22),
      username: decodeURIComponent(parsed.username) || os.userInfo().username,
      sshOptions: machine.env.SSH_AUTH_SOCK ? { agent: machine.env.SSH_AUTH_SOCK } : {},
    };
  }
  if (parsed.protocol !== 'tcp:' && parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return `"${url}" uses an unsupported scheme (use unix://, npipe://, tcp:// or ssh://)`;
  }
  const certDir = tlsDir ?? (machine.env.DOCKER_TLS_VERIFY ? machine.env.DOCKER_CERT_PATH || null : null);
  const port = Number(parsed.port || (certDir ? 2376 : 2375));
  return {
    host: parsed.hostname,
    port,
    protocol: certDir || port === 2376 || parsed.protocol === 'https:' ? 'https' : 'http',
    ...(certDir ? tlsFiles(machine, certDir) : {}),
  };
}

function endpoint(
  url: string,
  source: EndpointSource,
  machine: EndpointEnvironment,
  tlsDir: string | null,
): DockerEndpoint {
  let options: DockerOptions | string;
  try {
    options = modemOptions(url, machine, tlsDir);
  } catch (error) {
    options = `its TLS files cannot be read: ${error instanceof Error ? error.message : String(error)}`;
  }
  return typeof options === 'string'
    ? { url, source, options: null, problem: options }
    : { url, source, options, problem: null };
}

/**
 * The engine address, resolved as the docker CLI does: DOCKER_HOST, else the current docker context,
 * else the first platform default socket that exists (Docker Engine, Docker Desktop, Colima, Podman).
 */
export function resolveDockerEndpoint(machine: EndpointEnvironment): DockerEndpoint {
  const fromEnv = machine.env.DOCKER_HOST;
  if (fromEnv) return endpoint(fromEnv, { kind: 'env' }, machine, null);
  const context = currentContext(machine);
  if (context) {
    const resolved = readContext(machine, context);
    if (typeof resolved === 'string') {
      return {
        url: `context:${context}`,
        source: { kind: 'context', name: context },
        options: null,
        problem: resolved,
      };
    }
    return endpoint(resolved.host, { kind: 'context', name: context }, machine, resolved.tlsDir);
  }
  const candidates = defaultSockets(machine);
  const present = candidates.find(
    (url) => url.startsWith('npipe://') || machine.exists(url.slice('unix://'.length)),
  );
  const chosen = present ?? candidates[0] ?? WINDOWS_PIPE;
  return endpoint(chosen, { kind: 'default', found: present !== undefined }, machine, null);
}

/** "DOCKER_HOST", "docker context colima" or "the default socket", for messages. */
export function describeSource(source: EndpointSource): string {
  if (source.kind === 'env') return 'DOCKER_HOST';
  if (source.kind === 'context') return `docker context "${source.name}"`;
  return 'the default socket';
}
