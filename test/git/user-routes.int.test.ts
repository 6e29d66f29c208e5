import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { VerifiedProvider } from '../support/fake-git-providers';
import {
  type FakeProviderApis,
  type FakeProviderRepository,
  startFakeProviderApis,
} from '../support/fake-provider-apis';
import { startTestService, type TestResponse, type TestService } from '../support/service';

const TOKENS: Record<VerifiedProvider, string> = {
  github: 'ghp_user_routes_token_0001',
  gitlab: 'glpat-user-routes-token',
  bitbucket: 'dock-bucket:bb-app-password',
};

const TOKEN_REQUIRED = { status: 401, body: { detail: 'Git provider token required.' } };
const SSO_UNSUPPORTED = {
  status: 400,
  body: { detail: 'Provider enterprise_sso does not support this operation' },
};

const REVIEW_AGENT = `---
name: review
triggers:
  - review
  - pull request
---
Check the diff before answering.
`;

/** Enough repositories that listing them all takes more than one provider page of 100. */
const BULK: FakeProviderRepository[] = Array.from({ length: 120 }, (_, i) => ({
  provider: 'github',
  fullName: `octo-dock/bulk-${String(i).padStart(3, '0')}`,
  pushedAt: '2024-01-01T00:00:00Z',
}));

const REPOSITORIES: FakeProviderRepository[] = [
  {
    provider: 'github',
    fullName: 'octo-dock/web-app',
    stars: 5,
    pushedAt: '2025-03-01T10:00:00Z',
    branches: [
      { name: 'main', sha: 'aaa111', protected: true },
      { name: 'feature/login', sha: 'bbb222' },
      { name: 'fix/Login-button', sha: 'ccc333' },
    ],
    files: {
      '.cursorrules': 'Prefer small functions.\n',
      '.openhands/microagents/review.md': REVIEW_AGENT,
      '.openhands/microagents/README.md': '# About these files',
      '.openhands/microagents/tools/lint.md': 'Run the linter.',
      '.openhands/microagents/notes.txt': 'not a microagent',
      'src/index.ts': 'export {};',
    },
  },
  {
    provider: 'github',
    fullName: 'octo-dock/cli',
    private: true,
    stars: 1,
    pushedAt: '2025-02-01T00:00:00Z',
  },
  {
    provider: 'github',
    fullName: 'dock-org/api',
    ownerType: 'organization',
    stars: 40,
    pushedAt: '2025-01-15T00:00:00Z',
    defaultBranch: 'trunk',
  },
  {
    provider: 'github',
    fullName: 'dock-org/.openhands',
    ownerType: 'organization',
    pushedAt: '2025-01-10T00:00:00Z',
    files: { 'microagents/org-wide.md': 'Organisation rules.' },
  },
  ...BULK,
  {
    provider: 'gitlab',
    fullName: 'dock-group/sub/service',
    ownerType: 'organization',
    stars: 3,
    pushedAt: '2025-03-02T08:30:00.123Z',
    branches: [
      { name: 'main', sha: 'g1', protected: true, date: '2025-03-01T12:00:00+01:00' },
      { name: 'dev', sha: 'g2', date: '2025-03-02T08:00:00Z' },
      { name: 'dev-2', sha: 'g3', date: '2025-03-02T09:00:00Z' },
    ],
    files: {
      '.openhands/microagents/deploy.md': '---\ntriggers: [deploy]\n---\nDeploy with care.',
      '.openhands/microagents/README.md': 'readme',
    },
  },
  { provider: 'gitlab', fullName: 'dock-lab/notes', private: true, pushedAt: '2024-12-01T00:00:00Z' },
  {
    provider: 'bitbucket',
    fullName: 'dock-space/site',
    ownerType: 'organization',
    pushedAt: '2025-03-03T00:00:00.000000+00:00',
    branches: [
      { name: 'main', sha: 'b1', date: '2025-03-03T00:00:00+00:00' },
      { name: 'release/1.0', sha: 'b2', date: '2025-02-03T00:00:00+00:00' },
    ],
    files: {
      '.cursorrules': 'Bitbucket rules.',
      '.openhands/microagents/a.md': 'A',
      '.openhands/microagents/b.md': 'B',
      '.openhands/microagents/deep/c.md': 'C',
    },
  },
  {
    provider: 'bitbucket',
    fullName: 'dock-space/empty',
    defaultBranch: null,
    pushedAt: '2025-01-01T00:00:00Z',
  },
  { provider: 'bitbucket', fullName: 'team-two/tool', pushedAt: '2024-06-01T00:00:00Z' },
];

