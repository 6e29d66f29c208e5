import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProviderApiBase } from '../../src/service/git/provider-api';
import { loopbackApiBase, type VerifiedProvider } from './fake-git-providers';

/**
 * The parts of the GitHub (REST v3), GitLab (v4) and Bitbucket Cloud (2.0) APIs that the /api/user routes
 * use, on one loopback server, answering from a small in-memory world in each provider's own JSON layout
 * and paging style (Link headers; Bitbucket's `next`). Requests need the provider's valid token (else 401).
 */

export interface FakeBranch {
  name: string;
  sha: string;
  protected?: boolean;
  /** Commit date (GitLab and Bitbucket report it). */
  date?: string;
}

export interface FakeProviderRepository {
  provider: VerifiedProvider;
  /** `owner/repo` (GitLab: `group/sub/repo`). */
  fullName: string;
  private?: boolean;
  ownerType?: 'user' | 'organization';
  stars?: number;
  pushedAt?: string;
  /** Default `main`; null for an empty repository. */
  defaultBranch?: string | null;
  branches?: FakeBranch[];
  /** File path -> content, on the default branch. */
  files?: Record<string, string>;
}

export interface FakePullRequest {
  provider: 'github' | 'gitlab';
  repo: string;
  number: number;
  title: string;
  conflicts?: boolean;
  failingChecks?: boolean;
  reviewComments?: boolean;
}

export interface FakeIssue {
  provider: 'github' | 'gitlab';
  repo: string;
  number: number;
  title: string;
}

export interface FakeInstallation {
  id: string;
  repositories: string[];
}

export interface FakeProviderWorld {
  repositories?: FakeProviderRepository[];
  pullRequests?: FakePullRequest[];
  issues?: FakeIssue[];
  /** GitHub app installations. */
  installations?: FakeInstallation[];
}

/** Answered instead of the real response for matching requests (e.g. 500, or 403 with rate-limit headers). */
export interface FakeFailure {
  provider: VerifiedProvider;
  /** Matched against the API path (without `/api/v4` or `/2.0`); every path when absent. */
  path?: RegExp;
  status: number;
  headers?: Record<string, string>;
}

export interface FakeApiRequest {
  provider: VerifiedProvider;
  /** `/api/v3` (GitHub Enterprise), `/api/v4`, `/2.0`, or empty (api.github.com). */
  prefix: string;
  /** The API path, without the provider's prefix. */
  path: string;
  query: Record<string, string>;
  authorization: string | undefined;
}

export interface FakeProviderApis {
  /** `127.0.0.1:<port>`. */
  host: string;
  /** The public hosts and any other host point at this server, over plain HTTP. */
  apiBase: ProviderApiBase;
  world: FakeProviderWorld;
  failures: FakeFailure[];
  requests: FakeApiRequest[];
  close(): Promise<void>;
}

export const FAKE_USERS = {
  github: {
    id: 4242,
    login: 'octo-dock',
    avatar_url: 'https://avatars.example/octo-dock.png',
    company: 'Dock Co',
    name: 'Octo Dock',
    email: 'octo@dock.example',
  },
  gitlab: {
    id: 77,
    username: 'dock-lab',
    avatar_url: 'https://avatars.example/dock-lab.png',
    organization: '',
    name: 'Dock Lab',
    email: 'lab@dock.example',
  },
  bitbucket: {
    uuid: '{b1-uuid}',
    account_id: 'bb-account',
    username: 'dock-bucket',
    display_name: 'Dock Bucket',
    links: { avatar: { href: 'https://avatars.example/dock-bucket.png' } },
  },
};

interface Answer {
  status?: number;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
}

interface RequestContext {
  match: RegExpExecArray;
  query: URLSearchParams;
  accept: string;
  /** `http://127.0.0.1:<port><provider prefix>`. */
  base: string;
  path: string;
}

type Route = [RegExp, (context: RequestContext) => Answer];

function presentedToken(authorization: string | undefined): string | undefined {
  const [scheme, value = ''] = (authorization ?? '').split(' ');
  if (scheme === 'Bearer') return value;
  if (scheme === 'Basic') return Buffer.from(value, 'base64').toString('utf8');
  return undefined;
}

