import { describe, expect, it } from 'vitest';
import {
  type AddressContext,
  decideAddress,
  decideName,
  type EgressPolicy,
  parseEntry,
} from './egress-policy';

function policy(change: Partial<EgressPolicy> = {}): EgressPolicy {
  return {
    preset: 'balanced',
    allow: [],
    deny: [],
    modelHosts: ['api.anthropic.com', 'models.local:11434'],
    serviceHosts: ['github.com', 'git.corp.example'],
    ...change,
  };
}

const context: AddressContext = {
  hostAddresses: ['192.168.1.20', 'fe80::1'],
  protectedPorts: new Set([3000]),
};

describe('parseEntry', () => {
  it('reads names, wildcards, ports, addresses and ranges', () => {
    expect(parseEntry('Example.COM')).toMatchObject({ host: 'example.com', port: null });
    expect(parseEntry('*.example.com:443')).toMatchObject({ host: '*.example.com', port: 443 });
    expect(parseEntry('*')).toMatchObject({ host: '*', port: null });
    expect(parseEntry('10.0.0.0/8')?.range?.[1]).toBe(8);
    expect(parseEntry('[::1]:8080')).toMatchObject({ host: null, port: 8080 });
    expect(parseEntry('192.168.1.5:22')).toMatchObject({ host: null, port: 22 });
  });

  it('refuses what names nothing', () => {
    for (const text of ['', 'a b', 'host:0', 'host:70000', 'http://x', 'a.*.com', '10.0.0.0/99']) {
      expect(parseEntry(text), text).toBeNull();
    }
  });
});

describe('decideName', () => {
  const target = (host: string, port = 443) => ({ host, port });

  it('open allows any name; offline none; model_only only the model hosts', () => {
    expect(decideName(policy({ preset: 'open' }), target('anything.example')).allowed).toBe(true);
    expect(decideName(policy({ preset: 'offline' }), target('registry.npmjs.org'))).toMatchObject({
      allowed: false,
      rule: 'preset offline',
    });
    const modelOnly = policy({ preset: 'model_only' });
    expect(decideName(modelOnly, target('api.anthropic.com')).allowed).toBe(true);
    expect(decideName(modelOnly, target('models.local', 11434)).allowed).toBe(true);
    expect(decideName(modelOnly, target('registry.npmjs.org')).allowed).toBe(false);
  });

  it('balanced allows registries and configured hosts on the web ports only', () => {
    for (const host of [
      'registry.npmjs.org',
      'pypi.org',
      'files.pythonhosted.org',
      'crates.io',
      'proxy.golang.org',
      'rubygems.org',
      'repo1.maven.org',
      'deb.debian.org',
      'dl-cdn.alpinelinux.org',
      'github.com',
      'git.corp.example',
    ]) {
      expect(decideName(policy(), target(host)), host).toMatchObject({
        allowed: true,
        rule: 'preset balanced',
      });
    }
    expect(decideName(policy(), target('registry.npmjs.org', 22)).allowed).toBe(false);
    expect(decideName(policy(), target('pastebin.example')).allowed).toBe(false);
    expect(decideName(policy(), target('models.local', 11434)).allowed).toBe(true);
  });

  it('lets the user allow more, with wildcards and ports, under every preset', () => {
    const allowing = policy({ preset: 'offline', allow: ['*.corp.example:8443', 'exact.example'] });
    expect(decideName(allowing, target('a.b.corp.example', 8443))).toMatchObject({
      allowed: true,
      rule: 'allow *.corp.example:8443',
      named: false,
    });
    expect(decideName(allowing, target('corp.example', 8443)).allowed).toBe(false);
    expect(decideName(allowing, target('a.corp.example', 443)).allowed).toBe(false);
    expect(decideName(allowing, target('exact.example', 80))).toMatchObject({ allowed: true, named: true });
  });

  it('lets deny win over allow entries and presets', () => {
    const denying = policy({ preset: 'open', allow: ['evil.example'], deny: ['*.example'] });
    expect(decideName(denying, target('evil.example'))).toMatchObject({
      allowed: false,
      rule: 'deny *.example',
    });
    expect(decideName(policy({ deny: ['github.com:443'] }), target('github.com')).allowed).toBe(false);
    expect(decideName(policy({ deny: ['github.com:443'] }), target('github.com', 80)).allowed).toBe(true);
  });

  it("treats the user's configured hosts as named (their private addresses may be reached), registries not", () => {
    expect(decideName(policy(), target('git.corp.example'))).toMatchObject({ allowed: true, named: true });
    expect(decideName(policy({ preset: 'model_only' }), target('models.local', 11434)).named).toBe(true);
    expect(decideName(policy(), target('registry.npmjs.org')).named).toBe(false);
    expect(decideName(policy({ preset: 'open' }), target('git.corp.example')).named).toBe(true);
    expect(decideName(policy({ preset: 'offline' }), target('git.corp.example')).allowed).toBe(false);
  });

  it('matches names without regard to case or a final dot', () => {
    expect(decideName(policy(), target('REGISTRY.npmjs.org.')).allowed).toBe(true);
  });
});

