import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KeychainSecretStore } from '../../src/service/secrets/keychain-store';
import { cliEnv, ensureCliBuilt, type RunningCli, startServe } from '../support/cli';
import { valuesFoundInFiles } from '../support/data-folder';
import { clearKeychain, keychainItems, probeKeychain } from '../support/keychain';
import { freePort } from '../support/ports';
import { PrivateKeyring, privateKeyringSkipReason } from '../support/private-keyring';
import { requiredInCi } from '../support/required-in-ci';
import { rawRequest, startTestService, type TestResponse, type TestService } from '../support/service';

const probe = await probeKeychain();
if (!probe.usable) console.warn(`Skipping the real OS keychain tests: ${probe.reason}`);

function outcome(response: TestResponse) {
  return { status: response.status, body: response.json };
}

/** Why a keyring daemon on a session bus of its own cannot run here, or null; with `CI` set, throws instead. */
function sessionKeyringSkipReason(): string | null {
  const missing = ['dbus-run-session', 'gnome-keyring-daemon'].find((program) => {
    try {
      execFileSync('which', [program], { stdio: 'ignore' });
      return false;
    } catch {
      return true;
    }
  });
  return requiredInCi('A keyring daemon on a D-Bus session', missing ? `${missing} is not installed` : null);
}

describe.skipIf(!probe.usable)('the real OS keychain', () => {
  let svc: TestService;

  beforeEach(async () => {
    await clearKeychain();
    svc = await startTestService({ realKeychain: true });
  });
  afterEach(async () => {
    await svc.close();
    await clearKeychain();
  });

  it('keeps the session key and every secret in the keychain, never in the data folder', async () => {
    expect((await svc.api('GET', '/server_info')).json).toMatchObject({
      secret_storage: 'keychain',
      keychain: { backend: 'keychain', state: 'ok', message: null, fix: null },
    });
    expect(await keychainItems()).toEqual({ 'session-api-key': svc.key });
    expect(existsSync(path.join(svc.dataDir, 'session-api-key'))).toBe(false);

    const llmKey = 'sk-keychain-llm-key-0001';
    const secretValue = 'keychain-custom-secret-0002';
    expect(
      outcome(
        await svc.api('POST', '/api/settings', { body: { llm_model: 'openai/gpt-4o', llm_api_key: llmKey } }),
      ),
    ).toEqual({
      status: 200,
      body: { message: 'Settings stored' },
    });
    expect(
      outcome(await svc.api('POST', '/api/secrets', { body: { name: 'MY_TOKEN', value: secretValue } })),
    ).toEqual({
      status: 201,
      body: { message: 'Secret created successfully' },
    });
    expect(await keychainItems()).toEqual({
      'session-api-key': svc.key,
      llm_api_key: llmKey,
      'secret:MY_TOKEN': secretValue,
    });
    expect((await svc.api('GET', '/api/settings')).json).toMatchObject({ llm_api_key_set: true });

    expect((await svc.api('POST', '/api/settings', { body: { llm_api_key: '' } })).status).toBe(200);
    expect((await svc.api('DELETE', '/api/secrets/MY_TOKEN')).status).toBe(200);
    expect(await keychainItems()).toEqual({ 'session-api-key': svc.key });

    svc.service.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    expect(valuesFoundInFiles(svc.dataDir, [svc.key, llmKey, secretValue])).toEqual([]);
  });

  it('persists a rotated key in the keychain before answering', async () => {
    const response = await svc.api('POST', '/api/session-api-key/rotate');
    const { session_api_key: rotated } = response.json as { session_api_key: string };
    expect(await keychainItems()).toEqual({ 'session-api-key': rotated });
  });
});

