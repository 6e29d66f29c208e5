import http from 'node:http';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EgressPolicy } from '../../../src/service/sandbox/link/egress-policy';
import { startGitHttpServer, type GitHttpServer } from '../../support/git-http-server';
import { dockerUnavailableReason } from '../../support/test-sandboxes';
import { until } from '../../support/until';
import { installHostNpm, policyOf, startLinkedContainer, startWebServer } from './link-harness';
import { PACKAGE, startNpmRegistry } from './npm-registry';

const skipReason = await dockerUnavailableReason(new Docker());
if (skipReason) console.warn(`Skipping the sandbox link tests: ${skipReason}`);

/** Fetches a URL in the sandbox with python's urllib, which honours http_proxy and no_proxy. */
const FETCH = [
  'python3',
  '-c',
  'import sys, urllib.request\ntry:\n  print(urllib.request.urlopen(sys.argv[1], timeout=20).read().decode(), end="")\nexcept urllib.error.HTTPError as e:\n  print(e.code, e.read().decode(), end=""); sys.exit(3)',
];

/** A CONNECT tunnel opened by hand through the proxy, then a GET through it. */
const TUNNEL = [
  'python3',
  '-c',
  [
    'import socket, sys',
    's = socket.create_connection(("127.0.0.1", 3128), timeout=20)',
    's.sendall(("CONNECT %s HTTP/1.1\\r\\nHost: %s\\r\\n\\r\\n" % (sys.argv[1], sys.argv[1])).encode())',
    'answer = s.recv(4096).decode()',
    'print(answer.split("\\r\\n")[0])',
    'if " 200 " not in answer: sys.exit(3)',
    's.sendall(b"GET / HTTP/1.0\\r\\nHost: x\\r\\n\\r\\n")',
    'data = b""',
    'while True:',
    '  chunk = s.recv(65536)',
    '  if not chunk: break',
    '  data += chunk',
    'print(data.decode().split("\\r\\n\\r\\n", 1)[1], end="")',
  ].join('\n'),
];

