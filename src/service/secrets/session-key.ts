import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { KeyChecker } from '../http/key-checker';
import type { SecretStore } from './secret-store';

const ACCOUNT = 'session-api-key';
const FILE_NAME = 'session-api-key';

/** Where the session key is kept, as `/server_info` reports it. */
export type SessionKeyStorage = 'keychain' | 'file' | 'memory' | 'environment';

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function newKey(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The session API key that every keyed request presents. Created on first run and kept in the secret
 * store; when the keychain is unusable it goes to a 0600 file in the data folder (reported, never silent),
 * because without a key the service cannot be used at all.
 */
export class SessionKey implements KeyChecker {
  private readonly rotationListeners = new Set<() => void>();
  /** The key's digest, made once per key rather than once per request. */
  private valueDigest: Buffer;

  private constructor(
    private value: string,
    readonly storage: SessionKeyStorage,
    private readonly persist: (key: string) => Promise<void>,
  ) {
    this.valueDigest = digest(value);
  }

  static async load(options: {
    store: SecretStore;
    dataDir: string;
    override?: string | undefined;
    logger: Logger;
  }): Promise<SessionKey> {
    const { store, dataDir, override, logger } = options;
    if (override !== undefined) {
      if (override.length < 16) throw new Error('DOCKHAND_SESSION_API_KEY must be at least 16 characters');
      return new SessionKey(override, 'environment', async () => {});
    }
    if (store.status.state === 'ok') {
      const toStore = async (key: string) => store.set(ACCOUNT, key);
      const storage = store.status.backend;
      const existing = await store.get(ACCOUNT);
      if (existing) return new SessionKey(existing, storage, toStore);
      const created = newKey();
      try {
        await toStore(created);
        return new SessionKey(created, storage, toStore);
      } catch {
        // The keychain refused the write (e.g. locked): fall through to the file, reported below.
      }
    }
    const file = path.join(dataDir, FILE_NAME);
    const toFile = async (key: string) => {
      writeFileSync(file, key, { mode: 0o600 });
      chmodSync(file, 0o600);
    };
    logger.warn(
      { file, keychain_state: store.status.state },
      'The OS keychain is not usable; the session API key is kept in a 0600 file in the data folder',
    );
    if (existsSync(file)) return new SessionKey(readFileSync(file, 'utf8').trim(), 'file', toFile);
    const created = newKey();
    await toFile(created);
    return new SessionKey(created, 'file', toFile);
  }

  get current(): string {
    return this.value;
  }

  accepts(candidate: string): boolean {
    return timingSafeEqual(digest(candidate), this.valueDigest);
  }

  /** Replaces the key: persisted first, so a crash never leaves a key that was not saved. */
  async rotate(): Promise<string> {
    const next = newKey();
    await this.persist(next);
    this.value = next;
    this.valueDigest = digest(next);
    for (const listener of this.rotationListeners) listener();
    return next;
  }

  /** Calls `listener` after each rotation (live streams opened with the old key end then). */
  onRotate(listener: () => void): () => void {
    this.rotationListeners.add(listener);
    return () => this.rotationListeners.delete(listener);
  }
}
