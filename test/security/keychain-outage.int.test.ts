import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeychainSecretStore } from '../../src/service/secrets/keychain-store';
import { PrivateKeyring, privateKeyringSkipReason } from '../support/private-keyring';
import { until } from '../support/until';

const skip = privateKeyringSkipReason();
if (skip) console.warn(`Skipping the keychain outage tests: ${skip}`);

const BACKOFF = { firstMs: 200, maxMs: 1000 };

/**
 * On the real Secret Service (gnome-keyring on a D-Bus session of this test file's own). libsecret keeps one
 * session per process for as long as it lives, so the order matters: first a keyring that only appears after
 * the store opened, then a keyring locked under a store that holds its items.
 */
describe.skipIf(skip !== null)('the keychain store when the real keychain is missing or locked', () => {
  let keyring: PrivateKeyring;
  let previousBus: string | undefined;

  beforeAll(async () => {
    keyring = await PrivateKeyring.start();
    // This process talks to the private bus only (libsecret reads the address on first use).
    previousBus = process.env.DBUS_SESSION_BUS_ADDRESS;
    process.env.DBUS_SESSION_BUS_ADDRESS = keyring.address;
  });
  afterAll(async () => {
    process.env.DBUS_SESSION_BUS_ADDRESS = previousBus;
    await keyring?.stop();
  });

  let store: KeychainSecretStore;

  it('a keyring that starts after the service is picked up on its own, with backoff', async () => {
    store = await KeychainSecretStore.open(pino({ level: 'silent' }), undefined, BACKOFF);
    expect(store.status.state).toBe('no_secret_service');
    await expect(store.get('llm_api_key')).rejects.toMatchObject({ status: 503 });

    await keyring.startKeyring('pw');
    await until(
      async () => store.status.state,
      (state) => state === 'ok',
      'the keychain to be picked up',
    );
    await store.set('llm_api_key', 'sk-kept-in-the-keyring');
    expect(await store.get('llm_api_key')).toBe('sk-kept-in-the-keyring');
  });

  it('a write that fails on a locked keyring leaves every read served from the cache', async () => {
    keyring.lock();
    expect(keyring.locked()).toBe(true);
    await expect(store.set('secret:NEW', 'while-locked')).rejects.toMatchObject({ status: 503 });
    expect(store.status.state).toBe('locked');
    expect(await store.get('llm_api_key')).toBe('sk-kept-in-the-keyring');
    expect(await store.get('secret:NEW')).toBeNull();
    expect(store.values()).toEqual(['sk-kept-in-the-keyring']);
  });
});
