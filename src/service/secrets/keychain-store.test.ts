import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KeychainSecretStore } from './keychain-store';

const LOCKED = 'Cannot create an item in a locked collection';

const GONE = 'The name org.freedesktop.secrets was not provided by any .service files';

/**
 * An in-memory keytar whose collection can be locked (writes fail, and listing would crash libsecret) or
 * whose daemon can be gone (every call fails); `calls` counts the attempts to reach it.
 */
function lockableKeytar(initial: Record<string, string>) {
  const items = new Map(Object.entries(initial));
  const keyring = { locked: false, gone: false, listedWhileLocked: false, calls: 0 };
  const reach = () => {
    keyring.calls++;
    if (keyring.gone) throw new Error(GONE);
  };
  const keytar = {
    findCredentials: async () => {
      reach();
      if (keyring.locked) keyring.listedWhileLocked = true;
      return [...items].map(([account, password]) => ({ account, password }));
    },
    setPassword: async (_service: string, account: string, password: string) => {
      reach();
      if (keyring.locked) throw new Error(LOCKED);
      items.set(account, password);
    },
    deletePassword: async (_service: string, account: string) => {
      reach();
      if (keyring.locked) throw new Error(LOCKED);
      return items.delete(account);
    },
  };
  return { keyring, keytar };
}

const BACKOFF = { firstMs: 1000, maxMs: 4000 };

const open = (keytar: ReturnType<typeof lockableKeytar>['keytar']) =>
  KeychainSecretStore.open(pino({ level: 'silent' }), async () => keytar, BACKOFF);

afterEach(() => {
  vi.useRealTimers();
});

describe('KeychainSecretStore', () => {
  it('names a locked keyring at start without listing its items', async () => {
    const { keyring, keytar } = lockableKeytar({ llm_api_key: 'sk-1' });
    keyring.locked = true;
    const store = await open(keytar);
    expect(store.status).toMatchObject({ state: 'locked', message: LOCKED });
    expect(keyring.listedWhileLocked).toBe(false);
    await expect(store.get('llm_api_key')).rejects.toThrow(/locked/);
  });

  it('takes writes again once the keyring is unlocked, with its items reloaded', async () => {
    const { keyring, keytar } = lockableKeytar({ llm_api_key: 'sk-1' });
    keyring.locked = true;
    const store = await open(keytar);
    await expect(store.set('other', 'x')).rejects.toThrow(/locked/);
    keyring.locked = false;
    await store.set('other', 'x');
    expect(store.status.state).toBe('ok');
    expect(await store.get('llm_api_key')).toBe('sk-1');
    expect(await store.get('other')).toBe('x');
    expect(await store.get('keychain-probe')).toBeNull();
  });

  it('keeps serving reads from its cache after a failed write', async () => {
    const { keyring, keytar } = lockableKeytar({ llm_api_key: 'sk-1' });
    const store = await open(keytar);
    keyring.gone = true;
    await expect(store.set('other', 'x')).rejects.toMatchObject({ status: 503 });
    expect(store.status.state).toBe('no_secret_service');
    expect(await store.get('llm_api_key')).toBe('sk-1');
    expect(await store.get('other')).toBeNull();
    expect(store.values()).toEqual(['sk-1']);
  });

  it('comes back on its own once the keychain answers, retrying with doubling delays', async () => {
    vi.useFakeTimers();
    const { keyring, keytar } = lockableKeytar({ llm_api_key: 'sk-1' });
    const store = await open(keytar);
    keyring.gone = true;
    await expect(store.delete('llm_api_key')).rejects.toMatchObject({ status: 503 });
    const attempts: number[] = [];
    for (const step of [1000, 2000, 4000, 4000]) {
      const before = keyring.calls;
      await vi.advanceTimersByTimeAsync(step - 1);
      expect(keyring.calls).toBe(before);
      await vi.advanceTimersByTimeAsync(1);
      attempts.push(keyring.calls - before);
    }
    expect(attempts).toEqual([1, 1, 1, 1]);
    keyring.gone = false;
    await vi.advanceTimersByTimeAsync(4000);
    expect(store.status.state).toBe('ok');
    expect(await store.get('llm_api_key')).toBe('sk-1');
    const settled = keyring.calls;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(keyring.calls).toBe(settled);
  });

  it('comes back from every state a keychain can be in', async () => {
    for (const breakIt of [
      (k: { locked: boolean; gone: boolean }) => (k.locked = true),
      (k: { locked: boolean; gone: boolean }) => (k.gone = true),
    ]) {
      vi.useFakeTimers();
      const { keyring, keytar } = lockableKeytar({});
      breakIt(keyring);
      const store = await open(keytar);
      expect(store.status.state).not.toBe('ok');
      keyring.locked = false;
      keyring.gone = false;
      await vi.advanceTimersByTimeAsync(BACKOFF.firstMs);
      expect(store.status.state).toBe('ok');
      await store.set('after', 'y');
      expect(await store.get('after')).toBe('y');
      vi.useRealTimers();
    }
  });
});