/** The messages keytar passes on from libsecret for each broken keychain (checked on Debian 12). */
const KEYCHAIN_FAILURES = [
  {
    state: 'no_session_bus',
    failing: 'findCredentials',
    message: 'Cannot autolaunch D-Bus without X11 $DISPLAY',
    fix: 'dbus-run-session',
  },
  {
    state: 'no_secret_service',
    failing: 'findCredentials',
    message: 'The name org.freedesktop.secrets was not provided by any .service files',
    fix: 'gnome-keyring',
  },
  {
    state: 'locked',
    failing: 'setPassword',
    message: 'Cannot create an item in a locked collection',
    fix: 'Unlock your login keyring',
  },
  {
    state: 'locked',
    failing: 'setPassword',
    message: 'Object does not exist at path “/org/freedesktop/secrets/collection/login”',
    fix: 'Unlock your login keyring',
  },
] as const;

/** A keytar whose `failing` call throws `message`, as the native module does for a broken keychain. */
function brokenKeytar(failing: 'findCredentials' | 'setPassword', message: string) {
  const fail = async (): Promise<never> => {
    throw new Error(message);
  };
  return {
    findCredentials: failing === 'findCredentials' ? fail : async () => [],
    setPassword: fail,
    deletePassword: fail,
  };
}

/** Checks the named state, the 503 on every secret write, and that nothing leaked to disk. */
async function expectNamedStateAnd503(
  port: number,
  key: string,
  dataDir: string,
  state: string,
  messageStart: string,
  /** Custom secrets stored before the keychain broke (their names live in SQLite). */
  secretNames: string[] = [],
) {
  const canary = `canary-keychain-down-${state}-${Date.now()}`;
  const info = await rawRequest(port, 'GET', '/server_info', { key });
  expect(info.status).toBe(200);
  expect(info.json).toMatchObject({
    secret_storage: 'file',
    keychain: {
      backend: 'keychain',
      state,
      message: expect.stringContaining(messageStart),
      fix: expect.any(String),
    },
  });
  const { fix } = (info.json as { keychain: { fix: string } }).keychain;

  const settings = await rawRequest(port, 'POST', '/api/settings', {
    key,
    body: { llm_model: 'openai/gpt-4o', llm_api_key: canary },
  });
  expect(settings.status).toBe(503);
  const { detail } = settings.json as { detail: string };
  expect(detail).toMatch(new RegExp(`^Secret storage is not available \\(${state}\\): `));
  expect(detail).toContain(messageStart);
  expect(detail).toContain(fix);

  expect(
    outcome(await rawRequest(port, 'POST', '/api/secrets', { key, body: { name: 'CANARY', value: canary } })),
  ).toMatchObject({ status: 503, body: { detail } });
  // Settings without secrets can still be stored; reading them needs the keychain for the *_set flags.
  expect((await rawRequest(port, 'POST', '/api/settings', { key, body: { language: 'en' } })).status).toBe(
    200,
  );
  expect(outcome(await rawRequest(port, 'GET', '/api/settings', { key }))).toEqual({
    status: 503,
    body: { detail },
  });
  expect(outcome(await rawRequest(port, 'GET', '/api/secrets', { key }))).toEqual({
    status: 200,
    body: { custom_secrets: secretNames.map((name) => ({ name, description: null })) },
  });

  expect(valuesFoundInFiles(dataDir, [canary])).toEqual([]);
  expect(existsSync(path.join(dataDir, 'secrets.json'))).toBe(false);
  // Only the session key falls back to a 0600 file, so that the service stays usable.
  const keyFile = path.join(dataDir, 'session-api-key');
  expect(readFileSync(keyFile, 'utf8').trim()).toBe(key);
  expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  expect(statSync(dataDir).mode & 0o777).toBe(0o700);
}

describe('a broken keychain is named, answered with 503, and never replaced by plain text', () => {
  for (const failure of KEYCHAIN_FAILURES) {
    it(`${failure.state}: ${failure.message}`, async () => {
      const store = await KeychainSecretStore.open(pino({ level: 'silent' }), async () =>
        brokenKeytar(failure.failing, failure.message),
      );
      const svc = await startTestService({ secretStore: store });
      try {
        await expectNamedStateAnd503(svc.port, svc.key, svc.dataDir, failure.state, failure.message);
        const { keychain } = (await svc.api('GET', '/server_info')).json as { keychain: { fix: string } };
        expect(keychain.fix).toContain(failure.fix);
      } finally {
        await svc.close();
      }
    });
  }
});

