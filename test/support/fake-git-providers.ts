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

export interface FakeGitProviders {
  /** `127.0.0.1:<port>`: usable as a custom provider host. */
  host: string;
  /** Points the public hosts at this server and any other host at itself, over plain HTTP. */
  apiBase: ProviderApiBase;
  /** Every current-user request received, in order. */
  requests: ProviderRequest[];
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
 * provider's known token, 401 for anything else.
 */
export async function startFakeGitProviders(
  validTokens: Partial<Record<VerifiedProvider, string>>,
): Promise<FakeGitProviders> {
  const requests: ProviderRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const provider = USER_PATHS[req.url ?? ''];
    res.setHeader('Content-Type', 'application/json');
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const apiBase: ProviderApiBase = (provider, requestedHost) => {
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
  return {
    host,
    apiBase,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
