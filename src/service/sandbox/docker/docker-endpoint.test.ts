import { createHash } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type EndpointEnvironment, resolveDockerEndpoint } from './docker-endpoint';

const HOME = '/home/ada';

function machine(options: {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  files?: Record<string, string>;
}): EndpointEnvironment {
  const files = options.files ?? {};
  return {
    env: options.env ?? {},
    platform: options.platform ?? 'linux',
    homedir: HOME,
    exists: (file) => file in files,
    readFile: (file) => {
      const content = files[file];
      if (content === undefined) throw new Error(`ENOENT: ${file}`);
      return content;
    },
  };
}

function contextFiles(name: string, host: string, base = path.join(HOME, '.docker')): Record<string, string> {
  const digest = createHash('sha256').update(name).digest('hex');
  return {
    [path.join(base, 'config.json')]: JSON.stringify({ currentContext: name }),
    [path.join(base, 'contexts', 'meta', digest, 'meta.json')]: JSON.stringify({
      Name: name,
      Endpoints: { docker: { Host: host, SkipTLSVerify: false } },
    }),
  };
}

describe('resolveDockerEndpoint', () => {
  it('uses DOCKER_HOST first, even when a context is set', () => {
    const endpoint = resolveDockerEndpoint(
      machine({
        env: { DOCKER_HOST: 'unix:///run/user/1000/docker.sock' },
        files: contextFiles('colima', 'unix:///colima.sock'),
      }),
    );
    expect(endpoint).toEqual({
      url: 'unix:///run/user/1000/docker.sock',
      source: { kind: 'env' },
      options: { socketPath: '/run/user/1000/docker.sock' },
      problem: null,
    });
  });

  it('reads the current context from config.json and its meta.json by sha256 of the name', () => {
    const endpoint = resolveDockerEndpoint(
      machine({ files: contextFiles('colima', `unix://${HOME}/.colima/default/docker.sock`) }),
    );
    expect(endpoint.source).toEqual({ kind: 'context', name: 'colima' });
    expect(endpoint.options).toEqual({ socketPath: `${HOME}/.colima/default/docker.sock` });
  });

  it('lets DOCKER_CONTEXT pick the context and DOCKER_CONFIG move the config folder', () => {
    const files = contextFiles('remote', 'tcp://build.example:2375', '/etc/docker-cli');
    const endpoint = resolveDockerEndpoint(
      machine({ env: { DOCKER_CONTEXT: 'remote', DOCKER_CONFIG: '/etc/docker-cli' }, files }),
    );
    expect(endpoint.url).toBe('tcp://build.example:2375');
    expect(endpoint.options).toEqual({ host: 'build.example', port: 2375, protocol: 'http' });
  });

  it('names a context without a meta.json as a problem instead of guessing', () => {
    const endpoint = resolveDockerEndpoint(
      machine({ files: { [path.join(HOME, '.docker', 'config.json')]: '{"currentContext":"gone"}' } }),
    );
    expect(endpoint.options).toBeNull();
    expect(endpoint.problem).toMatch(/docker context "gone" has no engine address/);
  });

  it('treats the "default" context as no context', () => {
    const files = {
      [path.join(HOME, '.docker', 'config.json')]: '{"currentContext":"default"}',
      '/var/run/docker.sock': '',
    };
    expect(resolveDockerEndpoint(machine({ files })).source).toEqual({ kind: 'default', found: true });
  });

  it('picks the first platform socket that exists: Docker Desktop before Colima and Podman', () => {
    const files = {
      [path.join(HOME, '.docker', 'run', 'docker.sock')]: '',
      [path.join(HOME, '.colima', 'default', 'docker.sock')]: '',
      '/run/user/1000/podman/podman.sock': '',
    };
    const endpoint = resolveDockerEndpoint(machine({ env: { XDG_RUNTIME_DIR: '/run/user/1000' }, files }));
    expect(endpoint.url).toBe(`unix://${HOME}/.docker/run/docker.sock`);
    expect(endpoint.source).toEqual({ kind: 'default', found: true });
  });

  it('finds Podman through XDG_RUNTIME_DIR', () => {
    const files = { '/run/user/1000/podman/podman.sock': '' };
    const endpoint = resolveDockerEndpoint(machine({ env: { XDG_RUNTIME_DIR: '/run/user/1000' }, files }));
    expect(endpoint.url).toBe('unix:///run/user/1000/podman/podman.sock');
  });

  it('falls back to /var/run/docker.sock, marked as not found, when no socket exists', () => {
    const endpoint = resolveDockerEndpoint(machine({}));
    expect(endpoint.url).toBe('unix:///var/run/docker.sock');
    expect(endpoint.source).toEqual({ kind: 'default', found: false });
  });

  it('uses the named pipe on Windows', () => {
    const endpoint = resolveDockerEndpoint(machine({ platform: 'win32' }));
    expect(endpoint.url).toBe('npipe:////./pipe/docker_engine');
    expect(endpoint.options).toEqual({ socketPath: '//./pipe/docker_engine' });
  });

  it('reads TLS material for tcp with DOCKER_TLS_VERIFY', () => {
    const files = { '/certs/ca.pem': 'CA', '/certs/cert.pem': 'CERT', '/certs/key.pem': 'KEY' };
    const endpoint = resolveDockerEndpoint(
      machine({
        env: { DOCKER_HOST: 'tcp://10.0.0.5:2376', DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: '/certs' },
        files,
      }),
    );
    expect(endpoint.options).toEqual({
      host: '10.0.0.5',
      port: 2376,
      protocol: 'https',
      ca: 'CA',
      cert: 'CERT',
      key: 'KEY',
    });
  });

  it('supports ssh:// engines', () => {
    const endpoint = resolveDockerEndpoint(machine({ env: { DOCKER_HOST: 'ssh://ops@build.example' } }));
    expect(endpoint.options).toMatchObject({
      protocol: 'ssh',
      host: 'build.example',
      port: 22,
      username: 'ops',
    });
  });

  it('reports an unsupported scheme as a problem', () => {
    const endpoint = resolveDockerEndpoint(machine({ env: { DOCKER_HOST: 'ftp://example' } }));
    expect(endpoint.options).toBeNull();
    expect(endpoint.problem).toMatch(/unsupported scheme/);
  });
});
