import type { Logger } from 'pino';
import {
  SERVICE_NAME,
  type KeychainState,
  type SecretStore,
  type SecretStoreStatus,
  SecretStoreUnavailable,
} from './secret-store';

interface Keytar {
  findCredentials(service: string): Promise<{ account: string; password: string }[]>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

const OK: SecretStoreStatus = { backend: 'keychain', state: 'ok', message: null, fix: null };

/** The item written and removed again to learn whether the keychain takes writes. */
const PROBE_ACCOUNT = 'keychain-probe';

/** Retries of a keychain that is not ok: from 1 s, doubling, at most every 5 minutes. */
export const RECOVERY_BACKOFF = { firstMs: 1000, maxMs: 5 * 60_000 };

const HEADLESS_HINT =
  'On a headless server you can opt in to a 0600 file instead with DOCKHAND_SECRETS=file.';

const FIXES: Record<Exclude<KeychainState, 'ok'>, string> = {
  no_session_bus: `Start Dockhand from a desktop session, or inside \`dbus-run-session\` with a keyring daemon. ${HEADLESS_HINT}`,
  no_secret_service: `Install and start a Secret Service provider, e.g. \`apt-get install gnome-keyring\` and log in again (or run \`gnome-keyring-daemon --start --components=secrets\`). ${HEADLESS_HINT}`,
  locked:
    'Unlock your login keyring (e.g. open "Passwords and Keys", or `gnome-keyring-daemon --unlock`), then retry.',
  unavailable: `Check that the OS keychain works (libsecret on Linux). ${HEADLESS_HINT}`,
};

/** Names the keychain state behind an error from keytar or libsecret. */
export function classifyKeychainError(error: unknown): SecretStoreStatus {
  const message = error instanceof Error ? error.message : String(error);
  const state: Exclude<KeychainState, 'ok'> =
    /autolaunch D-Bus|DBUS_SESSION_BUS_ADDRESS|connect to .*bus|no such file.*bus/i.test(message)
      ? 'no_session_bus'
      : /org\.freedesktop\.secrets|ServiceUnknown|not provided by any \.service/i.test(message)
        ? 'no_secret_service'
        : // A keyring daemon without an unlocked login keyring reports the collection as missing.
          /locked|collection\/login/i.test(message)
          ? 'locked'
          : 'unavailable';
  return { backend: 'keychain', state, message, fix: FIXES[state] };
}

/**
 * Secrets in the OS keychain through keytar (service "Dockhand"). Everything is read once at open and
 * cached; writes go to the keychain first and to the cache only when they succeed. Once the items have been
 * read, reads are served from the cache whatever happens to the keychain later. A keychain that is not ok is
 * tried again in the background, with backoff, until it answers (its items are then read again).
 */
export class KeychainSecretStore implements SecretStore {
  private cache = new Map<string, string>();
  /** Whether the cache holds the keychain's items (read at least once). */
  private loaded = false;
  private current: SecretStoreStatus = OK;
  private retryTimer: NodeJS.Timeout | null = null;
  private retryDelayMs: number;

  private constructor(
    private readonly keytar: Keytar | null,
    private readonly logger: Logger,
    private readonly backoff: typeof RECOVERY_BACKOFF,
  ) {
    this.retryDelayMs = backoff.firstMs;
  }

  static async open(
    logger: Logger,
    loadKeytar: () => Promise<Keytar> = loadNativeKeytar,
    backoff = RECOVERY_BACKOFF,
  ): Promise<KeychainSecretStore> {
    let keytar: Keytar;
    try {
      keytar = await loadKeytar();
    } catch (error) {
      // Without the native module there is nothing to retry.
      const store = new KeychainSecretStore(null, logger, backoff);
      store.fail(error);
      return store;
    }
    const store = new KeychainSecretStore(keytar, logger, backoff);
    await store.reload();
    return store;
  }

  get status(): SecretStoreStatus {
    return this.current;
  }

  /**
   * Reads every Dockhand item from the keychain into the cache. A probe write goes first: on Linux,
   * listing items of a locked collection makes libsecret hand keytar a null secret, and the process dies
   * with SIGSEGV, while the write fails with a "locked collection" error that names the state.
   */
  async reload(): Promise<void> {
    if (!this.keytar) return;
    try {
      await this.keytar.setPassword(SERVICE_NAME, PROBE_ACCOUNT, 'probe');
      await this.keytar.deletePassword(SERVICE_NAME, PROBE_ACCOUNT);
      const items = await this.keytar.findCredentials(SERVICE_NAME);
      this.cache = new Map(items.map((i) => [i.account, i.password]));
      this.loaded = true;
      if (this.current.state !== 'ok') this.logger.info('OS keychain available again');
      this.current = OK;
      this.stopRetrying();
    } catch (error) {
      this.fail(error);
    }
  }

  async get(account: string): Promise<string | null> {
    if (!this.loaded) this.ensureUsable();
    return this.cache.get(account) ?? null;
  }

  async set(account: string, value: string): Promise<void> {
    const keytar = await this.usableForWrite();
    try {
      await keytar.setPassword(SERVICE_NAME, account, value);
    } catch (error) {
      throw new SecretStoreUnavailable(this.fail(error));
    }
    this.cache.set(account, value);
  }

  async delete(account: string): Promise<void> {
    const keytar = await this.usableForWrite();
    try {
      await keytar.deletePassword(SERVICE_NAME, account);
    } catch (error) {
      throw new SecretStoreUnavailable(this.fail(error));
    }
    this.cache.delete(account);
  }

  values(): string[] {
    return [...this.cache.values()];
  }

  /** The keychain may have come back (a keyring unlocked, a daemon restarted): a write checks again first. */
  private async usableForWrite(): Promise<Keytar> {
    if (this.keytar && this.current.state !== 'ok') await this.reload();
    return this.ensureUsable();
  }

  private ensureUsable(): Keytar {
    if (!this.keytar || this.current.state !== 'ok') throw new SecretStoreUnavailable(this.current);
    return this.keytar;
  }

  private fail(error: unknown): SecretStoreStatus {
    this.current = classifyKeychainError(error);
    this.logger.error(
      { keychain_state: this.current.state, reason: this.current.message },
      `OS keychain unavailable (${this.current.state}). Fix: ${this.current.fix}`,
    );
    this.scheduleRetry();
    return this.current;
  }

  /** The next background reload; a failed one schedules the following one at twice the delay. */
  private scheduleRetry(): void {
    if (!this.keytar || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.retryDelayMs = Math.min(this.retryDelayMs * 2, this.backoff.maxMs);
      void this.reload();
    }, this.retryDelayMs);
    this.retryTimer.unref();
  }

  private stopRetrying(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.retryDelayMs = this.backoff.firstMs;
  }
}

async function loadNativeKeytar(): Promise<Keytar> {
  const module = (await import('keytar')) as unknown as { default?: Keytar } & Keytar;
  return module.default ?? module;
}
