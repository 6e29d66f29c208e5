import { type CustomSecretInfo, MAX_CUSTOM_SECRETS } from '../../shared/api/secrets';
import { httpError } from '../http/errors';
import { ValidationFailed } from '../http/validation';
import type { Db, Statement } from '../storage/database';
import type { SecretStore } from './secret-store';

export function secretAccount(name: string): string {
  return `secret:${name}`;
}

/** The user's custom secrets: names and descriptions in SQLite, values in the secret store. */
export class CustomSecretService {
  /** Prepared once: listed on every secrets read and every sandbox command. */
  private readonly selectSecrets: Statement;

  constructor(
    private readonly db: Db,
    private readonly secrets: SecretStore,
  ) {
    this.selectSecrets = db.prepare('SELECT name, description FROM custom_secrets ORDER BY name');
  }

  list(): CustomSecretInfo[] {
    return this.selectSecrets.all() as CustomSecretInfo[];
  }

  /** Name -> value of every secret, for the environment of sandbox commands. */
  async values(): Promise<Record<string, string>> {
    const entries = await Promise.all(
      this.list().map(async (s) => [s.name, await this.secrets.get(secretAccount(s.name))] as const),
    );
    return Object.fromEntries(entries.filter((e): e is readonly [string, string] => e[1] !== null));
  }

  async create(name: string, value: string, description: string | null): Promise<void> {
    if (this.exists(name)) throw httpError(409, `Secret ${name} already exists`);
    const count = (this.db.prepare('SELECT COUNT(*) AS n FROM custom_secrets').get() as { n: number }).n;
    if (count >= MAX_CUSTOM_SECRETS) {
      throw new ValidationFailed([
        {
          type: 'value_error',
          loc: ['body', 'name'],
          msg: `Value error, at most ${MAX_CUSTOM_SECRETS} secrets can be stored`,
          input: name,
        },
      ]);
    }
    await this.secrets.set(secretAccount(name), value);
    this.db
      .prepare('INSERT INTO custom_secrets (name, description, created_at) VALUES (?, ?, ?)')
      .run(name, description, new Date().toISOString());
  }

  /** Renames and/or re-describes a secret; its value is kept. */
  async update(id: string, name: string, description: string | null): Promise<void> {
    if (!this.exists(id)) throw httpError(404, `Secret with ID ${id} not found`);
    if (name !== id) {
      if (this.exists(name)) throw httpError(409, `Secret ${name} already exists`);
      const value = await this.secrets.get(secretAccount(id));
      if (value !== null) await this.secrets.set(secretAccount(name), value);
      await this.secrets.delete(secretAccount(id));
    }
    this.db
      .prepare('UPDATE custom_secrets SET name = ?, description = ? WHERE name = ?')
      .run(name, description, id);
  }

  async delete(id: string): Promise<void> {
    if (!this.exists(id)) throw httpError(404, `Secret with ID ${id} not found`);
    await this.secrets.delete(secretAccount(id));
    this.db.prepare('DELETE FROM custom_secrets WHERE name = ?').run(id);
  }

  private exists(name: string): boolean {
    return this.db.prepare('SELECT 1 FROM custom_secrets WHERE name = ?').get(name) !== undefined;
  }
}