describe('dockhand serve with a real broken keychain', () => {
  let root: string;
  let cli: RunningCli | undefined;

  beforeAll(() => {
    ensureCliBuilt();
    root = mkdtempSync(path.join(os.tmpdir(), 'dockhand-keychain-'));
  });
  afterEach(async () => {
    await cli?.stop('SIGTERM');
    cli = undefined;
  });
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('without a D-Bus session bus: no_session_bus, 503 on secret writes', async () => {
    const dataDir = path.join(root, 'no-bus');
    const env = cliEnv({
      DBUS_SESSION_BUS_ADDRESS: undefined,
      DISPLAY: undefined,
      WAYLAND_DISPLAY: undefined,
    });
    cli = await startServe(['--data-dir', dataDir, '--port', String(await freePort())], env);
    await expectNamedStateAnd503(cli.port, cli.key, dataDir, 'no_session_bus', 'Cannot autolaunch D-Bus');
  });

  const noSessionKeyring = sessionKeyringSkipReason();
  if (noSessionKeyring) console.warn(`Skipping the locked-keyring test: ${noSessionKeyring}`);

  it.skipIf(noSessionKeyring !== null)(
    'with a keyring daemon but no unlocked login keyring: locked, 503',
    async () => {
      const dataDir = path.join(root, 'locked');
      const home = mkdtempSync(path.join(root, 'home-'));
      const port = await freePort();
      // A fresh session bus whose keyring daemon starts on demand, with no login keyring to store into.
      const env = cliEnv({ HOME: home, DBUS_SESSION_BUS_ADDRESS: undefined, DISPLAY: undefined });
      cli = await startServe(['--data-dir', dataDir, '--port', String(port)], env, [
        'dbus-run-session',
        '--',
      ]);
      await expectNamedStateAnd503(cli.port, cli.key, dataDir, 'locked', 'collection/login');
    },
  );

  const noPrivateKeyring = privateKeyringSkipReason();
  if (noPrivateKeyring) console.warn(`Skipping the private-keyring tests: ${noPrivateKeyring}`);

  describe.skipIf(noPrivateKeyring !== null)('on a private D-Bus session of the test', () => {
    let keyring: PrivateKeyring | undefined;
    afterEach(async () => {
      await cli?.stop('SIGTERM');
      cli = undefined;
      await keyring?.stop();
      keyring = undefined;
    });

    it('with a session bus but no Secret Service: no_secret_service, 503 on secret writes', async () => {
      keyring = await PrivateKeyring.start();
      const dataDir = path.join(root, 'no-secret-service');
      cli = await startServe(
        ['--data-dir', dataDir, '--port', String(await freePort())],
        cliEnv(keyring.env()),
      );
      await expectNamedStateAnd503(
        cli.port,
        cli.key,
        dataDir,
        'no_secret_service',
        'org.freedesktop.secrets',
      );
    });

    it('with Dockhand items in a login keyring locked through the Secret Service API: locked, no crash', async () => {
      keyring = await PrivateKeyring.start();
      await keyring.startKeyring('pw');
      const dataDir = path.join(root, 'locked-with-items');
      const env = cliEnv(keyring.env());
      cli = await startServe(['--data-dir', dataDir, '--port', String(await freePort())], env);
      const created = await rawRequest(cli.port, 'POST', '/api/secrets', {
        key: cli.key,
        body: { name: 'KEPT', value: 'kept-in-the-keyring' },
      });
      expect(created.status).toBe(201);
      await cli.stop('SIGTERM');

      keyring.lock();
      expect(keyring.locked()).toBe(true);
      cli = await startServe(['--data-dir', dataDir, '--port', String(await freePort())], env);
      await expectNamedStateAnd503(cli.port, cli.key, dataDir, 'locked', 'locked collection', ['KEPT']);
      expect(valuesFoundInFiles(dataDir, ['kept-in-the-keyring'])).toEqual([]);
    });
  });
});
