import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GitProvider } from '../../src/shared/api/settings';
import { checkRepositoryAccess, type ProviderToken } from '../../src/service/git/repository-access';
import { type FakeGitProviders, startFakeGitProviders } from '../support/fake-git-providers';
import { freePort } from '../support/ports';

const TOKENS = { github: 'ghp_valid', gitlab: 'glpat-valid', bitbucket: 'dock:app-password' };

let fake: FakeGitProviders;

beforeAll(async () => {
  fake = await startFakeGitProviders(TOKENS, [
    { provider: 'github', path: 'octo/private', private: true },
    { provider: 'github', path: 'octo/shared' },
    { provider: 'gitlab', path: 'group/sub/project', private: true },
    { provider: 'gitlab', path: 'octo/shared' },
    { provider: 'bitbucket', path: 'team/public' },
    { provider: 'bitbucket', path: 'team/private', private: true },
    { provider: 'github', path: 'octo/failing', status: 503 },
  ]);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.repositoryRequests.length = 0;
});

function stored(tokens: Partial<Record<GitProvider, ProviderToken>>) {
  return async (provider: GitProvider) => tokens[provider] ?? null;
}

function check(
  repository: string,
  tokens: Partial<Record<GitProvider, ProviderToken>>,
  gitProvider?: GitProvider,
) {
  return checkRepositoryAccess({ repository, gitProvider, tokens: stored(tokens), apiBase: fake.apiBase });
}

const githubToken = { token: TOKENS.github, host: 'github.com' };
const gitlabToken = { token: TOKENS.gitlab, host: 'gitlab.com' };

describe('checkRepositoryAccess', () => {
  it('uses the stored token of the given provider', async () => {
    await expect(check('octo/private', { github: githubToken }, 'github')).resolves.toEqual({
      provider: 'github',
      host: 'github.com',
    });
    expect(fake.repositoryRequests).toMatchObject([
      { provider: 'github', path: 'octo/private', authorization: `Bearer ${TOKENS.github}` },
    ]);
  });

  it('tries the providers in order and sets the first one that sees the repository', async () => {
    await expect(check('group/sub/project', { gitlab: gitlabToken })).resolves.toEqual({
      provider: 'gitlab',
      host: 'gitlab.com',
    });
    expect(fake.repositoryRequests).toMatchObject([
      { provider: 'github', path: 'group/sub/project', authorization: undefined },
      { provider: 'gitlab', path: 'group/sub/project', authorization: `Bearer ${TOKENS.gitlab}` },
    ]);

    fake.repositoryRequests.length = 0;
    await expect(check('octo/shared', { github: githubToken, gitlab: gitlabToken })).resolves.toEqual({
      provider: 'github',
      host: 'github.com',
    });
    expect(fake.repositoryRequests).toHaveLength(1);
  });

  it('asks anonymously where no token is stored (public repositories on the public hosts)', async () => {
    await expect(check('team/public', {})).resolves.toEqual({ provider: 'bitbucket', host: 'bitbucket.org' });
    expect(fake.repositoryRequests.map((r) => [r.provider, r.authorization])).toEqual([
      ['github', undefined],
      ['gitlab', undefined],
      ['bitbucket', undefined],
    ]);
  });

  it('sends a Bitbucket app password as Basic auth', async () => {
    const bitbucket = { token: TOKENS.bitbucket, host: 'bitbucket.org' };
    await expect(check('team/private', { bitbucket }, 'bitbucket')).resolves.toEqual({
      provider: 'bitbucket',
      host: 'bitbucket.org',
    });
    expect(fake.repositoryRequests[0]?.authorization).toBe(
      `Basic ${Buffer.from(TOKENS.bitbucket).toString('base64')}`,
    );
  });

  it('asks an enterprise_sso host with the GitHub API on that host', async () => {
    const sso = { token: TOKENS.github, host: fake.host };
    await expect(check('octo/private', { enterprise_sso: sso }, 'enterprise_sso')).resolves.toEqual({
      provider: 'enterprise_sso',
      host: fake.host,
    });
    expect(fake.repositoryRequests).toMatchObject([
      { provider: 'github', host: fake.host, path: 'octo/private' },
    ]);
  });

  it('answers 401 "Unable to access repo" when no provider sees the repository', async () => {
    const unable = { status: 401, body: { detail: 'Unable to access repo octo/private' } };
    await expect(check('octo/private', {})).rejects.toMatchObject(unable);
    await expect(
      check('octo/private', { github: { token: 'ghp_wrong', host: 'github.com' } }, 'github'),
    ).rejects.toMatchObject(unable);
    await expect(check('octo/private', {}, 'enterprise_sso')).rejects.toMatchObject(unable);
    expect(fake.repositoryRequests.map((r) => r.provider)).toEqual([
      'github',
      'gitlab',
      'bitbucket',
      'github',
    ]);
  });

  it('answers 502 "Could not reach" for a provider that cannot be asked', async () => {
    const closed = `127.0.0.1:${await freePort()}`;
    await expect(
      check('octo/private', { github: { token: 'ghp_x', host: closed } }, 'github'),
    ).rejects.toMatchObject({
      status: 502,
      body: { detail: `Could not reach ${closed}: ECONNREFUSED` },
    });
    await expect(check('octo/failing', { github: githubToken }, 'github')).rejects.toMatchObject({
      status: 502,
      body: { detail: 'Could not reach github.com: 503 Service Unavailable' },
    });
  });

  it('still finds the repository with a later provider when an earlier one cannot be reached', async () => {
    const closed = `127.0.0.1:${await freePort()}`;
    await expect(
      check('group/sub/project', { github: { token: 'ghp_x', host: closed }, gitlab: gitlabToken }),
    ).resolves.toEqual({ provider: 'gitlab', host: 'gitlab.com' });
  });
});
