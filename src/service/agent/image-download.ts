import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { createDownload } from 'ai';
import { Agent, fetch as undiciFetch } from 'undici';
import { MAX_IMAGE_BYTES } from '../../shared/api/image-limits';

/**
 * Downloads of the image URLs a model cannot fetch itself. The URL comes from whoever sent the message
 * (or from a page the agent read), so the service must not become a way to reach this machine or its
 * networks: every address a name resolves to must be public, checked on the address actually connected
 * to (so a name that changes its answer between a check and the connection gains nothing), on every
 * redirect hop, and the body is capped.
 */

/** IPv4 ranges that are not public internet hosts (IANA special-purpose registry). */
const SPECIAL_IPV4: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

/** Inside the global unicast block, IPv6 ranges that embed IPv4 or are not public hosts. */
const SPECIAL_IPV6: [string, number][] = [
  ['2001::', 32], // Teredo (embeds an IPv4 address)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds an IPv4 address)
];

const blockedV4 = new BlockList();
for (const [network, prefix] of SPECIAL_IPV4) blockedV4.addSubnet(network, prefix, 'ipv4');
const blockedV6 = new BlockList();
for (const [network, prefix] of SPECIAL_IPV6) blockedV6.addSubnet(network, prefix, 'ipv6');
/** IPv6 is public only in the global unicast block; loopback, ULA, link-local, NAT64, mapped... are not. */
const globalV6 = new BlockList();
globalV6.addSubnet('2000::', 3, 'ipv6');

/** The IPv4 address of an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`), else null. */
function mappedIPv4(canonical: string): string | null {
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!hex) return /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(canonical)?.[1] ?? null;
  const [high, low] = [parseInt(hex[1] as string, 16), parseInt(hex[2] as string, 16)];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** Whether an image download may connect to `address` (an IPv4 or IPv6 literal): public addresses only. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blockedV4.check(address, 'ipv4');
  if (family !== 6) return false;
  // The URL parser gives the one canonical (lower-case, compressed) spelling of an IPv6 address.
  const canonical = new URL(`http://[${address}]`).hostname.slice(1, -1);
  const v4 = mappedIPv4(canonical);
  if (v4 !== null) return isPublicAddress(v4);
  return globalV6.check(canonical, 'ipv6') && !blockedV6.check(canonical, 'ipv6');
}

export class ImageAddressRefused extends Error {
  readonly code = 'EADDRNOTPUBLIC';
  constructor(host: string, address: string) {
    super(`Image URL refused: ${host} is ${address}, not a public internet address`);
    this.name = 'ImageAddressRefused';
  }
}

type Resolve = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

export interface ImageGuardOptions {
  /** How names are resolved (the system resolver). */
  resolve?: Resolve;
  /** Which addresses may be connected to (public ones). */
  allow?: (address: string) => boolean;
}

/** A `lookup` for sockets that fails unless every address the name resolves to is allowed. */
export function guardedLookup({ resolve = dnsLookup, allow = isPublicAddress }: ImageGuardOptions = {}) {
  const lookup = (
    hostname: string,
    options: LookupOptions,
    callback: (
      error: NodeJS.ErrnoException | null,
      address: string | LookupAddress[],
      family?: number,
    ) => void,
  ): void => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      // One refused answer refuses the name: the socket could pick any of them.
      const refused = addresses.find((entry) => !allow(entry.address));
      const first = addresses[0];
      if (refused || !first)
        return callback(new ImageAddressRefused(hostname, refused?.address ?? 'unresolved'), []);
      if (options.all) return callback(null, addresses);
      return callback(null, first.address, first.family);
    });
  };
  return lookup as LookupFunction;
}

/**
 * `fetch` for image downloads: an address literal is checked before the request, a name on each connection
 * (see guardedLookup). Redirects are not followed here: the SDK's download re-validates and calls again.
 */
export function createImageFetch(options: ImageGuardOptions = {}): typeof fetch {
  const allow = options.allow ?? isPublicAddress;
  const dispatcher = new Agent({ connect: { lookup: guardedLookup(options) } });
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) && !allow(host)) throw new ImageAddressRefused(host, host);
    return undiciFetch(url, { ...(init as object), dispatcher });
  }) as unknown as typeof fetch;
}

/** The SDK's download (scheme and literal checks, redirects re-checked, https→http refused) over the guarded fetch, capped at MAX_IMAGE_BYTES. */
export function createImageDownload(options: ImageGuardOptions = {}) {
  return createDownload({ maxBytes: MAX_IMAGE_BYTES, fetch: createImageFetch(options) });
}
