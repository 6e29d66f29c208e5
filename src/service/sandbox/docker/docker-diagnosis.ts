import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describeSource, type DockerEndpoint } from './docker-endpoint';

/** The oldest engine API Dockhand uses (Docker Engine 20.10). */
export const MIN_API_VERSION = '1.41';

export type DockerCause =
  | 'not_installed'
  | 'not_running'
  | 'permission_denied'
  | 'engine_too_old'
  | 'misconfigured'
  | 'not_responding';

export interface DockerDiagnosis {
  cause: DockerCause;
  /** What is wrong, in words. */
  message: string;
  /** What the user can do about it. */
  fix: string;
}

/** Facts about the machine that change the advice; tests pass their own. */
export interface MachineFacts {
  platform: NodeJS.Platform;
  /** Whether a `docker` client or Docker Desktop is installed. */
  dockerInstalled: boolean;
  /** Running inside WSL, where Docker Desktop's WSL integration provides the socket. */
  wsl: boolean;
}

function onPath(command: string, env: NodeJS.ProcessEnv): boolean {
  const names = process.platform === 'win32' ? [`${command}.exe`, `${command}.cmd`] : [command];
  return (env.PATH ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .some((dir) => names.some((name) => existsSync(path.join(dir, name))));
}

const DESKTOP_APPS: Partial<Record<NodeJS.Platform, string>> = {
  darwin: '/Applications/Docker.app',
  win32: 'C:\\Program Files\\Docker\\Docker\\Docker Desktop.exe',
};

function isWsl(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    return /microsoft/i.test(readFileSync('/proc/version', 'utf8'));
  } catch {
    return false;
  }
}

/** The facts of this machine; `env` is the service's environment, passed down from config.ts (its PATH). */
export function machineFacts(env: NodeJS.ProcessEnv): MachineFacts {
  const desktop = DESKTOP_APPS[process.platform];
  return {
    platform: process.platform,
    dockerInstalled:
      onPath('docker', env) || onPath('podman', env) || (desktop ? existsSync(desktop) : false),
    wsl: isWsl(),
  };
}

function startFix(facts: MachineFacts, endpoint: DockerEndpoint): string {
  if (endpoint.source.kind !== 'default') {
    const source = describeSource(endpoint.source);
    const undo = endpoint.source.kind === 'env' ? 'unset DOCKER_HOST' : 'run `docker context use default`';
    return `Start the engine that ${source} names (${endpoint.url}), or ${undo} to use the local one.`;
  }
  if (facts.wsl) {
    return 'Start Docker Desktop on Windows and turn on Settings > Resources > WSL integration for this distribution.';
  }
  if (facts.platform === 'darwin' || facts.platform === 'win32') {
    return 'Start Docker Desktop (or `colima start`) and wait until it reports that the engine is running.';
  }
  return 'Start the engine: `sudo systemctl start docker` (or `sudo service docker start`); with Docker Desktop, open it.';
}

function installFix(facts: MachineFacts): string {
  if (facts.platform === 'linux' && !facts.wsl) {
    return 'Install Docker Engine (`sudo apt-get install docker.io`, or see https://docs.docker.com/engine/install/), then start it.';
  }
  return 'Install Docker Desktop from https://docs.docker.com/get-docker/ (or Colima / Podman), start it, then retry.';
}

function permissionFix(facts: MachineFacts, endpoint: DockerEndpoint): string {
  if (facts.platform === 'linux') {
    return (
      `Give your user access to ${endpoint.url}: \`sudo usermod -aG docker $USER\`, then log out and back in ` +
      '(or use rootless Docker and point DOCKER_HOST at its socket).'
    );
  }
  return `Check that your user may open ${endpoint.url}; restarting Docker Desktop usually restores it.`;
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Names why talking to the engine at `endpoint` failed, with the fix. */
export function diagnoseConnectionError(
  error: unknown,
  endpoint: DockerEndpoint,
  facts: MachineFacts,
): DockerDiagnosis {
  const code = errorCode(error);
  const where = `${endpoint.url} (${describeSource(endpoint.source)})`;
  if (code === 'EACCES' || code === 'EPERM') {
    return {
      cause: 'permission_denied',
      message: `Permission denied on the Docker socket ${where}`,
      fix: permissionFix(facts, endpoint),
    };
  }
  if (code === 'ENOENT' || code === 'ECONNREFUSED' || code === 'ENOTSOCK') {
    const defaultMissing = endpoint.source.kind === 'default' && !endpoint.source.found;
    if (defaultMissing && !facts.dockerInstalled) {
      return {
        cause: 'not_installed',
        message: 'no docker client and no engine socket were found (Docker is not installed)',
        fix: installFix(facts),
      };
    }
    return {
      cause: 'not_running',
      message: `nothing answers at ${where}; the engine is not running`,
      fix: startFix(facts, endpoint),
    };
  }
  if (code === 'ETIMEDOUT' || code === 'ABORT_ERR' || (error as Error | null)?.name === 'TimeoutError') {
    return {
      cause: 'not_responding',
      message: `Docker did not answer at ${where} within a few seconds`,
      fix: 'Restart the Docker engine (or Docker Desktop); if it is remote, check the network path to it.',
    };
  }
  return {
    cause: 'not_running',
    message: `Docker cannot be reached at ${where}: ${errorText(error)}`,
    fix: startFix(facts, endpoint),
  };
}

/** A configured address that cannot be used at all (bad DOCKER_HOST, broken context). */
export function diagnoseMisconfiguration(endpoint: DockerEndpoint, problem: string): DockerDiagnosis {
  const fix =
    endpoint.source.kind === 'env'
      ? 'Fix or unset DOCKER_HOST (e.g. unix:///var/run/docker.sock or tcp://host:2376).'
      : 'Run `docker context ls` and `docker context use <name>` (or `docker context use default`).';
  return { cause: 'misconfigured', message: `The Docker address is unusable: ${problem}`, fix };
}

function versionNumber(version: string): number[] {
  return version.split('.').map((part) => Number.parseInt(part, 10) || 0);
}

/** Whether API `version` is older than `minimum` (both like "1.41"). */
export function apiOlderThan(version: string, minimum: string = MIN_API_VERSION): boolean {
  const [major = 0, minor = 0] = versionNumber(version);
  const [minMajor = 0, minMinor = 0] = versionNumber(minimum);
  return major < minMajor || (major === minMajor && minor < minMinor);
}

export function diagnoseOldEngine(apiVersion: string, engineVersion: string): DockerDiagnosis {
  return {
    cause: 'engine_too_old',
    message: `The Docker engine is too old: ${engineVersion} speaks API ${apiVersion}, Dockhand needs ${MIN_API_VERSION} or newer`,
    fix: 'Update Docker Engine to 20.10 or newer (or update Docker Desktop), then retry.',
  };
}
