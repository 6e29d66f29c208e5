import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProviderApiBase } from '../../src/service/git/provider-api';

export type VerifiedProvider = 'github' | 'gitlab' | 'bitbucket';

/** The current-user path of each provider's REST API, as the real services lay them out. */
const USER_PATHS: Record<string, VerifiedProvider> = {
  '/user': 'github', // api.github.com
  '/api/v3/user': 'github', // GitHub Enterprise
  '/api/v4/user': 'gitlab',
  '/2.0/user': 'bitbucket',
};

const PUBLIC_HOSTS = ['github.com', 'gitlab.com', 'bitbucket.org'];

/**
 * Provider API bases for fake servers: the public hosts go to the fake at `host`, any other host to itself,
 * over plain HTTP, with each provider's path layout (GitHub Enterprise under /api/v3).
 */
export function loopbackApiBase(host: string): ProviderApiBase {
  return (provider, requestedHost) => {
    const isPublic = PUBLIC_HOSTS.includes(requestedHost);
    const origin = `http://${isPublic ? host : requestedHost}`;
    switch (provider) {
      case 'github':
        return isPublic ? origin : `${origin}/api/v3`;
      case 'gitlab':
        return `${origin}/api/v4`;
      case 'bitbucket':
        return `${origin}/2.0`;
      case 'enterprise_sso':
        return origin;
    }
  };
}

const USERS: Record<VerifiedProvider, object> = {
  github: { id: 4242, login: 'octo-dock' },
  gitlab: { id: 77, username: 'dock-lab' },
  bitbucket: { uuid: '{b1-uuid}', account_id: 'bb-account' },
};

export interface ProviderRequest {
  provider: VerifiedProvider;
  host: string;
  authorization: string | undefined;
}

export interface FakeRepository {
  provider: VerifiedProvider;
  /** `owner/repo` (GitLab: `group/sub/repo`). */
  path: string;
  /** Visible only with the provider's valid token (else 404, or 401 for a wrong token). */
  private?: boolean;
  /** Answered instead of the repository, e.g. 503 for a provider that is failing. */
  status?: number;
}

export interface RepositoryRequest extends ProviderRequest {
  /** The repository path asked for (GitLab's URL-encoded id decoded). */
  path: string;
}

/** The repository routes of each provider's REST API (GitHub's both on api.github.com and Enterprise). */
const REPOSITORY_ROUTES: [RegExp, VerifiedProvider][] = [
  [/^\/repos\/(.+)$/, 'github'],
  [/^\/api\/v3\/repos\/(.+)$/, 'github'],
  [/^\/api\/v4\/projects\/([^/]+)$/, 'gitlab'],
  [/^\/2\.0\/repositories\/(.+)$/, 'bitbucket'],
];

function repositoryRoute(url: string): { provider: VerifiedProvider; path: string } | null {
  for (const [pattern, provider] of REPOSITORY_ROUTES) {
    const match = pattern.exec(url);
    if (match?.[1]) return { provider, path: decodeURIComponent(match[1]) };
  }
  return null;
}

export interface FakeGitProviders {
  /** `127.0.0.1:<port>`: usable as a custom provider host. */
  host: string;
  /** Points the public hosts at this server and any other host at itself, over plain HTTP. */
  apiBase: ProviderApiBase;
  /** Every current-user request received, in order. */
  requests: ProviderRequest[];
  /** Every repository request received, in order. */
  repositoryRequests: RepositoryRequest[];
  close(): Promise<void>;
}

function presentedToken(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined;
  const [scheme, value = ''] = authorization.split(' ');
  if (scheme === 'Bearer') return value;
  if (scheme === 'Basic') return Buffer.from(value, 'base64').toString('utf8');
  return undefined;
}

/**
 * GitHub, GitLab and Bitbucket current-user APIs on one loopback server: 200 with a user for the
 * provider's known token, 401 for anything else. Also their repository APIs for `repositories`.
 */
export async function startFakeGitProviders(
  validTokens: Partial<Record<VerifiedProvider, string>>,
  repositories: FakeRepository[] = [],
  /** The port on 127.0.0.1 (a free one by default). */
  port = 0,
): Promise<FakeGitProviders> {
  const requests: ProviderRequest[] = [];
  const repositoryRequests: RepositoryRequest[] = [];
  const answerRepository = (route: { provider: VerifiedProvider; path: string }, req: IncomingMessage) => {
    repositoryRequests.push({
      ...route,
      host: req.headers.host ?? '',
      authorization: req.headers.authorization,
    });
    const repository = repositories.find((r) => r.provider === route.provider && r.path === route.path);
    const token = presentedToken(req.headers.authorization);
    if (token !== undefined && token !== validTokens[route.provider]) return 401;
    if (!repository || (repository.private && token === undefined)) return 404;
    return repository.status ?? 200;
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const provider = USER_PATHS[req.url ?? ''];
    res.setHeader('Content-Type', 'application/json');
    const route = req.method === 'GET' ? repositoryRoute(req.url ?? '') : null;
    if (route) {
      const status = answerRepository(route, req);
      const body = status === 200 ? { full_name: route.path } : { message: 'Not Found' };
      res.writeHead(status).end(JSON.stringify(body));
      return;
    }
    if (req.method !== 'GET' || !provider) {
      res.writeHead(404).end(JSON.stringify({ message: 'Not Found' }));
      return;
    }
    requests.push({ provider, host: req.headers.host ?? '', authorization: req.headers.authorization });
    const token = presentedToken(req.headers.authorization);
    if (token !== undefined && token === validTokens[provider]) {
      res.writeHead(200).end(JSON.stringify(USERS[provider]));
      return;
    }
    res.writeHead(401).end(JSON.stringify({ message: 'Bad credentials' }));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const apiBase = loopbackApiBase(host);
  return {
    host,
    apiBase,
    requests,
    repositoryRequests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
