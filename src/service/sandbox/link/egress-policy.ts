import ipaddr from 'ipaddr.js';
import type { EGRESS_PRESETS } from '../../../shared/api/settings';

/**
 * What a gated sandbox may reach through its link: a preset, the user's own allow and deny entries, and the
 * hosts Dockhand's configuration names. Pure: the gate (`egress-gate.ts`) resolves names and asks here.
 */
export type EgressPreset = (typeof EGRESS_PRESETS)[number];

/** Package registries and OS mirrors of the common ecosystems, allowed by `balanced` (HTTP and HTTPS). */
export const REGISTRY_HOSTS = [
  // npm and yarn
  'registry.npmjs.org',
  'registry.yarnpkg.com',
  // PyPI
  'pypi.org',
  'files.pythonhosted.org',
  // crates.io
  'crates.io',
  'index.crates.io',
  'static.crates.io',
  // the Go module proxy and checksum database
  'proxy.golang.org',
  'sum.golang.org',
  // RubyGems
  'rubygems.org',
  'index.rubygems.org',
  // Maven Central
  'repo.maven.apache.org',
  'repo1.maven.org',
  // Debian, Ubuntu and Alpine mirrors
  'deb.debian.org',
  'security.debian.org',
  'archive.ubuntu.com',
  'security.ubuntu.com',
  'ports.ubuntu.com',
  'dl-cdn.alpinelinux.org',
];
const WEB_PORTS = [80, 443];

export interface EgressPolicy {
  preset: EgressPreset;
  /** The user's entries (`host`, `*.host`, `host:port`, an address or a CIDR range, `*`): allowed by any preset. */
  allow: string[];
  /** Refused whatever else allows them. */
  deny: string[];
  /** Hosts of the configured model providers (allowed by `balanced` and `model_only`). */
  modelHosts: string[];
  /** Git hosts of the configured providers and hosts of remote MCP servers (allowed by `balanced`). */
  serviceHosts: string[];
}

export interface EgressTarget {
  host: string;
  port: number;
}

export interface EgressVerdict {
  allowed: boolean;
  /** The rule that decided, e.g. `preset balanced`, `deny *.example.com`, `private address`. */
  rule: string;
}

/** The first step: whether the name (before any DNS) may be reached, and whether the user named it. */
export interface NameVerdict extends EgressVerdict {
  /**
   * An allow entry names this host exactly (no wildcard): then its private addresses may be reached too.
   * Address entries are checked against the resolved address instead.
   */
  named: boolean;
}

interface Entry {
  text: string;
  /** A host name, `*.suffix`, `*`, or null for an address range. */
  host: string | null;
  range: [ipaddr.IPv4 | ipaddr.IPv6, number] | null;
  port: number | null;
}

/** Parses `host[:port]`, `[v6]:port`, `a.b.c.d[/n][:port]`, `v6[/n]`; null for an entry that means nothing. */
export function parseEntry(text: string): Entry | null {
  const trimmed = text.trim().toLowerCase();
  if (!trimmed) return null;
  let hostPart = trimmed;
  let port: number | null = null;
  const bracketed = /^\[([^\]]+)\](?::(\d+|\*))?$/.exec(trimmed);
  if (bracketed) {
    hostPart = bracketed[1] ?? '';
    port = bracketed[2] && bracketed[2] !== '*' ? Number(bracketed[2]) : null;
  } else if (trimmed.split(':').length === 2) {
    const [host = '', portText = ''] = trimmed.split(':');
    hostPart = host;
    port = portText === '*' ? null : Number(portText);
  }
  if (port !== null && !(Number.isInteger(port) && port > 0 && port < 65536)) return null;
  const range = parseRange(hostPart);
  if (range) return { text, host: null, range, port };
  if (!/^(\*|(\*\.)?[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?)$/.test(hostPart)) return null;
  return { text, host: hostPart.replace(/\.$/, ''), range: null, port };
}

function parseRange(text: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | null {
  try {
    if (text.includes('/')) return ipaddr.parseCIDR(text);
    if (ipaddr.isValid(text)) {
      const address = ipaddr.parse(text);
      return [address, address.kind() === 'ipv4' ? 32 : 128];
    }
  } catch {
    return null;
  }
  return null;
}

/** Whether `pattern` (`*`, `*.suffix` or a name) covers `host`. */
function hostMatches(pattern: string, host: string): boolean {
  if (pattern === '*') return true;
  if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1));
  return pattern === host;
}

function normalHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
}

function entryMatchesName(entry: Entry, target: EgressTarget): boolean {
  if (entry.port !== null && entry.port !== target.port) return false;
  const host = normalHost(target.host);
  if (entry.host !== null) return hostMatches(entry.host, host);
  // An address written as the host: compared with the range as well.
  return ipaddr.isValid(host) && inRange(ipaddr.parse(host), entry.range);
}

