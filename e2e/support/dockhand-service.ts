import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './paths';

const LINK = /Dockhand is running at (http:\/\/127\.0\.0\.1:\d+)\/#key=(\S+)/;
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

export interface ServiceOptions {
  /**
   * `file`: DOCKHAND_SECRETS=file, independent of the machine's keychain.
   * `unreachable-keychain`: the OS keychain with no D-Bus session to reach it.
   */
  secrets: 'file' | 'unreachable-keychain';
  /** DOCKER_HOST for the service; the machine's engine when absent. */
  dockerHost?: string;
  /** More environment for the service, e.g. the sandbox image and network. */
  env?: Record<string, string>;
  /**
   * `host:port` of fake git-provider APIs (test/support/fake-provider-apis): the service then runs from
   * source with every provider API there and git remotes over plain HTTP.
   */
  providerApi?: string;
}

export interface ApiAnswer {
  status: number;
  body: unknown;
}

export interface DockhandService {
  /** The link the service printed: `<baseUrl>/#key=<key>`. */
  link: string;
  baseUrl: string;
  key: string;
  /** A keyed JSON request straight to the API, to arrange or check what the UI shows. */
  api(method: string, path: string, body?: unknown): Promise<ApiAnswer>;
  stop(): Promise<void>;
}

/** Settings of the developer's own Dockhand that must not leak into the test's service. */
const OWN_SETTINGS = ['DOCKHAND_SESSION_API_KEY', 'DOCKHAND_DATA_DIR', 'DOCKHAND_PORT', 'DOCKHAND_SECRETS'];
/** Without these, keytar cannot find a D-Bus session, as on a server with no desktop. */
const SESSION_BUS = ['DBUS_SESSION_BUS_ADDRESS', 'DISPLAY'];

function serviceEnv(options: ServiceOptions): NodeJS.ProcessEnv {
  const dropped = options.secrets === 'file' ? OWN_SETTINGS : [...OWN_SETTINGS, ...SESSION_BUS];
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !dropped.includes(name)));
  if (options.secrets === 'file') env.DOCKHAND_SECRETS = 'file';
  if (options.dockerHost) env.DOCKER_HOST = options.dockerHost;
  // No warm pool unless a test asks for one (its containers would only add load).
  env.DOCKHAND_SANDBOX_WARM_POOL ??= '0';
  return { ...env, ...options.env };
}

interface PrintedLink {
  link: string;
  baseUrl: string;
  key: string;
}

function printedLink(output: string): PrintedLink | null {
  const found = LINK.exec(output);
  if (!found?.[1] || !found[2]) return null;
  return { link: `${found[1]}/#key=${found[2]}`, baseUrl: found[1], key: found[2] };
}

/**
 * Runs `dockhand serve` from the build as a child process with its own data folder. Port 0 lets the
 * system pick a free port; the printed link names it.
 */
export async function startService(options: ServiceOptions): Promise<DockhandService> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dockhand-e2e-'));
  const command = options.providerApi
    ? [
        ...['--import', 'tsx', '--import', './scripts/lib/raw-import.mjs'],
        ...[
          'e2e/support/serve-with-fake-providers.ts',
          '--data-dir',
          dataDir,
          '--provider-api',
          options.providerApi,
        ],
      ]
    : ['bin/dockhand.js', 'serve', '--port', '0', '--data-dir', dataDir];
  const child = spawn(process.execPath, command, {
    cwd: ROOT,
    env: serviceEnv(options),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = once(child, 'exit');

  const removeData = () => rmSync(dataDir, { recursive: true, force: true });
  let printed: PrintedLink;
  try {
    printed = await new Promise<PrintedLink>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`dockhand serve printed no link within ${START_TIMEOUT_MS} ms`)),
        START_TIMEOUT_MS,
      );
      const look = () => {
        const found = printedLink(output);
        if (!found) return;
        clearTimeout(timer);
        resolve(found);
      };
      child.stdout.on('data', look);
      void exited.then(([code, signal]) => {
        clearTimeout(timer);
        reject(new Error(`dockhand serve exited early (code ${code}, signal ${signal})`));
      });
    });
  } catch (error) {
    child.kill('SIGKILL');
    removeData();
    throw new Error(`${(error as Error).message}. Its output:\n${output}`, { cause: error });
  }

  const { baseUrl, key } = printed;
  return {
    ...printed,
    async api(method, apiPath, body) {
      const response = await fetch(`${baseUrl}${apiPath}`, {
        method,
        headers: {
          'X-Session-API-Key': key,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
        const [code, signal] = await exited;
        clearTimeout(timer);
        removeData();
        if (signal === 'SIGKILL') {
          throw new Error(
            `dockhand serve did not stop within ${STOP_TIMEOUT_MS} ms of SIGTERM. Its output:\n${output}`,
          );
        }
        if (code !== 0)
          throw new Error(`dockhand serve exited with code ${code} on SIGTERM. Its output:\n${output}`);
      } else {
        removeData();
      }
    },
  };
}
