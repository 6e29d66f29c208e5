import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CREDENTIAL_HELPER_SCRIPT,
  type CredentialTarget,
  credentialSocketPath,
  helperCommand,
  helperConfigKey,
  tokenEnvName,
} from './credential-helper';

const dir = mkdtempSync(path.join(tmpdir(), 'dockhand-helper-'));
const helperPath = path.join(dir, 'git-credential-dockhand');
writeFileSync(helperPath, CREDENTIAL_HELPER_SCRIPT, { mode: 0o700 });
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** Where the helper asks the broker; nothing listens there unless a test starts a server. */
const socketDir = path.join(dir, 'broker');
mkdirSync(socketDir, { mode: 0o700 });
const socketPath = path.join(socketDir, 'socket');

const github: CredentialTarget = { provider: 'github', host: 'github.com', scheme: 'https' };

/** Runs the helper the way git does: its configured command line plus the action, the request on stdin. */
function ask(target: CredentialTarget, action: string, request: string, env: Record<string, string>): string {
  const result = spawnSync('sh', ['-c', `${helperCommand(helperPath, target, socketPath)} ${action}`], {
    input: request,
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
  });
  expect(result.status).toBe(0);
  return result.stdout;
}

describe('git-credential-dockhand', () => {
  it('answers get for its host with the token from the environment', () => {
    const answer = ask(github, 'get', 'protocol=https\nhost=github.com\npath=o/r.git\n\n', {
      GITHUB_TOKEN: 'tok-1',
    });
    expect(answer).toBe('username=x-access-token\npassword=tok-1\n');
  });

  it('uses each provider’s username and token variable', () => {
    const gitlab: CredentialTarget = { provider: 'gitlab', host: 'gitlab.example:8443', scheme: 'https' };
    const request = 'protocol=https\nhost=gitlab.example:8443\n\n';
    expect(ask(gitlab, 'get', request, { GITLAB_TOKEN: 'glpat-x', GITHUB_TOKEN: 'other' })).toBe(
      'username=oauth2\npassword=glpat-x\n',
    );
    const sso: CredentialTarget = { provider: 'enterprise_sso', host: 'ghe.corp', scheme: 'https' };
    expect(ask(sso, 'get', 'protocol=https\nhost=ghe.corp\n\n', { ENTERPRISE_SSO_TOKEN: 'e' })).toBe(
      'username=x-access-token\npassword=e\n',
    );
  });

  it('splits a Bitbucket app password stored as username:password', () => {
    const bitbucket: CredentialTarget = { provider: 'bitbucket', host: 'bitbucket.org', scheme: 'https' };
    const request = 'protocol=https\nhost=bitbucket.org\n\n';
    expect(ask(bitbucket, 'get', request, { BITBUCKET_TOKEN: 'dock:app:pw' })).toBe(
      'username=dock\npassword=app:pw\n',
    );
    expect(ask(bitbucket, 'get', request, { BITBUCKET_TOKEN: 'plain' })).toBe(
      'username=x-token-auth\npassword=plain\n',
    );
  });

  it('answers nothing for another host, another protocol, a missing token or another action', () => {
    const env = { GITHUB_TOKEN: 'tok-1' };
    expect(ask(github, 'get', 'protocol=https\nhost=evil.example\n\n', env)).toBe('');
    expect(ask(github, 'get', 'protocol=http\nhost=github.com\n\n', env)).toBe('');
    expect(ask(github, 'get', 'protocol=https\nhost=github.com\n\n', {})).toBe('');
    expect(ask(github, 'store', 'protocol=https\nhost=github.com\nusername=u\npassword=tok-1\n\n', env)).toBe(
      '',
    );
  });

  it('never answers a token that would inject more credential lines', () => {
    const env = { GITHUB_TOKEN: 'tok\nhost=evil.example' };
    expect(ask(github, 'get', 'protocol=https\nhost=github.com\n\n', env)).toBe('');
  });

  it('allows plain http only for a target that asks for it', () => {
    const local: CredentialTarget = { provider: 'github', host: '127.0.0.1:8080', scheme: 'http' };
    expect(helperConfigKey(local)).toBe('credential.http://127.0.0.1:8080.helper');
    expect(ask(local, 'get', 'protocol=http\nhost=127.0.0.1:8080\n\n', { GITHUB_TOKEN: 't' })).toBe(
      'username=x-access-token\npassword=t\n',
    );
  });
});

/** A broker stand-in on the socket: records each request and answers `answer`. */
async function withBroker<T>(answer: object, run: (requests: unknown[]) => Promise<T>): Promise<T> {
  const requests: unknown[] = [];
  const server = createServer((connection) => {
    connection.once('data', (data) => {
      requests.push(JSON.parse(data.toString()));
      connection.end(`${JSON.stringify(answer)}\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  try {
    return await run(requests);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

/** `ask` without blocking the event loop, so a broker stand-in in this process can answer. */
function askAsync(target: CredentialTarget, request: string): Promise<string> {
  const child = spawn('sh', ['-c', `${helperCommand(helperPath, target, socketPath)} get`], {
    env: { PATH: process.env.PATH },
  });
  child.stdin.end(request);
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve) => child.on('close', () => resolve(out)));
}

describe('git-credential-dockhand without a token in its environment', () => {
  const request = 'protocol=https\nhost=github.com\n\n';

  it('asks the broker for its protocol and host', async () => {
    await withBroker({ token: 'from-service' }, async (requests) => {
      expect(await askAsync(github, request)).toBe('username=x-access-token\npassword=from-service\n');
      expect(requests).toEqual([{ protocol: 'https', host: 'github.com' }]);
    });
  });

  it('answers nothing when the broker has no token, or for another host without asking', async () => {
    await withBroker({}, async (requests) => {
      expect(await askAsync(github, request)).toBe('');
      expect(await askAsync(github, 'protocol=https\nhost=evil.example\n\n')).toBe('');
      expect(requests).toHaveLength(1);
    });
  });

  it('does not ask a socket in a folder others can open', async () => {
    chmodSync(socketDir, 0o755);
    try {
      await withBroker({ token: 'from-elsewhere' }, async (requests) => {
        expect(await askAsync(github, request)).toBe('');
        expect(requests).toEqual([]);
      });
    } finally {
      chmodSync(socketDir, 0o700);
    }
  });
});

describe('helperCommand', () => {
  it('names the helper, host and token variable, escaping what a shell would split', () => {
    expect(helperConfigKey(github)).toBe('credential.https://github.com.helper');
    const socket = credentialSocketPath('sbx-1');
    expect(socket).toBe('/tmp/dockhand-git-sbx-1/socket');
    expect(helperCommand('/opt/dockhand/bin/git-credential-dockhand', github, socket)).toBe(
      '/opt/dockhand/bin/git-credential-dockhand https github.com GITHUB_TOKEN x-access-token /tmp/dockhand-git-sbx-1/socket',
    );
    expect(helperCommand('/Users/a b/helper', github, '/tmp/s')).toBe(
      '/Users/a\\ b/helper https github.com GITHUB_TOKEN x-access-token /tmp/s',
    );
    expect(tokenEnvName('enterprise_sso')).toBe('ENTERPRISE_SSO_TOKEN');
  });
});