function numberParam(query: URLSearchParams, name: string, fallback: number): number {
  const value = Number(query.get(name));
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

function slice<T>(items: T[], page: number, size: number) {
  const start = (page - 1) * size;
  return {
    items: items.slice(start, start + size),
    hasNext: start + size < items.length,
    last: Math.max(1, Math.ceil(items.length / size)),
  };
}

/** GitHub- and GitLab-style paging: the page, and a Link header naming the neighbouring pages. */
function linkPaged<T>(
  items: T[],
  context: RequestContext,
  extraHeaders: Record<string, string> = {},
): Answer {
  const page = numberParam(context.query, 'page', 1);
  const size = numberParam(context.query, 'per_page', 30);
  const result = slice(items, page, size);
  const url = (target: number) => {
    const params = new URLSearchParams(context.query);
    params.set('page', String(target));
    return `<${context.base}${context.path}?${params}>`;
  };
  const links = [
    ...(result.hasNext ? [`${url(page + 1)}; rel="next"`] : []),
    `${url(result.last)}; rel="last"`,
    `${url(1)}; rel="first"`,
  ];
  return { json: result.items, headers: { Link: links.join(', '), ...extraHeaders } };
}

/** Bitbucket-style paging: `values`, `size` and a `next` URL. */
function bitbucketPaged<T>(items: T[], context: RequestContext): Answer {
  const page = numberParam(context.query, 'page', 1);
  const size = numberParam(context.query, 'pagelen', 10);
  const result = slice(items, page, size);
  const params = new URLSearchParams(context.query);
  params.set('page', String(page + 1));
  const next = result.hasNext ? { next: `${context.base}${context.path}?${params}` } : {};
  return { json: { pagelen: size, page, size: items.length, values: result.items, ...next } };
}

function owner(fullName: string): string {
  return fullName.split('/').slice(0, -1).join('/');
}

function baseName(path: string): string {
  return path.split('/').at(-1) ?? path;
}

/** The files and directories directly below `directory` (all of them, recursively, with `recursive`). */
function entriesBelow(files: Record<string, string>, directory: string, recursive: boolean) {
  const prefix = directory ? `${directory.replace(/\/$/, '')}/` : '';
  const entries = new Map<string, 'file' | 'dir'>();
  for (const path of Object.keys(files)) {
    if (!path.startsWith(prefix)) continue;
    const parts = path.slice(prefix.length).split('/');
    const depth = recursive ? parts.length : 1;
    for (let level = 1; level <= depth; level++) {
      const entryPath = prefix + parts.slice(0, level).join('/');
      entries.set(entryPath, level === parts.length ? 'file' : 'dir');
    }
  }
  return [...entries].sort(([a], [b]) => (a < b ? -1 : 1)).map(([path, type]) => ({ path, type }));
}

function nameFilter(query: string | null): string | null {
  return /name\s*~\s*"((?:[^"\\]|\\.)*)"/.exec(query ?? '')?.[1]?.replace(/\\(.)/g, '$1') ?? null;
}

