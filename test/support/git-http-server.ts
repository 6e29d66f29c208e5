import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface GitRepositoryFixture {
  /** `owner/repo` (or `group/sub/repo`). */
  name: string;
  /** Each branch with its files; the first branch is the default one. */
  branches: Record<string, Record<string, string>>;
  /** Served only with HTTP Basic auth whose password is the server's token. */
  private?: boolean;
}

export interface GitHttpServer {
  /** `127.0.0.1:<port>`. */
  host: string;
  /** The username of every request that presented the token, in order. */
  authenticatedUsers: string[];
  close(): Promise<void>;
}

const COMMIT_ENV = {
  GIT_AUTHOR_NAME: 'Fixture',
  GIT_AUTHOR_EMAIL: 'fixture@dockhand.invalid',
  GIT_COMMITTER_NAME: 'Fixture',
  GIT_COMMITTER_EMAIL: 'fixture@dockhand.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

async function git(cwd: string, ...args: string[]): Promise<void> {
  await run('git', args, { cwd, env: { ...process.env, ...COMMIT_ENV } });
}

/** Builds `<root>/<name>.git`, a bare repository with the fixture's branches. */
async function createBareRepository(root: string, fixture: GitRepositoryFixture): Promise<void> {
  const work = await mkdtemp(path.join(tmpdir(), 'dockhand-git-work-'));
  try {
    const [defaultBranch, ...others] = Object.keys(fixture.branches);
    if (!defaultBranch) throw new Error(`${fixture.name} needs at least one branch`);
    await git(work, 'init', '-q', '-b', defaultBranch);
    for (const branch of [defaultBranch, ...others]) {
      if (branch !== defaultBranch) await git(work, 'checkout', '-q', '-b', branch, defaultBranch);
      for (const [file, content] of Object.entries(fixture.branches[branch] ?? {})) {
        await mkdir(path.dirname(path.join(work, file)), { recursive: true });
        await writeFile(path.join(work, file), content);
      }
      await git(work, 'add', '-A');
      await git(work, 'commit', '-q', '--allow-empty', '-m', `${branch} files`);
    }
    await git(work, 'checkout', '-q', defaultBranch);
    const bare = path.join(root, `${fixture.name}.git`);
    await mkdir(path.dirname(bare), { recursive: true });
    await git(root, 'clone', '-q', '--bare', work, bare);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

function basicCredentials(header: string | undefined): { user: string; password: string } | null {
  const [scheme, value = ''] = (header ?? '').split(' ');
  if (scheme !== 'Basic') return null;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** Answers one request with `git http-backend` (CGI): request body in, CGI headers and body out. */
function serveWithHttpBackend(
  root: string,
  req: IncomingMessage,
  res: ServerResponse,
  remoteUser: string | undefined,
): void {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const optional = (name: string, value: string | undefined) => (value ? { [name]: value } : {});
  const backend = spawn('git', ['http-backend'], {
    env: {
      PATH: process.env.PATH,
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      GIT_CONFIG_NOSYSTEM: '1',
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
      ...optional('REMOTE_USER', remoteUser),
      ...optional('CONTENT_TYPE', req.headers['content-type']),
      ...optional('CONTENT_LENGTH', req.headers['content-length']),
      ...optional('HTTP_CONTENT_ENCODING', req.headers['content-encoding']),
      ...optional('GIT_PROTOCOL', req.headers['git-protocol'] as string | undefined),
    },
  });
  req.pipe(backend.stdin);
  let head = Buffer.alloc(0);
  let headersSent = false;
  backend.stdout.on('data', (chunk: Buffer) => {
    if (headersSent) {
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) return;
    let status = 200;
    for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else res.setHeader(name, value);
    }
    res.writeHead(status);
    res.write(head.subarray(end + 4));
    headersSent = true;
  });
  backend.on('close', () => {
    if (!headersSent) res.writeHead(500);
    res.end();
  });
}

/**
 * A git smart-HTTP server on 127.0.0.1 (clone and fetch) serving bare repositories from a temporary folder
 * through `git http-backend`. Private repositories need HTTP Basic auth with `token` as the password.
 */
export async function startGitHttpServer(options: {
  token: string;
  repositories: GitRepositoryFixture[];
}): Promise<GitHttpServer> {
  const root = await mkdtemp(path.join(tmpdir(), 'dockhand-git-server-'));
  for (const fixture of options.repositories) await createBareRepository(root, fixture);
  const authenticatedUsers: string[] = [];
  const server = createServer((req, res) => {
    const requestPath = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    const fixture = options.repositories.find((r) => requestPath.startsWith(`/${r.name}.git/`));
    if (!fixture) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Repository not found\n');
      return;
    }
    const credentials = basicCredentials(req.headers.authorization);
    const authenticated = credentials?.password === options.token;
    if (fixture.private && !authenticated) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"', 'Content-Type': 'text/plain' });
      res.end('Authentication required\n');
      return;
    }
    if (credentials && authenticated) authenticatedUsers.push(credentials.user);
    serveWithHttpBackend(root, req, res, authenticated ? credentials?.user : undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    host: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    authenticatedUsers,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await rm(root, { recursive: true, force: true });
    },
  };
}
