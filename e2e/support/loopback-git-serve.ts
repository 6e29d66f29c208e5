// `dockhand serve` for end-to-end tests of repositories: the same service and UI, but the git provider's API
// is the fake at DOCKHAND_E2E_PROVIDER_HOST and remotes are cloned over plain HTTP from 127.0.0.1.
// Run with: node --import tsx --import ./scripts/lib/raw-import.mjs e2e/support/loopback-git-serve.ts --port 0 --data-dir DIR
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { createService } from '../../src/service/index';
import { loopbackApiBase } from '../../test/support/fake-git-providers';
import { ROOT } from './paths';

const providerHost = process.env.DOCKHAND_E2E_PROVIDER_HOST;
if (!providerHost)
  throw new Error('DOCKHAND_E2E_PROVIDER_HOST must name the fake provider API (127.0.0.1:<port>)');
const { values } = parseArgs({ options: { port: { type: 'string' }, 'data-dir': { type: 'string' } } });
const apiBase = loopbackApiBase(providerHost);

const service = await createService({
  dataDir: values['data-dir'] ?? '',
  port: Number(values.port ?? 0),
  logger: pino({ level: 'warn' }, process.stderr),
  rendererDir: path.join(ROOT, 'out', 'renderer'),
  // Every provider's API is the fake, whatever host a token names; the host is where git clones from.
  providerApiBase: (provider) => apiBase(provider, 'github.com'),
  gitScheme: 'http',
});
process.on('SIGTERM', () => void service.close().then(() => process.exit(0)));
console.log(`Dockhand is running at ${service.url}/#key=${service.context.sessionKey.current}`);