describe('decideAddress', () => {
  it('lets public addresses through', () => {
    expect(decideAddress(policy(), '104.16.1.1', 443, false, context)).toMatchObject({ allowed: true });
    expect(decideAddress(policy(), '2606:4700::1', 443, false, context).allowed).toBe(true);
  });

  it('refuses loopback, private, link-local and this machine unless the user named them', () => {
    const cases: [string, string][] = [
      ['127.0.0.1', 'loopback address'],
      ['127.5.5.5', 'loopback address'],
      ['10.1.2.3', 'private address'],
      ['172.17.0.1', 'private address'],
      ['192.168.1.1', 'private address'],
      ['169.254.169.254', 'linkLocal address'],
      ['::1', 'loopback address'],
      ['fd00::1', 'uniqueLocal address'],
      ['::ffff:127.0.0.1', 'loopback address'],
      ['0.0.0.0', 'unspecified address'],
    ];
    for (const [address, rule] of cases) {
      expect(decideAddress(policy(), address, 443, false, context), address).toEqual({
        allowed: false,
        rule,
      });
    }
    expect(decideAddress(policy(), '192.168.1.20', 443, false, context)).toEqual({
      allowed: false,
      rule: 'private address',
    });
    // Named host: its private address is what the user meant.
    expect(decideAddress(policy(), '10.1.2.3', 443, true, context).allowed).toBe(true);
    // An allow range covering the address.
    expect(decideAddress(policy({ allow: ['10.0.0.0/8'] }), '10.1.2.3', 443, false, context)).toEqual({
      allowed: true,
      rule: 'allow 10.0.0.0/8',
    });
  });

  it("never reaches Dockhand's ports on this machine, even named or allowed", () => {
    const allowAll = policy({ allow: ['127.0.0.0/8', '192.168.0.0/16'] });
    expect(decideAddress(allowAll, '127.0.0.1', 3000, true, context)).toEqual({
      allowed: false,
      rule: 'dockhand port',
    });
    expect(decideAddress(allowAll, '192.168.1.20', 3000, true, context).allowed).toBe(false);
    expect(decideAddress(allowAll, '::ffff:127.0.0.1', 3000, true, context).allowed).toBe(false);
    expect(decideAddress(allowAll, '127.0.0.1', 3001, true, context).allowed).toBe(true);
  });

  it('applies deny ranges to resolved addresses', () => {
    expect(
      decideAddress(policy({ preset: 'open', deny: ['104.16.0.0/12'] }), '104.16.1.1', 443, false, context),
    ).toEqual({
      allowed: false,
      rule: 'deny 104.16.0.0/12',
    });
  });
});
