import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGitProviders, startFakeGitProviders } from '../support/fake-git-providers';
import { clearKeychain, probeKeychain } from '../support/keychain';
import { startTestService, tempDataDir } from '../support/service';

const probe = await probeKeychain();
console.warn(
  probe.usable
    ? 'Restart test: secrets in the real OS keychain'
    : `Restart test: secrets in the DOCKHAND_SECRETS=file store, because ${probe.reason}`,
);

const GITHUB_TOKEN = 'ghp_restart_token_0001';

describe('a restart on the same data folder', () => {
  let providers: FakeGitProviders;
  let dataDir: string;
  const previousSecretsSetting = process.env.DOCKHAND_SECRETS;

  /** Starts the service the way the app does: the OS keychain, or the file store when it is not usable. */
  const start = () => startTestService({ dataDir, providerApiBase: providers.apiBase, realKeychain: true });

  beforeAll(async () => {
    if (probe.usable) await clearKeychain();
    else process.env.DOCKHAND_SECRETS = 'file';
    providers = await startFakeGitProviders({ github: GITHUB_TOKEN });
    dataDir = tempDataDir();
  });
  afterAll(async () => {
    if (previousSecretsSetting === undefined) delete process.env.DOCKHAND_SECRETS;
    else process.env.DOCKHAND_SECRETS = previousSecretsSetting;
    await providers.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (probe.usable) await clearKeychain();
  });

  it('keeps settings, provider tokens, custom secrets and the session key', async () => {
    const first = await start();
    const expectedStorage = probe.usable ? 'keychain' : 'file';
    let settingsBefore: unknown;
    try {
      expect((await first.api('GET', '/server_info')).json).toMatchObject({
        secret_storage: expectedStorage,
      });
      const saved = await first.api('POST', '/api/settings', {
        body: {
          llm_model: 'openai/gpt-4o',
          llm_api_key: 'sk-restart',
          language: 'fr',
          max_iterations: 99,
          mcp_config: { sse_servers: [{ url: 'http://127.0.0.1:9/sse', api_key: 'mcp-restart' }] },
        },
      });
      expect(saved.status).toBe(200);
      const added = await first.api('POST', '/api/add-git-providers', {
        body: { provider_tokens: { github: { token: GITHUB_TOKEN, host: providers.host } } },
      });
      expect(added.status).toBe(200);
      const created = await first.api('POST', '/api/secrets', {
        body: { name: 'MY_TOKEN', value: 's3cr3t-restart', description: 'kept' },
      });
      expect(created.status).toBe(201);
      settingsBefore = (await first.api('GET', '/api/settings')).json;
    } finally {
      await first.close({ keepData: true });
    }

    const second = await start();
    try {
      expect(second.key).toBe(first.key);
      expect((await second.api('GET', '/api/settings')).json).toEqual(settingsBefore);
      expect(settingsBefore).toMatchObject({
        llm_api_key_set: true,
        language: 'fr',
        max_iterations: 99,
        provider_tokens_set: { github: providers.host },
      });
      expect((await second.api('GET', '/api/secrets')).json).toEqual({
        custom_secrets: [{ name: 'MY_TOKEN', description: 'kept' }],
      });
      const context = second.service.context;
      expect(await context.secrets.get('llm_api_key')).toBe('sk-restart');
      expect(await context.providerTokens.token('github')).toEqual({
        token: GITHUB_TOKEN,
        host: providers.host,
      });
      expect(await context.customSecrets.values()).toEqual({ MY_TOKEN: 's3cr3t-restart' });
      expect((await context.settings.mcpConfig())?.sse_servers).toEqual([
        { url: 'http://127.0.0.1:9/sse', api_key: 'mcp-restart' },
      ]);
    } finally {
      await second.close({ keepData: true });
    }
  });
});
