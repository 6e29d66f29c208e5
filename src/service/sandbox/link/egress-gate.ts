import { lookup } from 'node:dns/promises';
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';
import {
  type AddressContext,
  decideAddress,
  decideName,
  type EgressPolicy,
  type EgressTarget,
  type EgressVerdict,
} from './egress-policy';

/** One connection a sandbox asked for, as decided (what the network log and the denial events show). */
export interface EgressDecision extends EgressVerdict {
  host: string;
  port: number;
  /** The address it went to (or would have): null when the name was refused before DNS or did not resolve. */
  address: string | null;
  at: string;
  /** A refusal held open while the user may allow it (confirmation mode). */
  held?: boolean;
}

/** Names to addresses; tests map their own names to loopback servers here (no real DNS). */
export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/** This machine's interface addresses. */
export function localAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => entry.address));
}

export interface EgressGateOptions {
  resolve: Resolver;
  /** The address checks' context, read at each decision (forwarded ports come and go). */
  context(): AddressContext;
}

/**
 * Decides one connection: the name against the policy, then each address it resolves to. The first address
 * that passes is the one to dial (a name that resolves only to refused addresses is refused like them).
 */
export async function decideEgress(
  options: EgressGateOptions,
  policy: EgressPolicy,
  target: EgressTarget,
): Promise<EgressDecision> {
  const at = new Date().toISOString();
  const base = { host: target.host, port: target.port, at };
  const name = decideName(policy, target);
  if (!name.allowed) return { ...base, ...name, address: null };
  const literal = target.host.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = ipaddr.isValid(literal) ? [literal] : await options.resolve(target.host);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) return { ...base, allowed: false, rule: 'unresolvable name', address: null };
  const context = options.context();
  let refused: EgressDecision | null = null;
  for (const address of addresses) {
    const verdict = decideAddress(policy, address, target.port, name.named, context);
    if (verdict.allowed) return { ...base, allowed: true, rule: name.rule, address };
    refused ??= { ...base, ...verdict, address };
  }
  return refused ?? { ...base, allowed: false, rule: 'unresolvable name', address: null };
}
