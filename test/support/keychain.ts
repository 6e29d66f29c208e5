import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { KeychainSecretStore } from '../../src/service/secrets/keychain-store';
import { SERVICE_NAME } from '../../src/service/secrets/secret-store';
import { requiredInCi } from './required-in-ci';

interface Keytar {
  findCredentials(service: string): Promise<{ account: string; password: string }[]>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

async function loadKeytar(): Promise<Keytar> {
  const module = (await import('keytar')) as unknown as { default?: Keytar } & Keytar;
  return module.default ?? module;
}

export type KeychainProbe = { usable: true } | { usable: false; reason: string };

function isThrowawayHome(): boolean {
  const home = path.resolve(os.homedir());
  return home.startsWith(path.resolve(os.tmpdir()) + path.sep);
}

/**
 * Whether the real OS keychain can be used by tests: it must store and delete an item, and HOME must be
 * a throwaway folder (as scripts/test.sh sets up), because the tests empty the Dockhand keychain items.
 * With `CI` set, an unusable keychain throws instead (see requiredInCi).
 */
export async function probeKeychain(): Promise<KeychainProbe> {
  const probe = await probeUnchecked();
  if (!probe.usable) requiredInCi('The OS keychain', probe.reason);
  return probe;
}

async function probeUnchecked(): Promise<KeychainProbe> {
  if (!isThrowawayHome()) {
    return {
      usable: false,
      reason: `HOME (${os.homedir()}) is not a throwaway folder under ${os.tmpdir()}; real-keychain tests only run against a disposable keyring (run them through scripts/test.sh or dbus-run-session with HOME=$(mktemp -d))`,
    };
  }
  const store = await KeychainSecretStore.open(pino({ level: 'silent' }));
  try {
    await store.set('test-probe', 'probe');
    await store.delete('test-probe');
  } catch {
    // The store names the failure in its status.
  }
  return store.status.state === 'ok'
    ? { usable: true }
    : {
        usable: false,
        reason: `the OS keychain is not usable (${store.status.state}): ${store.status.message}`,
      };
}

/** Every Dockhand item in the OS keychain, account -> value. */
export async function keychainItems(): Promise<Record<string, string>> {
  const keytar = await loadKeytar();
  const items = await keytar.findCredentials(SERVICE_NAME);
  return Object.fromEntries(items.map((i) => [i.account, i.password]));
}

/** Removes every Dockhand item from the (throwaway) OS keychain. */
export async function clearKeychain(): Promise<void> {
  const keytar = await loadKeytar();
  for (const account of Object.keys(await keychainItems()))
    await keytar.deletePassword(SERVICE_NAME, account);
}
