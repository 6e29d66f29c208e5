import type { Logger } from 'pino';
import { FileSecretStore } from './file-store';
import { KeychainSecretStore } from './keychain-store';
import type { SecretBackend, SecretStore } from './secret-store';

/** The backends a service chooses from (the memory one is for tests, passed in as a store). */
export type PersistentSecretBackend = Exclude<SecretBackend, 'memory'>;

/** The store of the chosen backend: the OS keychain, or the unencrypted 0600 file of the data folder. */
export function openSecretStore(
  backend: PersistentSecretBackend,
  dataDir: string,
  logger: Logger,
): Promise<SecretStore> {
  if (backend === 'file') return Promise.resolve(new FileSecretStore(dataDir, logger));
  return KeychainSecretStore.open(logger);
}
