import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { valuesFoundInFiles } from '../support/data-folder';
import { type FakeGitProviders, startFakeGitProviders } from '../support/fake-git-providers';
import { freePort } from '../support/ports';
import { startTestService, type TestResponse, type TestService } from '../support/service';

const GITHUB_TOKEN = 'ghp_valid_token_for_tests_0001';
const GITLAB_TOKEN = 'glpat-valid-token-for-tests';
const BITBUCKET_TOKEN = 'dock-user:bb-app-password';

const STORED = { status: 200, body: { message: 'Git providers stored', unverified_providers: [] } };

function outcome(response: TestResponse) {
  return { status: response.status, body: response.json };
}

describe('git-provider tokens (/api/add-git-providers, /api/unset-provider-tokens)', () => {
  let providers: FakeGitProviders;
  let svc: TestService;

  const add = async (body: unknown) => outcome(await svc.api('POST', '/api/add-git-providers', { body }));
  const providerTokensSet = async () => {
    const response = await svc.api('GET', '/api/settings');
    expect(response.status).toBe(200);
    return (response.json as { provider_tokens_set: unknown }).provider_tokens_set;
  };
  const storedToken = (provider: string) => svc.service.context.secrets.get(`provider:${provider}`);

  beforeAll(async () => {
    providers = await startFakeGitProviders({
      github: GITHUB_TOKEN,
      gitlab: GITLAB_TOKEN,
      bitbucket: BITBUCKET_TOKEN,
    });
  });
  afterAll(async () => {
    await providers.close();
  });
  beforeEach(async () => {
    providers.requests.length = 0;
    svc = await startTestService({ providerApiBase: providers.apiBase });
    expect(outcome(await svc.api('POST', '/api/settings', { body: {} }))).toEqual({
      status: 200,
      body: { message: 'Settings stored' },
    });
  });
  afterEach(async () => {
    await svc.close();
  });

  it('verifies a GitHub token with the provider and stores it in the secret store only', async () => {
    expect(await add({ provider_tokens: { github: { token: GITHUB_TOKEN } } })).toEqual(STORED);
    expect(providers.requests).toEqual([
      { provider: 'github', host: providers.host, authorization: `Bearer ${GITHUB_TOKEN}` },
    ]);
    expect(await providerTokensSet()).toEqual({ github: null });
    expect(await storedToken('github')).toBe(GITHUB_TOKEN);
    expect(svc.service.context.providerTokens.list()).toEqual([
      { provider: 'github', host: null, user_id: '4242', verified: 1 },
    ]);
    svc.service.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    expect(valuesFoundInFiles(svc.dataDir, [GITHUB_TOKEN])).toEqual([]);
    expect(path.basename(svc.service.db.file)).toBe('dockhand.db');
  });

  it('takes a blank host ("" or null) as the default host, as the OpenHands web UI sends it', async () => {
    // The OpenHands git settings screen sends every provider, with "" for each blank token and host field.
    const blank = { token: '', host: '' };
    const fromOpenHandsUi = { github: { token: GITHUB_TOKEN, host: '' }, gitlab: blank, bitbucket: blank };
    expect(await add({ provider_tokens: fromOpenHandsUi })).toEqual(STORED);
    expect(await providerTokensSet()).toEqual({ github: null });
    expect(svc.service.context.providerTokens.list()).toEqual([
      { provider: 'github', host: null, user_id: '4242', verified: 1 },
    ]);

    expect(await add({ provider_tokens: { gitlab: { token: GITLAB_TOKEN, host: null } } })).toEqual(STORED);
    expect(await providerTokensSet()).toEqual({ gitlab: null });
    expect(providers.requests.map((r) => r.provider)).toEqual(['github', 'gitlab']);
    expect((await add({ provider_tokens: { github: { token: GITHUB_TOKEN, host: ' ' } } })).status).toBe(422);
    expect((await add({ provider_tokens: { enterprise_sso: { token: 't', host: '' } } })).status).toBe(422);
  });

  it('stores every provider at once, with custom hosts, and reports their hosts', async () => {
    expect(
      await add({
        provider_tokens: {
          github: { token: GITHUB_TOKEN, host: providers.host },
          gitlab: { token: GITLAB_TOKEN },
          bitbucket: { token: BITBUCKET_TOKEN },
          enterprise_sso: { token: 'sso-token', host: 'sso.corp.example' },
        },
      }),
    ).toEqual(STORED);
    expect(await providerTokensSet()).toEqual({
      github: providers.host,
      gitlab: null,
      bitbucket: null,
      enterprise_sso: 'sso.corp.example',
    });
    expect(providers.requests.map((r) => [r.provider, r.authorization])).toEqual([
      ['github', `Bearer ${GITHUB_TOKEN}`],
      ['gitlab', `Bearer ${GITLAB_TOKEN}`],
      ['bitbucket', `Basic ${Buffer.from(BITBUCKET_TOKEN).toString('base64')}`],
    ]);
    expect(await storedToken('enterprise_sso')).toBe('sso-token');
  });

  it('answers 401 for a token the provider rejects, and keeps what was stored', async () => {
    expect(await add({ provider_tokens: { github: { token: GITHUB_TOKEN } } })).toEqual(STORED);
    for (const provider of ['github', 'gitlab', 'bitbucket']) {
      expect(await add({ provider_tokens: { [provider]: { token: 'bad-token' } } }), provider).toEqual({
        status: 401,
        body: { detail: `Invalid token. Please make sure it is a valid ${provider} token.` },
      });
    }
    expect(await providerTokensSet()).toEqual({ github: null });
    expect(await storedToken('github')).toBe(GITHUB_TOKEN);
    expect(await storedToken('gitlab')).toBeNull();
  });

  it('stores a token unverified when its provider cannot be reached, and verifies it when it can', async () => {
    const host = `127.0.0.1:${await freePort()}`;
    const response = await add({ provider_tokens: { github: { token: GITHUB_TOKEN, host } } });
    expect(response).toEqual({
      status: 200,
      body: {
        message: 'Git providers stored; not verified yet (could not be reached): github',
        unverified_providers: ['github'],
      },
    });
    expect(await providerTokensSet()).toEqual({ github: host });
    expect(await storedToken('github')).toBe(GITHUB_TOKEN);
    const settings = (await svc.api('GET', '/api/settings')).json as { provider_tokens_unverified: string[] };
    expect(settings.provider_tokens_unverified).toEqual(['github']);

    // Still unreachable: it stays unverified. Then the provider answers at that host: the check passes.
    await svc.service.context.providerTokens.recheckUnverified(Date.now() + 120_000);
    expect(svc.service.context.providerTokens.unverified()).toEqual(['github']);
    const [, port] = host.split(':');
    const online = await startFakeGitProviders({ github: GITHUB_TOKEN }, [], Number(port));
    try {
      await svc.service.context.providerTokens.recheckUnverified(Date.now() + 240_000);
      expect(svc.service.context.providerTokens.list()).toEqual([
        { provider: 'github', host, user_id: '4242', verified: 1 },
      ]);
    } finally {
      await online.close();
    }
  });

  it('removes a token saved unverified that the provider rejects once it is reachable', async () => {
    const host = `127.0.0.1:${await freePort()}`;
    expect((await add({ provider_tokens: { github: { token: 'bad-token', host } } })).status).toBe(200);
    const [, port] = host.split(':');
    const online = await startFakeGitProviders({ github: GITHUB_TOKEN }, [], Number(port));
    try {
      await svc.service.context.providerTokens.recheckUnverified(Date.now() + 120_000);
    } finally {
      await online.close();
    }
    expect(await providerTokensSet()).toEqual({});
    expect(await storedToken('github')).toBeNull();
  });

  it('keeps the stored token when the sent one is empty, re-checking it against the new host', async () => {
    expect(await add({ provider_tokens: { github: { token: GITHUB_TOKEN } } })).toEqual(STORED);
    providers.requests.length = 0;
    expect(await add({ provider_tokens: { github: { token: '', host: providers.host } } })).toEqual(STORED);
    expect(providers.requests).toEqual([
      { provider: 'github', host: providers.host, authorization: `Bearer ${GITHUB_TOKEN}` },
    ]);
    expect(await providerTokensSet()).toEqual({ github: providers.host });
    expect(await storedToken('github')).toBe(GITHUB_TOKEN);

    // A provider that cannot be reached at the new host: kept, unverified, with that host.
    const host = `127.0.0.1:${await freePort()}`;
    expect((await add({ provider_tokens: { github: { token: null, host } } })).body).toMatchObject({
      unverified_providers: ['github'],
    });
    expect(await providerTokensSet()).toEqual({ github: host });
  });

  it('ignores an empty token for a provider that has none stored', async () => {
    expect(await add({ provider_tokens: { gitlab: { token: '' } } })).toEqual(STORED);
    expect(await providerTokensSet()).toEqual({});
    expect(providers.requests).toEqual([]);
  });

  it('replaces the stored set: providers not sent are removed', async () => {
    expect(
      await add({ provider_tokens: { github: { token: GITHUB_TOKEN }, gitlab: { token: GITLAB_TOKEN } } }),
    ).toEqual(STORED);
    expect(await add({ provider_tokens: { gitlab: { token: '' } } })).toEqual(STORED);
    expect(await providerTokensSet()).toEqual({ gitlab: null });
    expect(await storedToken('github')).toBeNull();
    expect(await storedToken('gitlab')).toBe(GITLAB_TOKEN);
    expect(await add({})).toEqual(STORED);
    expect(await providerTokensSet()).toEqual({});
  });

  it('removes every token with unset-provider-tokens', async () => {
    expect(
      await add({ provider_tokens: { github: { token: GITHUB_TOKEN }, gitlab: { token: GITLAB_TOKEN } } }),
    ).toEqual(STORED);
    expect(outcome(await svc.api('POST', '/api/unset-provider-tokens'))).toEqual({
      status: 200,
      body: { message: 'Unset Git provider tokens' },
    });
    expect(await providerTokensSet()).toEqual({});
    expect(await storedToken('github')).toBeNull();
    expect(await storedToken('gitlab')).toBeNull();
  });

  it('replaces the MCP servers when mcp_config is sent', async () => {
    expect(
      await add({
        provider_tokens: {},
        mcp_config: { sse_servers: [{ url: 'http://127.0.0.1:9/sse', api_key: 'mcp-k' }] },
      }),
    ).toEqual(STORED);
    const settings = (await svc.api('GET', '/api/settings')).json as { mcp_config: unknown };
    expect(settings.mcp_config).toEqual({
      sse_servers: [{ url: 'http://127.0.0.1:9/sse', api_key: '**********' }],
      shttp_servers: [],
      stdio_servers: [],
    });
  });

  it('validates provider names, hosts and fields', async () => {
    const expected = "'github', 'gitlab', 'bitbucket' or 'enterprise_sso'";
    expect(await add({ provider_tokens: { azure_devops: { token: 't' } } })).toEqual({
      status: 422,
      body: {
        detail: [
          {
            type: 'enum',
            loc: ['body', 'provider_tokens', 'azure_devops', '[key]'],
            msg: `Input should be ${expected}`,
            input: 'azure_devops',
            ctx: { expected },
          },
        ],
      },
    });
    expect(await add({ provider_tokens: { enterprise_sso: { token: 'sso-token' } } })).toEqual({
      status: 422,
      body: {
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'provider_tokens', 'enterprise_sso', 'host'],
            msg: 'Value error, host is required for enterprise_sso',
            input: null,
          },
        ],
      },
    });
    const hostPattern = '^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:\\d{1,5})?$';
    expect(await add({ provider_tokens: { github: { token: 't', host: 'https://github.com/' } } })).toEqual({
      status: 422,
      body: {
        detail: [
          {
            type: 'string_pattern_mismatch',
            loc: ['body', 'provider_tokens', 'github', 'host'],
            msg: `String should match pattern '${hostPattern}'`,
            input: 'https://github.com/',
            ctx: { pattern: hostPattern },
          },
        ],
      },
    });
    expect(await add({ provider_tokens: { github: { token: 't', scope: 'repo' } }, extra: 1 })).toEqual({
      status: 422,
      body: {
        detail: [
          {
            type: 'extra_forbidden',
            loc: ['body', 'provider_tokens', 'github', 'scope'],
            msg: 'Extra inputs are not permitted',
            input: 'repo',
          },
          {
            type: 'extra_forbidden',
            loc: ['body', 'extra'],
            msg: 'Extra inputs are not permitted',
            input: 1,
          },
        ],
      },
    });
    expect(await add({ provider_tokens: { github: { token: 5 } } })).toEqual({
      status: 422,
      body: {
        detail: [
          {
            type: 'string_type',
            loc: ['body', 'provider_tokens', 'github', 'token'],
            msg: 'Input should be a valid string',
            input: 5,
          },
        ],
      },
    });
    expect(providers.requests).toEqual([]);
    expect(await providerTokensSet()).toEqual({});
  });
});