export async function startFakeProviderApis(
  validTokens: Partial<Record<VerifiedProvider, string>>,
  world: FakeProviderWorld = {},
): Promise<FakeProviderApis> {
  const failures: FakeFailure[] = [];
  const requests: FakeApiRequest[] = [];
  const repositories = (provider: VerifiedProvider) =>
    (world.repositories ?? []).filter((repo) => repo.provider === provider);
  const repository = (provider: VerifiedProvider, fullName: string) =>
    repositories(provider).find((repo) => repo.fullName === fullName);
  const notFound: Answer = { status: 404, json: { message: 'Not Found' } };
  const sorted = (repos: FakeProviderRepository[], sort: string | null) =>
    sort === 'full_name' || sort === 'path' || sort === 'name'
      ? [...repos].sort((a, b) => (a.fullName < b.fullName ? -1 : 1))
      : [...repos].sort((a, b) => (b.pushedAt ?? '').localeCompare(a.pushedAt ?? ''));
  const pullRequest = (provider: 'github' | 'gitlab', repo: string, number: number) =>
    (world.pullRequests ?? []).find((p) => p.provider === provider && p.repo === repo && p.number === number);

  const githubRepository = (repo: FakeProviderRepository) => ({
    id: 1000 + (world.repositories ?? []).indexOf(repo),
    full_name: repo.fullName,
    private: repo.private ?? false,
    stargazers_count: repo.stars ?? 0,
    pushed_at: repo.pushedAt ?? '2025-01-01T00:00:00Z',
    owner: { login: owner(repo.fullName), type: repo.ownerType === 'organization' ? 'Organization' : 'User' },
    default_branch: repo.defaultBranch === undefined ? 'main' : repo.defaultBranch,
  });
  const gitlabProject = (repo: FakeProviderRepository) => ({
    id: 2000 + (world.repositories ?? []).indexOf(repo),
    path_with_namespace: repo.fullName,
    visibility: repo.private ? 'private' : 'public',
    star_count: repo.stars ?? 0,
    last_activity_at: repo.pushedAt ?? '2025-01-01T00:00:00.000Z',
    namespace: { kind: repo.ownerType === 'organization' ? 'group' : 'user' },
    default_branch: repo.defaultBranch === undefined ? 'main' : repo.defaultBranch,
  });
  const bitbucketRepository = (repo: FakeProviderRepository) => {
    const branch = repo.defaultBranch === undefined ? 'main' : repo.defaultBranch;
    return {
      uuid: `{repo-${(world.repositories ?? []).indexOf(repo)}}`,
      full_name: repo.fullName,
      slug: baseName(repo.fullName),
      workspace: { slug: owner(repo.fullName) },
      is_private: repo.private ?? false,
      updated_on: repo.pushedAt ?? '2025-01-01T00:00:00.000000+00:00',
      owner: { type: repo.ownerType === 'user' ? 'user' : 'team' },
      ...(branch ? { mainbranch: { name: branch, type: 'branch' } } : {}),
    };
  };

  const github: Route[] = [
    [/^\/user$/, () => ({ json: FAKE_USERS.github })],
    [
      /^\/user\/repos$/,
      (c) => linkPaged(sorted(repositories('github'), c.query.get('sort')).map(githubRepository), c),
    ],
    [
      /^\/user\/installations$/,
      (c) => {
        const page = linkPaged(
          (world.installations ?? []).map((i) => ({ id: Number(i.id) })),
          c,
        );
        return { ...page, json: { total_count: world.installations?.length ?? 0, installations: page.json } };
      },
    ],
    [
      /^\/user\/installations\/([^/]+)\/repositories$/,
      (c) => {
        const installation = world.installations?.find((i) => i.id === c.match[1]);
        if (!installation) return notFound;
        const repos = repositories('github').filter((r) => installation.repositories.includes(r.fullName));
        const page = linkPaged(repos.map(githubRepository), c);
        return { ...page, json: { total_count: repos.length, repositories: page.json } };
      },
    ],
    [
      /^\/user\/orgs$/,
      () => ({
        json: [
          ...new Set(
            repositories('github')
              .filter((r) => r.ownerType === 'organization')
              .map((r) => owner(r.fullName)),
          ),
        ].map((login) => ({ login })),
      }),
    ],
    [
      /^\/search\/repositories$/,
      (c) => {
        const terms = (c.query.get('q') ?? '').split(/\s+/).filter(Boolean);
        const owners = terms.filter((t) => /^(user|org):/.test(t)).map((t) => t.slice(t.indexOf(':') + 1));
        const words = terms.filter((t) => !t.includes(':'));
        const found = repositories('github').filter(
          (r) =>
            (owners.length === 0 || owners.includes(owner(r.fullName))) &&
            words.every((w) => baseName(r.fullName).includes(w)),
        );
        const items = found.sort((a, b) => (b.stars ?? 0) - (a.stars ?? 0)).map(githubRepository);
        return {
          json: { total_count: items.length, items: items.slice(0, numberParam(c.query, 'per_page', 30)) },
        };
      },
    ],
    [
      /^\/search\/issues$/,
      (c) => {
        const q = c.query.get('q') ?? '';
        const login = /(?:author|assignee):(\S+)/.exec(q)?.[1];
        if (login !== FAKE_USERS.github.login) return { json: { total_count: 0, items: [] } };
        const source = q.includes('is:pr') ? (world.pullRequests ?? []) : (world.issues ?? []);
        const items = source
          .filter((item) => item.provider === 'github')
          .map((item) => ({
            number: item.number,
            title: item.title,
            repository_url: `${c.base}/repos/${item.repo}`,
          }));
        return { json: { total_count: items.length, items } };
      },
    ],
    [
      /^\/repos\/([^/]+\/[^/]+)$/,
      (c) => {
        const repo = repository('github', decodeURIComponent(c.match[1] ?? ''));
        return repo ? { json: githubRepository(repo) } : notFound;
      },
    ],
    [
      /^\/repos\/([^/]+\/[^/]+)\/branches$/,
      (c) => {
        const repo = repository('github', decodeURIComponent(c.match[1] ?? ''));
        if (!repo) return notFound;
        const branches = (repo.branches ?? []).map((b) => ({
          name: b.name,
          commit: { sha: b.sha, url: `${c.base}/repos/${repo.fullName}/commits/${b.sha}` },
          protected: b.protected ?? false,
        }));
        return linkPaged(branches, c);
      },
    ],
    [
      /^\/repos\/([^/]+\/[^/]+)\/contents\/(.+)$/,
      (c) => {
        const repo = repository('github', decodeURIComponent(c.match[1] ?? ''));
        const path = decodeURIComponent(c.match[2] ?? '');
        const files = repo?.files ?? {};
        const content = files[path];
        if (content !== undefined) {
          if (c.accept === 'application/vnd.github.raw+json') return { text: content };
          return { json: { type: 'file', path, content: Buffer.from(content).toString('base64') } };
        }
        const entries = entriesBelow(files, path, false);
        if (entries.length === 0) return notFound;
        return { json: entries.map((e) => ({ type: e.type, name: baseName(e.path), path: e.path })) };
      },
    ],
    [
      /^\/repos\/([^/]+\/[^/]+)\/pulls\/(\d+)$/,
      (c) => {
        const pull = pullRequest('github', decodeURIComponent(c.match[1] ?? ''), Number(c.match[2]));
        if (!pull) return notFound;
        return {
          json: {
            number: pull.number,
            mergeable: !pull.conflicts,
            mergeable_state: pull.conflicts ? 'dirty' : 'clean',
            head: { sha: `head-${pull.number}` },
          },
        };
      },
    ],
    [
      /^\/repos\/([^/]+\/[^/]+)\/pulls\/(\d+)\/reviews$/,
      (c) => {
        const pull = pullRequest('github', decodeURIComponent(c.match[1] ?? ''), Number(c.match[2]));
        if (!pull) return notFound;
        return {
          json: [{ state: 'APPROVED' }, ...(pull.reviewComments ? [{ state: 'CHANGES_REQUESTED' }] : [])],
        };
      },
    ],
    [
      /^\/repos\/([^/]+\/[^/]+)\/commits\/head-(\d+)\/(check-runs|status)$/,
      (c) => {
        const pull = pullRequest('github', decodeURIComponent(c.match[1] ?? ''), Number(c.match[2]));
        if (!pull) return notFound;
        if (c.match[3] === 'status') return { json: { state: 'pending', statuses: [] } };
        const conclusion = pull.failingChecks ? 'failure' : 'success';
        return { json: { total_count: 1, check_runs: [{ name: 'ci', conclusion }] } };
      },
    ],
  ];

  const gitlabProjectOf = (c: RequestContext) => {
    const id = decodeURIComponent(c.match[1] ?? '');
    return repositories('gitlab').find((r) => r.fullName === id || String(gitlabProject(r).id) === id);
  };
  const gitlab: Route[] = [
    [/^\/user$/, () => ({ json: FAKE_USERS.gitlab })],
    [
      /^\/projects$/,
      (c) => {
        const search = c.query.get('search');
        const found = repositories('gitlab').filter((r) => !search || r.fullName.includes(search));
        const items = sorted(found, c.query.get('order_by')).map(gitlabProject);
        return linkPaged(items, c, { 'X-Total': String(items.length) });
      },
    ],
    [
      /^\/projects\/([^/]+)$/,
      (c) => {
        const repo = gitlabProjectOf(c);
        return repo ? { json: gitlabProject(repo) } : notFound;
      },
    ],
    [
      /^\/projects\/([^/]+)\/repository\/branches$/,
      (c) => {
        const repo = gitlabProjectOf(c);
        if (!repo) return notFound;
        const search = c.query.get('search') ?? '';
        const branches = (repo.branches ?? [])
          .filter((b) => b.name.includes(search))
          .map((b) => ({
            name: b.name,
            protected: b.protected ?? false,
            commit: { id: b.sha, committed_date: b.date ?? null },
          }));
        return linkPaged(branches, c, { 'X-Total': String(branches.length) });
      },
    ],
    [
      /^\/projects\/([^/]+)\/repository\/tree$/,
      (c) => {
        const repo = gitlabProjectOf(c);
        const directory = c.query.get('path') ?? '';
        const entries = entriesBelow(repo?.files ?? {}, directory, c.query.get('recursive') === 'true');
        if (!repo || entries.length === 0) return { status: 404, json: { message: '404 Tree Not Found' } };
        const tree = entries.map((e) => ({
          type: e.type === 'file' ? 'blob' : 'tree',
          name: baseName(e.path),
          path: e.path,
        }));
        return linkPaged(tree, c);
      },
    ],
    [
      /^\/projects\/([^/]+)\/repository\/files\/([^/]+)\/raw$/,
      (c) => {
        const content = gitlabProjectOf(c)?.files?.[decodeURIComponent(c.match[2] ?? '')];
        return content === undefined
          ? { status: 404, json: { message: '404 File Not Found' } }
          : { text: content };
      },
    ],
    [
      /^\/merge_requests$/,
      (c) => {
        if (c.query.get('scope') !== 'created_by_me' || c.query.get('state') !== 'opened')
          return { json: [] };
        const requests = (world.pullRequests ?? []).filter((p) => p.provider === 'gitlab');
        return {
          json: requests.map((p) => ({
            iid: p.number,
            project_id: gitlabProject(
              repository('gitlab', p.repo) ?? { provider: 'gitlab', fullName: p.repo },
            ).id,
            title: p.title,
            has_conflicts: p.conflicts ?? false,
            references: { full: `${p.repo}!${p.number}` },
          })),
        };
      },
    ],
    [
      /^\/projects\/([^/]+)\/merge_requests\/(\d+)$/,
      (c) => {
        const repo = gitlabProjectOf(c);
        const request = repo && pullRequest('gitlab', repo.fullName, Number(c.match[2]));
        if (!request) return notFound;
        return {
          json: {
            iid: request.number,
            head_pipeline: { status: request.failingChecks ? 'failed' : 'success' },
            blocking_discussions_resolved: !request.reviewComments,
          },
        };
      },
    ],
    [
      /^\/issues$/,
      (c) => {
        if (c.query.get('scope') !== 'assigned_to_me') return { json: [] };
        const issues = (world.issues ?? []).filter((i) => i.provider === 'gitlab');
        return {
          json: issues.map((i) => ({
            iid: i.number,
            title: i.title,
            references: { full: `${i.repo}#${i.number}` },
          })),
        };
      },
    ],
  ];

  const bitbucketRepositoryOf = (c: RequestContext) =>
    repository(
      'bitbucket',
      `${decodeURIComponent(c.match[1] ?? '')}/${decodeURIComponent(c.match[2] ?? '')}`,
    );
  const bitbucket: Route[] = [
    [/^\/user$/, () => ({ json: FAKE_USERS.bitbucket })],
    [
      /^\/user\/workspaces$/,
      (c) => {
        const slugs = [...new Set(repositories('bitbucket').map((r) => owner(r.fullName)))];
        return bitbucketPaged(
          slugs.map((slug) => ({ type: 'workspace_access', administrator: false, workspace: { slug } })),
          c,
        );
      },
    ],
    [
      /^\/repositories\/([^/]+)$/,
      (c) => {
        const name = nameFilter(c.query.get('q'));
        const found = repositories('bitbucket').filter(
          (r) =>
            owner(r.fullName) === decodeURIComponent(c.match[1] ?? '') &&
            (!name || baseName(r.fullName).includes(name)),
        );
        return bitbucketPaged(sorted(found, c.query.get('sort')).map(bitbucketRepository), c);
      },
    ],
    [
      /^\/repositories\/([^/]+)\/([^/]+)$/,
      (c) => {
        const repo = bitbucketRepositoryOf(c);
        return repo ? { json: bitbucketRepository(repo) } : notFound;
      },
    ],
    [
      /^\/repositories\/([^/]+)\/([^/]+)\/refs\/branches$/,
      (c) => {
        const repo = bitbucketRepositoryOf(c);
        if (!repo) return notFound;
        const name = nameFilter(c.query.get('q')) ?? '';
        const branches = (repo.branches ?? [])
          .filter((b) => b.name.includes(name))
          .map((b) => ({ name: b.name, target: { hash: b.sha, date: b.date ?? null } }));
        return bitbucketPaged(branches, c);
      },
    ],
    [
      /^\/repositories\/([^/]+)\/([^/]+)\/src\/([^/]+)\/(.*)$/,
      (c) => {
        const repo = bitbucketRepositoryOf(c);
        if (!repo || decodeURIComponent(c.match[3] ?? '') !== (repo.defaultBranch ?? 'main')) return notFound;
        const path = decodeURIComponent(c.match[4] ?? '').replace(/\/$/, '');
        const content = repo.files?.[path];
        if (content !== undefined) return { text: content };
        const depth = numberParam(c.query, 'max_depth', 1);
        const entries = entriesBelow(repo.files ?? {}, path, depth > 1);
        if (entries.length === 0) return notFound;
        const values = entries.map((e) => ({
          type: e.type === 'file' ? 'commit_file' : 'commit_directory',
          path: e.path,
        }));
        // Source listings page with an opaque token, and (as Bitbucket may) serve fewer entries than asked.
        const size = Math.min(numberParam(c.query, 'pagelen', 10), 2);
        const start = Number(/^t(\d+)$/.exec(c.query.get('page') ?? '')?.[1] ?? 0);
        const params = new URLSearchParams(c.query);
        params.set('page', `t${start + size}`);
        const next = start + size < values.length ? { next: `${c.base}${c.path}?${params}` } : {};
        return { json: { pagelen: size, values: values.slice(start, start + size), ...next } };
      },
    ],
  ];

  const ROUTES: Record<VerifiedProvider, Route[]> = { github, gitlab, bitbucket };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const [provider, prefix] = url.pathname.startsWith('/api/v4/')
      ? (['gitlab', '/api/v4'] as const)
      : url.pathname.startsWith('/2.0/')
        ? (['bitbucket', '/2.0'] as const)
        : url.pathname.startsWith('/api/v3/')
          ? (['github', '/api/v3'] as const)
          : (['github', ''] as const);
    const path = url.pathname.slice(prefix.length);
    requests.push({
      provider,
      prefix,
      path,
      query: Object.fromEntries(url.searchParams),
      authorization: req.headers.authorization,
    });
    const send = (answer: Answer) => {
      const headers = { ...answer.headers };
      if (answer.text !== undefined) {
        res
          .writeHead(answer.status ?? 200, { 'Content-Type': 'text/plain; charset=utf-8', ...headers })
          .end(answer.text);
      } else {
        res
          .writeHead(answer.status ?? 200, { 'Content-Type': 'application/json', ...headers })
          .end(JSON.stringify(answer.json ?? {}));
      }
    };
    const failure = failures.find((f) => f.provider === provider && (!f.path || f.path.test(path)));
    if (failure) {
      send({
        status: failure.status,
        json: { message: 'Injected failure' },
        ...(failure.headers ? { headers: failure.headers } : {}),
      });
      return;
    }
    if (req.method !== 'GET') {
      send(notFound);
      return;
    }
    const token = presentedToken(req.headers.authorization);
    if (token === undefined || token !== validTokens[provider]) {
      send({ status: 401, json: { message: 'Bad credentials' } });
      return;
    }
    for (const [pattern, handle] of ROUTES[provider]) {
      const match = pattern.exec(path);
      if (match) {
        const base = `http://${req.headers.host}${prefix}`;
        send(handle({ match, query: url.searchParams, accept: req.headers.accept ?? '', base, path }));
        return;
      }
    }
    send(notFound);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const apiBase = loopbackApiBase(host);
  return {
    host,
    apiBase,
    world,
    failures,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