function outcome(response: TestResponse) {
  return { status: response.status, body: response.json };
}

/** The `page` query parameter of the rel="next" link in a Link header, or null. */
function nextPage(link: unknown): string | null {
  const next = String(link ?? '')
    .split(',')
    .find((part) => part.includes('rel="next"'));
  const url = next && /<([^>]+)>/.exec(next)?.[1];
  return url ? new URL(url).searchParams.get('page') : null;
}

const EVERY_ROUTE = [
  '/api/user/installations?provider=github',
  '/api/user/repositories',
  '/api/user/info',
  '/api/user/search/repositories?query=web',
  '/api/user/search/branches?repository=octo-dock/web-app&query=main',
  '/api/user/suggested-tasks',
  '/api/user/repository/branches?repository=octo-dock/web-app',
  '/api/user/repository/octo-dock/web-app/microagents',
  '/api/user/repository/octo-dock/web-app/microagents/content?file_path=.cursorrules',
];

describe('git provider user routes (/api/user)', () => {
  let providers: FakeProviderApis;
  let svc: TestService;

  const get = async (path: string) => outcome(await svc.api('GET', path));
  const connect = async (...which: VerifiedProvider[]) => {
    const provider_tokens = Object.fromEntries(which.map((p) => [p, { token: TOKENS[p] }]));
    expect(outcome(await svc.api('POST', '/api/add-git-providers', { body: { provider_tokens } }))).toEqual({
      status: 200,
      body: { message: 'Git providers stored', unverified_providers: [] },
    });
    providers.requests.length = 0;
  };
  const repoNames = (body: unknown) => (body as { full_name: string }[]).map((r) => r.full_name);

  beforeAll(async () => {
    providers = await startFakeProviderApis(TOKENS, {
      repositories: REPOSITORIES,
      installations: [{ id: '901', repositories: ['dock-org/api'] }],
      pullRequests: [
        { provider: 'github', repo: 'octo-dock/web-app', number: 11, title: 'Conflicting', conflicts: true },
        { provider: 'github', repo: 'octo-dock/web-app', number: 12, title: 'Red CI', failingChecks: true },
        { provider: 'github', repo: 'dock-org/api', number: 13, title: 'Reviewed', reviewComments: true },
        { provider: 'github', repo: 'dock-org/api', number: 14, title: 'All good' },
        {
          provider: 'gitlab',
          repo: 'dock-group/sub/service',
          number: 3,
          title: 'MR conflict',
          conflicts: true,
        },
        {
          provider: 'gitlab',
          repo: 'dock-group/sub/service',
          number: 4,
          title: 'MR pipeline',
          failingChecks: true,
        },
        {
          provider: 'gitlab',
          repo: 'dock-group/sub/service',
          number: 5,
          title: 'MR threads',
          reviewComments: true,
        },
        { provider: 'gitlab', repo: 'dock-group/sub/service', number: 6, title: 'MR fine' },
      ],
      issues: [
        { provider: 'github', repo: 'octo-dock/web-app', number: 21, title: 'Login is slow' },
        { provider: 'gitlab', repo: 'dock-group/sub/service', number: 7, title: 'Timeout on deploy' },
      ],
    });
  });
  afterAll(async () => {
    await providers.close();
  });
  beforeEach(async () => {
    providers.failures.length = 0;
    svc = await startTestService({ providerApiBase: providers.apiBase });
  });
  afterEach(async () => {
    await svc.close();
  });

  it('answers 401 on every route without a stored token, and asks no provider', async () => {
    for (const route of EVERY_ROUTE) expect(await get(route), route).toEqual(TOKEN_REQUIRED);
    await connect('gitlab');
    expect(await get('/api/user/installations?provider=github')).toEqual(TOKEN_REQUIRED);
    expect(await get('/api/user/repositories?selected_provider=bitbucket&installation_id=x')).toEqual(
      TOKEN_REQUIRED,
    );
    expect(providers.requests).toEqual([]);
  });

  it('answers 400 for enterprise_sso, whether selected or the only provider stored', async () => {
    expect(
      outcome(
        await svc.api('POST', '/api/add-git-providers', {
          body: { provider_tokens: { enterprise_sso: { token: 'sso-token', host: 'sso.corp.example' } } },
        }),
      ).status,
    ).toBe(200);
    expect(await get(EVERY_ROUTE[0] ?? '')).toEqual(TOKEN_REQUIRED);
    for (const route of EVERY_ROUTE.slice(1)) expect(await get(route), route).toEqual(SSO_UNSUPPORTED);
    await connect('github');
    expect(await get('/api/user/installations?provider=enterprise_sso')).toEqual(SSO_UNSUPPORTED);
    expect(await get('/api/user/repositories?selected_provider=enterprise_sso&page=1&per_page=5')).toEqual(
      SSO_UNSUPPORTED,
    );
    expect(await get('/api/user/search/repositories?query=x&selected_provider=enterprise_sso')).toEqual(
      SSO_UNSUPPORTED,
    );
  });

  it('GET /info: the user of the first connected provider, with its token', async () => {
    await connect('gitlab', 'bitbucket', 'github');
    expect(await get('/api/user/info')).toEqual({
      status: 200,
      body: {
        id: '4242',
        login: 'octo-dock',
        avatar_url: 'https://avatars.example/octo-dock.png',
        company: 'Dock Co',
        name: 'Octo Dock',
        email: 'octo@dock.example',
      },
    });
    expect(providers.requests).toEqual([
      { provider: 'github', prefix: '', path: '/user', query: {}, authorization: `Bearer ${TOKENS.github}` },
    ]);
    await connect('gitlab');
    expect((await get('/api/user/info')).body).toEqual({
      id: '77',
      login: 'dock-lab',
      avatar_url: 'https://avatars.example/dock-lab.png',
      company: null,
      name: 'Dock Lab',
      email: 'lab@dock.example',
    });
    expect(providers.requests.at(-1)?.authorization).toBe(`Bearer ${TOKENS.gitlab}`);
    await connect('bitbucket');
    expect((await get('/api/user/info')).body).toEqual({
      id: 'bb-account',
      login: 'dock-bucket',
      avatar_url: 'https://avatars.example/dock-bucket.png',
      company: null,
      name: 'Dock Bucket',
      email: null,
    });
    expect(providers.requests.map((r) => r.authorization)).toEqual([
      `Basic ${Buffer.from(TOKENS.bitbucket).toString('base64')}`,
    ]);
  });

  it('asks a GitHub Enterprise host under /api/v3 and finds its repositories by their URL', async () => {
    const body = { provider_tokens: { github: { token: TOKENS.github, host: providers.host } } };
    expect((await svc.api('POST', '/api/add-git-providers', { body })).status).toBe(200);
    providers.requests.length = 0;
    expect((await get('/api/user/info')).body).toMatchObject({ login: 'octo-dock' });
    expect(providers.requests).toEqual([
      {
        provider: 'github',
        prefix: '/api/v3',
        path: '/user',
        query: {},
        authorization: `Bearer ${TOKENS.github}`,
      },
    ]);
    const search = (query: string) => get(`/api/user/search/repositories?query=${encodeURIComponent(query)}`);
    expect(repoNames((await search(`http://${providers.host}/dock-org/api`)).body)).toEqual(['dock-org/api']);
    providers.requests.length = 0;
    expect(await search('https://github.com/dock-org/api')).toEqual({ status: 200, body: [] });
    expect(providers.requests).toEqual([]);
  });

  it('GET /installations: GitHub installation ids, Bitbucket workspaces, 400 for GitLab, 422 for bad input', async () => {
    await connect('github', 'gitlab', 'bitbucket');
    expect(await get('/api/user/installations?provider=github')).toEqual({ status: 200, body: ['901'] });
    expect(await get('/api/user/installations?provider=bitbucket')).toEqual({
      status: 200,
      body: ['dock-space', 'team-two'],
    });
    expect(await get('/api/user/installations?provider=gitlab')).toEqual({
      status: 400,
      body: { detail: 'Provider gitlab does not support installations' },
    });
    expect(await get('/api/user/installations')).toEqual({
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['query', 'provider'], msg: 'Field required', input: null }] },
    });
    const expected = "'github', 'gitlab', 'bitbucket' or 'enterprise_sso'";
    expect(await get('/api/user/installations?provider=azure_devops')).toEqual({
      status: 422,
      body: {
        detail: [
          {
            type: 'enum',
            loc: ['query', 'provider'],
            msg: `Input should be ${expected}`,
            input: 'azure_devops',
            ctx: { expected },
          },
        ],
      },
    });
  });

  it('GET /repositories: every provider merged, all pages read, in the Repository shape', async () => {
    await connect('github', 'gitlab', 'bitbucket');
    const response = await get('/api/user/repositories');
    expect(response.status).toBe(200);
    const repositories = response.body as Record<string, unknown>[];
    expect(repositories).toHaveLength(4 + BULK.length + 2 + 3);
    expect(repositories.slice(0, 4).map((r) => r.full_name)).toEqual([
      'octo-dock/web-app',
      'octo-dock/cli',
      'dock-org/api',
      'dock-org/.openhands',
    ]);
    expect(repositories[0]).toEqual({
      id: '1000',
      full_name: 'octo-dock/web-app',
      git_provider: 'github',
      is_public: true,
      stargazers_count: 5,
      link_header: null,
      pushed_at: '2025-03-01T10:00:00.000Z',
      owner_type: 'user',
      main_branch: 'main',
    });
    expect(repositories.find((r) => r.full_name === 'dock-org/api')).toMatchObject({
      is_public: true,
      owner_type: 'organization',
      main_branch: 'trunk',
    });
    expect(repositories.find((r) => r.full_name === 'octo-dock/cli')).toMatchObject({ is_public: false });
    expect(repositories.filter((r) => r.git_provider === 'gitlab')).toEqual([
      {
        id: String(2000 + REPOSITORIES.findIndex((r) => r.fullName === 'dock-group/sub/service')),
        full_name: 'dock-group/sub/service',
        git_provider: 'gitlab',
        is_public: true,
        stargazers_count: 3,
        link_header: null,
        pushed_at: '2025-03-02T08:30:00.123Z',
        owner_type: 'organization',
        main_branch: 'main',
      },
      expect.objectContaining({ full_name: 'dock-lab/notes', is_public: false, owner_type: 'user' }),
    ]);
    expect(repositories.filter((r) => r.git_provider === 'bitbucket')).toEqual([
      {
        id: `{repo-${REPOSITORIES.findIndex((r) => r.fullName === 'dock-space/site')}}`,
        full_name: 'dock-space/site',
        git_provider: 'bitbucket',
        is_public: true,
        stargazers_count: null,
        link_header: null,
        pushed_at: '2025-03-03T00:00:00.000Z',
        owner_type: 'organization',
        main_branch: 'main',
      },
      expect.objectContaining({ full_name: 'dock-space/empty', main_branch: null }),
      expect.objectContaining({ full_name: 'team-two/tool' }),
    ]);
    const githubPages = providers.requests.filter((r) => r.provider === 'github').map((r) => r.query);
    expect(githubPages).toEqual([
      { page: '1', per_page: '100', sort: 'pushed' },
      { page: '2', per_page: '100', sort: 'pushed' },
    ]);
  });

  it('GET /repositories?selected_provider: one page, the next one named by item 0 link_header', async () => {
    await connect('github', 'gitlab', 'bitbucket');
    const pages: string[][] = [];
    let page: string | null = '1';
    while (page) {
      const response = await get(
        `/api/user/repositories?selected_provider=github&sort=full_name&page=${page}&per_page=50`,
      );
      expect(response.status).toBe(200);
      const items = response.body as { full_name: string; link_header: string }[];
      expect(new Set(items.map((r) => r.link_header)).size).toBe(1);
      pages.push(items.map((r) => r.full_name));
      page = nextPage(items[0]?.link_header);
    }
    expect(pages.map((p) => p.length)).toEqual([50, 50, 24]);
    expect(pages.flat()).toEqual(
      [...REPOSITORIES.filter((r) => r.provider === 'github').map((r) => r.fullName)].sort(),
    );

    const gitlab = await get('/api/user/repositories?selected_provider=gitlab&page=1&per_page=1');
    expect(repoNames(gitlab.body)).toEqual(['dock-group/sub/service']);
    expect(nextPage((gitlab.body as { link_header: string }[])[0]?.link_header)).toBe('2');
    expect(providers.requests.at(-1)?.query).toEqual({
      membership: 'true',
      page: '1',
      per_page: '1',
      order_by: 'last_activity_at',
      sort: 'desc',
    });

    const first = await get(
      '/api/user/repositories?selected_provider=bitbucket&installation_id=dock-space&per_page=1',
    );
    expect(repoNames(first.body)).toEqual(['dock-space/site']);
    const link = (first.body as { link_header: string }[])[0]?.link_header;
    expect(link).toMatch(/^<http:\/\/.+\/2\.0\/repositories\/dock-space\?.*>; rel="next"$/);
    const second = await get(
      `/api/user/repositories?selected_provider=bitbucket&installation_id=dock-space&per_page=1&page=${nextPage(link)}`,
    );
    expect(second.body).toEqual([
      expect.objectContaining({ full_name: 'dock-space/empty', link_header: null }),
    ]);

    const installation = await get('/api/user/repositories?selected_provider=github&installation_id=901');
    expect(repoNames(installation.body)).toEqual(['dock-org/api']);
    expect(providers.requests.at(-1)).toMatchObject({
      path: '/user/installations/901/repositories',
      query: { page: '1', per_page: '30' },
    });
  });

  it('GET /repositories: 422 for bad query values', async () => {
    await connect('github');
    const cases: [string, object][] = [
      [
        'selected_provider=github&per_page=0',
        {
          type: 'greater_than_equal',
          loc: ['query', 'per_page'],
          msg: 'Input should be greater than or equal to 1',
          input: '0',
          ctx: { ge: 1 },
        },
      ],
      [
        'page=abc',
        {
          type: 'int_parsing',
          loc: ['query', 'page'],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: 'abc',
        },
      ],
      [
        'sort=stars',
        {
          type: 'enum',
          loc: ['query', 'sort'],
          msg: "Input should be 'pushed', 'updated', 'created' or 'full_name'",
          input: 'stars',
          ctx: { expected: "'pushed', 'updated', 'created' or 'full_name'" },
        },
      ],
      [
        'selected_provider=bitbucket',
        {
          type: 'value_error',
          loc: ['query', 'installation_id'],
          msg: 'Value error, installation_id (the workspace) is required for bitbucket',
          input: null,
        },
      ],
    ];
    for (const [query, error] of cases) {
      expect(await get(`/api/user/repositories?${query}`), query).toEqual({
        status: 422,
        body: { detail: [error] },
      });
    }
    expect(providers.requests).toEqual([]);
  });

  it('GET /search/repositories: by name, owner/name and URL, per provider or merged', async () => {
    await connect('github', 'gitlab', 'bitbucket');
    expect(
      repoNames((await get('/api/user/search/repositories?query=web&selected_provider=github')).body),
    ).toEqual(['octo-dock/web-app']);
    const search = providers.requests.find((r) => r.path === '/search/repositories');
    expect(search?.query).toEqual({
      q: 'web in:name user:octo-dock org:dock-org',
      per_page: '5',
      sort: 'stars',
      order: 'desc',
    });
    expect(
      repoNames((await get('/api/user/search/repositories?query=dock-org/ap&selected_provider=github')).body),
    ).toEqual(['dock-org/api']);
    expect(
      repoNames(
        (
          await get(
            `/api/user/search/repositories?query=${encodeURIComponent('https://github.com/dock-org/api/tree/trunk')}`,
          )
        ).body,
      ),
    ).toEqual(['dock-org/api']);
    expect(
      repoNames(
        (
          await get(
            `/api/user/search/repositories?query=${encodeURIComponent('https://gitlab.com/dock-group/sub/service/-/tree/main')}`,
          )
        ).body,
      ),
    ).toEqual(['dock-group/sub/service']);
    expect(
      repoNames((await get('/api/user/search/repositories?query=service&selected_provider=gitlab')).body),
    ).toEqual(['dock-group/sub/service']);
    expect(
      repoNames((await get('/api/user/search/repositories?query=site&selected_provider=bitbucket')).body),
    ).toEqual(['dock-space/site']);
    expect(repoNames((await get('/api/user/search/repositories?query=team-two/to')).body)).toEqual([
      'team-two/tool',
    ]);
    expect((await get('/api/user/search/repositories')).body).toEqual({
      detail: [{ type: 'missing', loc: ['query', 'query'], msg: 'Field required', input: null }],
    });
    expect((await get('/api/user/search/repositories?query=x&order=up')).status).toBe(422);
  });

  it('GET /search/branches: matching branches of the provider that has the repository', async () => {
    await connect('github', 'gitlab', 'bitbucket');
    expect(await get('/api/user/search/branches?repository=octo-dock/web-app&query=login')).toEqual({
      status: 200,
      body: [
        { name: 'feature/login', commit_sha: 'bbb222', protected: false, last_push_date: null },
        { name: 'fix/Login-button', commit_sha: 'ccc333', protected: false, last_push_date: null },
      ],
    });
    expect(
      (await get('/api/user/search/branches?repository=octo-dock/web-app&query=login&per_page=1')).body,
    ).toHaveLength(1);
    expect(await get('/api/user/search/branches?repository=dock-group/sub/service&query=dev')).toEqual({
      status: 200,
      body: [
        { name: 'dev', commit_sha: 'g2', protected: false, last_push_date: '2025-03-02T08:00:00.000Z' },
        { name: 'dev-2', commit_sha: 'g3', protected: false, last_push_date: '2025-03-02T09:00:00.000Z' },
      ],
    });
    expect(
      await get(
        '/api/user/search/branches?repository=dock-space/site&query=release&selected_provider=bitbucket',
      ),
    ).toEqual({
      status: 200,
      body: [
        {
          name: 'release/1.0',
          commit_sha: 'b2',
          protected: false,
          last_push_date: '2025-02-03T00:00:00.000Z',
        },
      ],
    });
    expect(providers.requests.at(-1)?.query).toMatchObject({ q: 'name ~ "release"' });
    expect(await get('/api/user/search/branches?repository=nobody/nothing&query=x')).toEqual({
      status: 404,
      body: { detail: 'Repository nobody/nothing not found' },
    });
    expect(await get('/api/user/search/branches?repository=solo&query=x')).toEqual({
      status: 422,
      body: {
        detail: [
          {
            type: 'value_error',
            loc: ['query', 'repository'],
            msg: 'Value error, repository must look like owner/repo (GitLab: group/sub/repo)',
            input: 'solo',
          },
        ],
      },
    });
  });

  it('GET /repository/branches: pages with has_next_page and the provider total', async () => {
    await connect('github', 'gitlab', 'bitbucket');
    expect(await get('/api/user/repository/branches?repository=octo-dock/web-app&per_page=2')).toEqual({
      status: 200,
      body: {
        branches: [
          { name: 'main', commit_sha: 'aaa111', protected: true, last_push_date: null },
          { name: 'feature/login', commit_sha: 'bbb222', protected: false, last_push_date: null },
        ],
        has_next_page: true,
        current_page: 1,
        per_page: 2,
        total_count: null,
      },
    });
    expect(
      (await get('/api/user/repository/branches?repository=octo-dock/web-app&per_page=2&page=2')).body,
    ).toMatchObject({ branches: [{ name: 'fix/Login-button' }], has_next_page: false, current_page: 2 });
    expect((await get('/api/user/repository/branches?repository=dock-group/sub/service')).body).toEqual({
      branches: [
        { name: 'main', commit_sha: 'g1', protected: true, last_push_date: '2025-03-01T11:00:00.000Z' },
        { name: 'dev', commit_sha: 'g2', protected: false, last_push_date: '2025-03-02T08:00:00.000Z' },
        { name: 'dev-2', commit_sha: 'g3', protected: false, last_push_date: '2025-03-02T09:00:00.000Z' },
      ],
      has_next_page: false,
      current_page: 1,
      per_page: 30,
      total_count: 3,
    });
    expect(
      (await get('/api/user/repository/branches?repository=dock-space/site&per_page=1')).body,
    ).toMatchObject({ branches: [{ name: 'main', commit_sha: 'b1' }], has_next_page: true, total_count: 2 });
    expect(await get('/api/user/repository/branches?repository=nobody/nothing')).toEqual({
      status: 404,
      body: { detail: 'Repository nobody/nothing not found' },
    });
    expect((await get('/api/user/repository/branches?repository=octo-dock/web-app&page=0')).status).toBe(422);
    expect((await get('/api/user/repository/branches')).status).toBe(422);
  });

  it('GET /suggested-tasks: pull requests that need work and assigned issues, from every provider', async () => {
    await connect('github', 'gitlab', 'bitbucket');
    expect(await get('/api/user/suggested-tasks')).toEqual({
      status: 200,
      body: [
        {
          git_provider: 'github',
          task_type: 'MERGE_CONFLICTS',
          repo: 'octo-dock/web-app',
          issue_number: 11,
          title: 'Conflicting',
        },
        {
          git_provider: 'github',
          task_type: 'FAILING_CHECKS',
          repo: 'octo-dock/web-app',
          issue_number: 12,
          title: 'Red CI',
        },
        {
          git_provider: 'github',
          task_type: 'UNRESOLVED_COMMENTS',
          repo: 'dock-org/api',
          issue_number: 13,
          title: 'Reviewed',
        },
        {
          git_provider: 'github',
          task_type: 'OPEN_ISSUE',
          repo: 'octo-dock/web-app',
          issue_number: 21,
          title: 'Login is slow',
        },
        {
          git_provider: 'gitlab',
          task_type: 'MERGE_CONFLICTS',
          repo: 'dock-group/sub/service',
          issue_number: 3,
          title: 'MR conflict',
        },
        {
          git_provider: 'gitlab',
          task_type: 'FAILING_CHECKS',
          repo: 'dock-group/sub/service',
          issue_number: 4,
          title: 'MR pipeline',
        },
        {
          git_provider: 'gitlab',
          task_type: 'UNRESOLVED_COMMENTS',
          repo: 'dock-group/sub/service',
          issue_number: 5,
          title: 'MR threads',
        },
        {
          git_provider: 'gitlab',
          task_type: 'OPEN_ISSUE',
          repo: 'dock-group/sub/service',
          issue_number: 7,
          title: 'Timeout on deploy',
        },
      ],
    });
    expect(providers.requests.filter((r) => r.path === '/search/issues').map((r) => r.query.q)).toEqual([
      'is:pr is:open archived:false author:octo-dock',
      'is:issue is:open archived:false assignee:octo-dock',
    ]);
    expect(providers.requests.some((r) => r.provider === 'bitbucket')).toBe(false);
  });

  it('GET /repository/{name}/microagents: .cursorrules and the Markdown files below the microagents folder', async () => {
    await connect('github', 'gitlab', 'bitbucket');
    const before = Date.now();
    const response = await get('/api/user/repository/octo-dock/web-app/microagents');
    expect(response.status).toBe(200);
    const listed = response.body as { name: string; path: string; created_at: string }[];
    expect(listed.map(({ name, path }) => ({ name, path }))).toEqual([
      { name: 'cursorrules', path: '.cursorrules' },
      { name: 'review', path: '.openhands/microagents/review.md' },
      { name: 'tools/lint', path: '.openhands/microagents/tools/lint.md' },
    ]);
    for (const { created_at } of listed) {
      expect(created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(Date.parse(created_at)).toBeGreaterThanOrEqual(before - 1000);
    }
    expect(repoNamesOf(await get('/api/user/repository/dock-org/.openhands/microagents'))).toEqual([
      'microagents/org-wide.md',
    ]);
    expect(repoNamesOf(await get('/api/user/repository/dock-group/sub/service/microagents'))).toEqual([
      '.openhands/microagents/deploy.md',
    ]);
    expect(repoNamesOf(await get('/api/user/repository/dock-space/site/microagents'))).toEqual([
      '.cursorrules',
      '.openhands/microagents/a.md',
      '.openhands/microagents/b.md',
      '.openhands/microagents/deep/c.md',
    ]);
    expect(await get('/api/user/repository/dock-space/empty/microagents')).toEqual({ status: 200, body: [] });
    expect(await get('/api/user/repository/octo-dock/cli/microagents')).toEqual({ status: 200, body: [] });
    expect(await get('/api/user/repository/nobody/nothing/microagents')).toEqual({
      status: 404,
      body: { detail: 'Repository nobody/nothing not found' },
    });
    expect((await get('/api/user/repository/solo/microagents')).status).toBe(404);
  });

  it('GET /repository/{name}/microagents/content: content without frontmatter, and triggers', async () => {
    await connect('github', 'gitlab', 'bitbucket');
    const content = (repo: string, file: string) =>
      get(`/api/user/repository/${repo}/microagents/content?file_path=${encodeURIComponent(file)}`);
    expect(await content('octo-dock/web-app', '.openhands/microagents/review.md')).toEqual({
      status: 200,
      body: {
        content: 'Check the diff before answering.',
        path: '.openhands/microagents/review.md',
        triggers: ['review', 'pull request'],
        git_provider: 'github',
      },
    });
    expect(await content('octo-dock/web-app', '.cursorrules')).toEqual({
      status: 200,
      body: {
        content: 'Prefer small functions.',
        path: '.cursorrules',
        triggers: [],
        git_provider: 'github',
      },
    });
    expect(await content('dock-group/sub/service', '.openhands/microagents/deploy.md')).toEqual({
      status: 200,
      body: {
        content: 'Deploy with care.',
        path: '.openhands/microagents/deploy.md',
        triggers: ['deploy'],
        git_provider: 'gitlab',
      },
    });
    expect((await content('dock-space/site', '.openhands/microagents/deep/c.md')).body).toEqual({
      content: 'C',
      path: '.openhands/microagents/deep/c.md',
      triggers: [],
      git_provider: 'bitbucket',
    });
    expect(await content('octo-dock/web-app', '.openhands/microagents/missing.md')).toEqual({
      status: 404,
      body: { detail: 'Microagent file .openhands/microagents/missing.md not found in octo-dock/web-app' },
    });
    expect((await get('/api/user/repository/octo-dock/web-app/microagents/content')).body).toEqual({
      detail: [{ type: 'missing', loc: ['query', 'file_path'], msg: 'Field required', input: null }],
    });
    expect((await content('octo-dock/web-app', '../secrets.md')).status).toBe(422);
  });

  it('answers 502 with the provider status when a provider fails', async () => {
    await connect('github', 'gitlab', 'bitbucket');
    providers.failures.push({ provider: 'github', status: 500 });
    const githubError = { status: 502, body: { detail: 'GitHub API error: 500 Internal Server Error' } };
    for (const route of EVERY_ROUTE) expect(await get(route), route).toEqual(githubError);

    providers.failures.length = 0;
    providers.failures.push({ provider: 'gitlab', path: /repository\/branches/, status: 500 });
    expect(await get('/api/user/repository/branches?repository=dock-group/sub/service')).toEqual({
      status: 502,
      body: { detail: 'GitLab API error: 500 Internal Server Error' },
    });
    providers.failures.push({ provider: 'bitbucket', status: 503 });
    expect(
      await get('/api/user/repositories?selected_provider=bitbucket&installation_id=dock-space'),
    ).toEqual({
      status: 502,
      body: { detail: 'Bitbucket API error: 503 Service Unavailable' },
    });
    providers.failures.push({ provider: 'github', path: /^\/user$/, status: 403 });
    expect(await get('/api/user/info')).toEqual({
      status: 502,
      body: { detail: 'GitHub API error: 403 Forbidden' },
    });
  });

  it('answers 429 with Retry-After when a provider rate-limits, and 401 when it rejects the token', async () => {
    await connect('github', 'gitlab');
    providers.failures.push({
      provider: 'github',
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'retry-after': '30' },
    });
    const limited = await svc.api('GET', '/api/user/repositories?selected_provider=github&page=1&per_page=5');
    expect(outcome(limited)).toEqual({ status: 429, body: { detail: 'GitHub API rate limit exceeded' } });
    expect(limited.headers['retry-after']).toBe('30');

    providers.failures.push({ provider: 'gitlab', status: 429 });
    const gitlab = await svc.api('GET', '/api/user/repositories?selected_provider=gitlab');
    expect(outcome(gitlab)).toEqual({ status: 429, body: { detail: 'GitLab API rate limit exceeded' } });
    expect(gitlab.headers['retry-after']).toBe('60');

    providers.failures.length = 0;
    providers.failures.push({ provider: 'github', status: 401 });
    expect(await get('/api/user/info')).toEqual(TOKEN_REQUIRED);
  });

  it('documents the routes in the OpenAPI document', async () => {
    const document = (await svc.api('GET', '/api/openapi.json', { key: null })).json as {
      paths: Record<string, unknown>;
    };
    const paths = Object.keys(document.paths).filter((path) => path.startsWith('/api/user/'));
    expect(paths).toHaveLength(9);
  });
});

function repoNamesOf(response: { body: unknown }): string[] {
  return (response.body as { path: string }[]).map((entry) => entry.path);
}
