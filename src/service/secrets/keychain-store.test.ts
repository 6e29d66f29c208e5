import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { KeychainSecretStore } from './keychain-store';

const LOCKED = 'Cannot create an item in a locked collection';

/** An in-memory keytar whose collection can be locked: writes fail, and listing would crash libsecret. */
function lockableKeytar(initial: Record<string, string>) {
  const items = new Map(Object.entries(initial));
  const keyring = { locked: false, listedWhileLocked: false };
  const keytar = {
    findCredentials: async () => {
      if (keyring.locked) keyring.listedWhileLocked = true;
      return [...items].map(([account, password]) => ({ account, password }));
    },
    setPassword: async (_service: string, account: string, password: string) => {
      if (keyring.locked) throw new Error(LOCKED);
      items.set(account, password);
    },
    deletePassword: async (_service: string, account: string) => {
      if (keyring.locked) throw new Error(LOCKED);
      return items.delete(account);
    },
  };
  return { keyring, keytar };
}

const open = (keytar: ReturnType<typeof lockableKeytar>['keytar']) =>
  KeychainSecretStore.open(pino({ level: 'silent' }), async () => keytar);

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
});