function inRange(address: ipaddr.IPv4 | ipaddr.IPv6, range: Entry['range']): boolean {
  if (!range) return false;
  const plain = unmapped(address);
  const [base, bits] = range;
  if (plain.kind() !== base.kind()) return false;
  return plain.kind() === 'ipv4'
    ? (plain as ipaddr.IPv4).match(base as ipaddr.IPv4, bits)
    : (plain as ipaddr.IPv6).match(base as ipaddr.IPv6, bits);
}

function unmapped(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;
}

function entries(texts: string[]): Entry[] {
  return texts.flatMap((text) => parseEntry(text) ?? []);
}

/** The configured host entry (model, git, MCP) that covers the target, where the preset lets configured hosts in. */
function configuredHost(policy: EgressPolicy, target: EgressTarget): Entry | null {
  const find = (hosts: string[], anyPort: boolean) =>
    hosts
      .flatMap((text) => parseEntry(text) ?? [])
      .find(
        (entry) =>
          entryMatchesName(entry, target) &&
          (anyPort || entry.port !== null || WEB_PORTS.includes(target.port)),
      ) ?? null;
  if (policy.preset === 'balanced' || policy.preset === 'open') {
    return find(policy.modelHosts, true) ?? find(policy.serviceHosts, false);
  }
  if (policy.preset === 'model_only') return find(policy.modelHosts, true);
  return null;
}

/** Whether the preset lets the target through (besides the user's allow entries). */
function presetAllows(policy: EgressPolicy, target: EgressTarget): boolean {
  if (policy.preset === 'open') return true;
  if (policy.preset === 'balanced' && REGISTRY_HOSTS.includes(normalHost(target.host))) {
    return WEB_PORTS.includes(target.port);
  }
  return false;
}

/** Deny entries first (deny wins), then the user's allow entries, then the preset. */
export function decideName(policy: EgressPolicy, target: EgressTarget): NameVerdict {
  const denied = entries(policy.deny).find((entry) => entryMatchesName(entry, target));
  if (denied) return { allowed: false, rule: `deny ${denied.text}`, named: false };
  const allowed = entries(policy.allow).find((entry) => entryMatchesName(entry, target));
  if (allowed) {
    const named = allowed.host !== null && !allowed.host.includes('*');
    return { allowed: true, rule: `allow ${allowed.text}`, named };
  }
  // A host of the user's own configuration (an enterprise git host, a local model server) is named by them.
  const configured = configuredHost(policy, target);
  if (configured) {
    const named = configured.host !== null && !configured.host.includes('*');
    return { allowed: true, rule: `preset ${policy.preset}`, named };
  }
  if (presetAllows(policy, target)) return { allowed: true, rule: `preset ${policy.preset}`, named: false };
  return { allowed: false, rule: `preset ${policy.preset}`, named: false };
}

/** What the address checks need to know besides the policy. */
export interface AddressContext {
  /** This machine's own addresses (its interfaces). */
  hostAddresses: string[];
  /** Ports on this machine no sandbox may ever reach: Dockhand's own and the links' forwarded ports. */
  protectedPorts: ReadonlySet<number>;
}

/**
 * The second step, for each address the name resolved to: deny ranges, then the ports that are never
 * reachable, then loopback, private, link-local and this machine's own addresses (refused unless an allow
 * entry names the host or covers the address).
 */
export function decideAddress(
  policy: EgressPolicy,
  address: string,
  port: number,
  named: boolean,
  context: AddressContext,
): EgressVerdict {
  if (!ipaddr.isValid(address)) return { allowed: false, rule: 'unresolvable address' };
  const parsed = unmapped(ipaddr.parse(address));
  const matches = (entry: Entry) =>
    entry.range !== null && (entry.port === null || entry.port === port) && inRange(parsed, entry.range);
  const denied = entries(policy.deny).find(matches);
  if (denied) return { allowed: false, rule: `deny ${denied.text}` };
  const local = parsed.range() !== 'unicast';
  const own = context.hostAddresses.some(
    (text) => ipaddr.isValid(text) && sameAddress(ipaddr.parse(text), parsed),
  );
  if ((local || own) && context.protectedPorts.has(port)) return { allowed: false, rule: 'dockhand port' };
  if (!local && !own) return { allowed: true, rule: 'public address' };
  const covered = entries(policy.allow).find(matches);
  if (named || covered) return { allowed: true, rule: covered ? `allow ${covered.text}` : 'named host' };
  return { allowed: false, rule: local ? `${parsed.range()} address` : 'host address' };
}

function sameAddress(a: ipaddr.IPv4 | ipaddr.IPv6, b: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  const left = unmapped(a);
  return left.kind() === b.kind() && left.toNormalizedString() === b.toNormalizedString();
}
