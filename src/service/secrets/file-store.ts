import { chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { SecretStore, SecretStoreStatus } from './secret-store';

/**
 * Secrets in a 0600 JSON file in the data folder. Only ever chosen explicitly (DOCKHAND_SECRETS=file),
 * for headless servers without a keychain; every start logs a warning that secrets are stored unencrypted.
 */
export class FileSecretStore implements SecretStore {
  readonly status: SecretStoreStatus = { backend: 'file', state: 'ok', message: null, fix: null };
  private readonly file: string;
  private readonly secrets: Map<string, string>;

  constructor(dataDir: string, logger: Logger) {
    this.file = path.join(dataDir, 'secrets.json');
    this.secrets = existsSync(this.file)
      ? new Map(Object.entries(JSON.parse(readFileSync(this.file, 'utf8')) as Record<string, string>))
      : new Map();
    logger.warn(
      { file: this.file },
      'DOCKHAND_SECRETS=file: secrets are stored unencrypted in a 0600 file instead of the OS keychain',
    );
  }

  async get(account: string): Promise<string | null> {
    return this.secrets.get(account) ?? null;
  }

  async set(account: string, value: string): Promise<void> {
    this.change(() => this.secrets.set(account, value));
  }

  async delete(account: string): Promise<void> {
    this.change(() => this.secrets.delete(account));
  }

  values(): string[] {
    return [...this.secrets.values()];
  }

  /** Applies `edit` and saves; when the file cannot be written (e.g. a full disk) nothing changes. */
  private change(edit: () => void): void {
    const before = new Map(this.secrets);
    edit();
    const temp = `${this.file}.tmp`;
    try {
      writeFileSync(temp, JSON.stringify(Object.fromEntries(this.secrets)), { mode: 0o600 });
      chmodSync(temp, 0o600);
      renameSync(temp, this.file);
    } catch (error) {
      this.secrets.clear();
      for (const [name, value] of before) this.secrets.set(name, value);
      rmSync(temp, { force: true });
      throw error;
    }
  }
}
