import type { SecretStore, SecretStoreStatus } from './secret-store';

/** Secrets in memory only: for tests, and for nothing else. */
export class MemorySecretStore implements SecretStore {
  readonly status: SecretStoreStatus = { backend: 'memory', state: 'ok', message: null, fix: null };
  private readonly secrets = new Map<string, string>();

  async get(account: string): Promise<string | null> {
    return this.secrets.get(account) ?? null;
  }

  async set(account: string, value: string): Promise<void> {
    this.secrets.set(account, value);
  }

  async delete(account: string): Promise<void> {
    this.secrets.delete(account);
  }

  values(): string[] {
    return [...this.secrets.values()];
  }
}
