import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { cliEnvironment, type CliEnvironment } from './config';
import { createService, VERSION } from './index';
import { DEFAULT_PORT, PortInUse } from './listen';
import { DockerConnection } from './sandbox/docker/docker-status';
import { openSecretStore } from './secrets/open-secret-store';
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

function dataDirOf(values: { 'data-dir'?: string }, env: CliEnvironment): string {
  return values['data-dir'] ? path.resolve(values['data-dir']) : env.dataDir;
}

async function serve(values: { port?: string; 'data-dir'?: string }, env: CliEnvironment): Promise<void> {
  const dataDir = dataDirOf(values, env);
  const strict = values.port !== undefined;
  const requested = values.port ?? env.port;
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

async function printKey(values: { 'data-dir'?: string }, env: CliEnvironment): Promise<void> {
  const dataDir = dataDirOf(values, env);
  const store = await openSecretStore(env.secretsBackend, dataDir, quietLogger());
  const key = await SessionKey.load({
    store,
    dataDir,
    override: env.sessionApiKey,
    logger: quietLogger(),
  });
  console.log(key.current);
}

async function doctor(values: { 'data-dir'?: string }, env: CliEnvironment): Promise<void> {
  const dataDir = dataDirOf(values, env);
  const store = await openSecretStore(env.secretsBackend, dataDir, quietLogger());
  const docker = await new DockerConnection({ env: env.environment }).check();
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
  const env = cliEnvironment();
  if (command === 'serve') return serve(values, env);
  if (command === 'key') return printKey(values, env);
  if (command === 'doctor') return doctor(values, env);
  console.error(`Unknown command: ${command}\n\n${USAGE}`);
  process.exitCode = 2;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof PortInUse || error instanceof Error ? `dockhand: ${error.message}` : error);
  process.exit(1);
});