describe.skipIf(skipReason)('the sandbox link (a container with only loopback)', () => {
  let web: Awaited<ReturnType<typeof startWebServer>>;
  let git: GitHttpServer;
  let policy: EgressPolicy = policyOf('balanced');
  let sandbox: Awaited<ReturnType<typeof startLinkedContainer>>;
  let dockhandPort: number;

  beforeAll(async () => {
    web = await startWebServer();
    git = await startGitHttpServer({
      token: 'unused',
      repositories: [{ name: 'acme/widgets', branches: { main: { 'README.md': '# widgets\n' } } }],
    });
    // Stands for Dockhand's own API port.
    const dockhand = await startWebServer('the Dockhand API\n');
    dockhandPort = dockhand.port;
    sandbox = await startLinkedContainer('link-test', {
      policy: () => policy,
      names: {
        'web.test': '127.0.0.1',
        'git.test': '127.0.0.1',
        'registry.test': '127.0.0.1',
        'rebind.test': '127.0.0.1',
      },
      protectedPorts: [dockhandPort],
    });
  });

  afterAll(async () => {
    await sandbox?.close();
    web?.server.close();
    await git?.close();
  });

  it('fetches through the proxy what the policy allows (a name the user allowed, leading to loopback)', async () => {
    policy = policyOf('balanced', ['web.test']);
    const result = await sandbox.run([...FETCH, `http://web.test:${web.port}/`]);
    expect(result.stdout).toBe('hello from the host\n');
    expect(sandbox.decisions.at(-1)).toMatchObject({
      host: 'web.test',
      allowed: true,
      rule: 'allow web.test',
    });
  });

  it('opens a CONNECT tunnel (what HTTPS clients use) to an allowed host', async () => {
    policy = policyOf('balanced', ['web.test']);
    const result = await sandbox.run([...TUNNEL, `web.test:${web.port}`]);
    expect(result.stdout).toBe('HTTP/1.1 200 Connection Established\nhello from the host\n');
  });

  it('clones a repository over smart HTTP through the proxy', async () => {
    const port = git.host.split(':')[1];
    policy = policyOf('balanced', [`git.test:${port}`]);
    const result = await sandbox.run([
      'git',
      'clone',
      '-q',
      `http://git.test:${port}/acme/widgets.git`,
      '/tmp/widgets',
    ]);
    expect(result.stderr).toBe('');
    expect((await sandbox.run(['cat', '/tmp/widgets/README.md'])).stdout).toBe('# widgets\n');
  });

  it('installs an npm package from a loopback registry through the proxy', async () => {
    const registry = await startNpmRegistry('registry.test');
    try {
      policy = policyOf('balanced', [`registry.test:${registry.port}`]);
      const npm = await installHostNpm(sandbox.container);
      const node = await sandbox.workspace.linkNode();
      const result = await sandbox.run(
        [
          'sh',
          '-c',
          `mkdir -p /tmp/app && cd /tmp/app && ${node} ${npm} install --no-audit --no-fund --registry http://registry.test:${registry.port}/ ${PACKAGE.name} && ${node} -p "require('${PACKAGE.name}')"`,
        ],
        { npm_config_cache: '/tmp/npm-cache', npm_config_update_notifier: 'false' },
      );
      expect(result.stdout).toContain('installed through the link');
      expect(registry.served).toContain(`/${PACKAGE.name}/-/${PACKAGE.name}-${PACKAGE.version}.tgz`);
    } finally {
      await registry.close();
    }
  });

  it('refuses under model_only, with the rule in the answer and the decision', async () => {
    policy = policyOf('model_only');
    const result = await sandbox.run([...FETCH, `http://web.test:${web.port}/`]);
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toContain('403 Dockhand refused the connection to web.test');
    expect(sandbox.decisions.at(-1)).toMatchObject({
      host: 'web.test',
      allowed: false,
      rule: 'preset model_only',
    });
    const tunnel = await sandbox.run([...TUNNEL, `web.test:${web.port}`]);
    expect(tunnel.stdout).toBe('HTTP/1.1 403 Forbidden\n');
  });

  it('refuses a name that resolves to loopback unless the user named it', async () => {
    policy = policyOf('open');
    const result = await sandbox.run([...FETCH, `http://rebind.test:${web.port}/`]);
    expect(result.exitCode).toBe(3);
    expect(sandbox.decisions.at(-1)).toMatchObject({
      host: 'rebind.test',
      allowed: false,
      rule: 'loopback address',
      address: '127.0.0.1',
    });
  });

  it("never reaches Dockhand's own port, even named", async () => {
    policy = policyOf('open', ['web.test', '127.0.0.1']);
    const result = await sandbox.run([...FETCH, `http://web.test:${dockhandPort}/`]);
    expect(result.exitCode).toBe(3);
    expect(sandbox.decisions.at(-1)).toMatchObject({ allowed: false, rule: 'dockhand port' });
  });

  it('gives a tool that ignores the proxy no route out', async () => {
    policy = policyOf('open', ['*']);
    const direct = await sandbox.run([
      'python3',
      '-c',
      'import socket, sys\ntry:\n  socket.create_connection((sys.argv[1], 80), timeout=5)\nexcept OSError as e:\n  print(e.errno); sys.exit(4)',
      '1.1.1.1',
    ]);
    expect(direct.exitCode).toBe(4);
    // ENETUNREACH: the container has no interface but loopback.
    expect(direct.stdout.trim()).toBe('101');
  });

  it('forwards every listening port out to this machine, any bind address, and drops a closed one', async () => {
    const server = sandbox.workspace.exec(
      ['sh', '-c', 'cd /tmp && exec timeout 60 python3 -m http.server 18765 >/dev/null 2>&1'],
      {},
    );
    const local = sandbox.workspace.exec(
      [
        'sh',
        '-c',
        'cd /etc && exec timeout 60 python3 -m http.server --bind 127.0.0.1 18766 >/dev/null 2>&1',
      ],
      {},
    );
    const previews = await until(
      async () => sandbox.link.previewUrls(),
      (urls) => [18765, 18766].every((port) => urls.some((url) => url.sandbox_port === port)),
      'both ports to be forwarded',
    );
    for (const [port, file] of [
      [18765, '/'],
      [18766, '/hostname'],
    ] as const) {
      const preview = previews.find((url) => url.sandbox_port === port);
      const answer = await get(`${preview?.url}${file}`);
      expect(answer.status).toBe(200);
    }
    await sandbox.workspace.exec(['pkill', '-f', 'http.server 18765']);
    await until(
      async () => sandbox.link.previewUrls(),
      (urls) => !urls.some((url) => url.sandbox_port === 18765),
      'the closed port to be dropped',
    );
    await sandbox.workspace.exec(['pkill', '-f', 'http.server']);
    await Promise.all([server, local]);
    expect(sandbox.previewChanges()).toBeGreaterThanOrEqual(2);
  });

  it("never runs the forwarder (as root) on a node the sandbox's user could replace", async () => {
    await sandbox.workspace.exec([
      'sh',
      '-c',
      'cp /usr/bin/node /usr/local/bin/node && chown 1000 /usr/local/bin/node',
    ]);
    try {
      expect(await sandbox.workspace.linkNode()).toBe('/usr/bin/node');
    } finally {
      await sandbox.workspace.exec(['rm', '-f', '/usr/local/bin/node']);
    }
  });

  it('forwards a port inside the sandbox to a callback on the service side', async () => {
    await sandbox.link.forwardIn(19123, (socket) => socket.end('from the service\n'));
    const result = await sandbox.workspace.exec([
      'python3',
      '-c',
      'import socket\ns = socket.create_connection(("127.0.0.1", 19123), timeout=10)\nprint(s.recv(100).decode(), end="")',
    ]);
    expect(result.stdout).toBe('from the service\n');
  });
});

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}
