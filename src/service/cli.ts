import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { defaultDataDir } from './data-dir';
import { createService, VERSION } from './index';
import { DEFAULT_PORT, PortInUse } from './listen';
import { DockerConnection } from './sandbox/docker/docker-status';
import { FileSecretStore } from './secrets/file-store';
import { KeychainSecretStore } from './secrets/keychain-store';
import { SessionKey } from './secrets/session-key';
import { logUnhandledRejections } from './unhandled-rejections';

const USAGE = `Dockhand ${VERSION}

Usage:
  dockhand serve [--port N] [--data-dir DIR]   run the service headless and serve the UI in a browser
  dockhand key [--data-dir DIR]                print the session API key
  dockhand doctor [--data-dir DIR]             check Docker, the keychain and the data folder
`;

/** The built renderer beside this file (out/main/cli.js -> out/renderer). */
function rendererDir(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../renderer');
}

/** The checkout's build of Dockhand's own sandbox image (out/main/cli.js -> scripts/), where it has one. */
function imageBuildScript(): string | null {
  const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../scripts/sandbox-image.sh');
  return existsSync(script) ? script : null;
}

function quietLogger() {
  return pino({ level: 'warn' }, process.stderr);
}

async function openStore(dataDir: string) {
  const logger = quietLogger();
  return process.env.DOCKHAND_SECRETS === 'file'
    ? new FileSecretStore(dataDir, logger)
    : KeychainSecretStore.open(logger);
}

async function serve(values: { port?: string; 'data-dir'?: string }): Promise<void> {
  const dataDir = values['data-dir'] ? path.resolve(values['data-dir']) : defaultDataDir();
  const strict = values.port !== undefined;
  const requested = values.port ?? process.env.DOCKHAND_PORT;
  const port = Number(requested ?? DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid port: ${requested}`);
  const service = await createService({
    dataDir,
    port,
    strictPort: strict,
    rendererDir: rendererDir(),
    sandbox: { imageBuildScript: imageBuildScript() },
  });
  logUnhandledRejections(service.context.logger);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    service.context.logger.info({ signal }, 'shutting down');
    void service.close().then(() => process.exit(0));
  };
  // Before anything is printed: whoever reads the banner may signal at once.
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  const key = service.context.sessionKey.current;
  console.log(`Dockhand is running at ${service.url}/#key=${key}`);
  console.log(
    `API: ${service.url} (send X-Session-API-Key; print the key with \`dockhand key\`). Data: ${dataDir}`,
  );
}

async function printKey(values: { 'data-dir'?: string }): Promise<void> {
  const dataDir = values['data-dir'] ? path.resolve(values['data-dir']) : defaultDataDir();
  const store = await openStore(dataDir);
  const key = await SessionKey.load({
    store,
    dataDir,
    override: process.env.DOCKHAND_SESSION_API_KEY,
    logger: quietLogger(),
  });
  console.log(key.current);
}

async function doctor(values: { 'data-dir'?: string }): Promise<void> {
  const dataDir = values['data-dir'] ? path.resolve(values['data-dir']) : defaultDataDir();
  const store = await openStore(dataDir);
  const docker = await new DockerConnection().check();
  const status = store.status;
  console.log(`Data folder: ${dataDir}`);
  console.log(
    docker.available
      ? `Docker: available at ${docker.endpoint}`
      : `Docker: NOT available (${docker.cause}) at ${docker.endpoint}: ${docker.error}\n  Fix: ${docker.fix}`,
  );
  console.log(
    status.state === 'ok'
      ? `Secrets: ${status.backend === 'file' ? 'unencrypted 0600 file (DOCKHAND_SECRETS=file)' : 'OS keychain'}`
      : `Secrets: OS keychain unusable (${status.state}): ${status.message}\n  Fix: ${status.fix}`,
  );
}

export async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals[0];
  if (values.help || !command) {
    console.log(USAGE);
    return;
  }
  if (command === 'serve') return serve(values);
  if (command === 'key') return printKey(values);
  if (command === 'doctor') return doctor(values);
  console.error(`Unknown command: ${command}\n\n${USAGE}`);
  process.exitCode = 2;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof PortInUse || error instanceof Error ? `dockhand: ${error.message}` : error);
  process.exit(1);
});
