import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { guardedLookup, isPublicAddress } from './image-download';

describe('isPublicAddress', () => {
  it('allows public IPv4 and IPv6 hosts', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect([address, isPublicAddress(address)]).toEqual([address, true]);
    }
  });

  it('refuses loopback, private, link-local and other special addresses, in every IPv6 spelling', () => {
    const refused = [
      '127.0.0.1',
      '127.1.2.3',
      '0.0.0.0',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '0:0:0:0:0:0:0:1',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '0:0:0:0:0:ffff:7f00:0001',
      '::FFFF:10.0.0.1',
      '::ffff:a9fe:a9fe',
      '::127.0.0.1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::1',
      '2001:0:4136:e378::1',
      '2001:db8::1',
      'localhost',
      '',
    ];
    for (const address of refused) expect([address, isPublicAddress(address)]).toEqual([address, false]);
  });
});

/** Resolves names from a fixed table, as the system resolver would. */
function resolverOf(table: Record<string, string[]>) {
  return (
    hostname: string,
    _options: unknown,
    callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
  ) =>
    callback(
      null,
      (table[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
}

function lookUp(hostname: string, all: boolean, table: Record<string, string[]>) {
  const lookup = guardedLookup({ resolve: resolverOf(table) });
  return new Promise<unknown>((resolve, reject) =>
    lookup(hostname, { all }, (error, address) => (error ? reject(error) : resolve(address))),
  );
}

describe('guardedLookup', () => {
  const table = {
    'images.example': ['93.184.216.34', '2606:2800:220:1::1'],
    'rebind.example': ['93.184.216.34', '127.0.0.1'],
    'metadata.example': ['169.254.169.254'],
    'mapped.example': ['::ffff:192.168.0.10'],
  };

  it('gives the resolved addresses of a public name', async () => {
    expect(await lookUp('images.example', true, table)).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
    expect(await lookUp('images.example', false, table)).toBe('93.184.216.34');
  });

  it('refuses a name with any non-public answer, and a name without answers', async () => {
    for (const name of ['rebind.example', 'metadata.example', 'mapped.example', 'unknown.example']) {
      await expect(lookUp(name, true, table)).rejects.toThrow(/not a public internet address/);
    }
  });
});
