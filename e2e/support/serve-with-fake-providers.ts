// `dockhand serve` for end-to-end tests whose git providers are fakes on 127.0.0.1: the same service and
// printed link, with the provider APIs at `--provider-api <host:port>` and git remotes over plain HTTP.
// Run with: node --import tsx --import ./scripts/lib/raw-import.mjs e2e/support/serve-with-fake-providers.ts
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { createService } from '../../src/service/index';
import { loopbackApiBase } from '../../test/support/fake-git-providers';
import { ROOT } from './paths';

const { values } = parseArgs({
  options: { 'data-dir': { type: 'string' }, 'provider-api': { type: 'string' } },
});
const dataDir = values['data-dir'];
const providerApi = values['provider-api'];
if (!dataDir || !providerApi) throw new Error('--data-dir and --provider-api are required');

const apiBase = loopbackApiBase(providerApi);
const service = await createService({
  dataDir,
  port: 0,
  logger: pino({ level: 'warn' }, process.stderr),
  rendererDir: path.join(ROOT, 'out', 'renderer'),
  // Every host's API is the fake, whatever host a token names (the token's host is the git server's).
  providerApiBase: (provider) => apiBase(provider, 'github.com'),
  gitScheme: 'http',
});
const stop = () => void service.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
console.log(`Dockhand is running at ${service.url}/#key=${service.context.sessionKey.current}`);
