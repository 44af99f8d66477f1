/**
 * Which addresses a public-URL fetch may connect to. Only globally routable unicast addresses
 * pass; private, loopback, link-local (cloud metadata), unique-local, CGNAT, multicast,
 * unspecified, reserved, and IPv6 forms that embed an IPv4 address (mapped, NAT64, 6to4, Teredo)
 * are refused. The only way around it is an explicit exception for one address and port.
 */
import { lookup } from 'node:dns/promises';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { SkryaError, describeError } from '../../../runtime/errors.ts';

export interface NetworkPolicy {
  /** Exact address+port pairs allowed although not public (a test's local page server). Never a wildcard. */
  allowedPrivateTargets: ReadonlyArray<{ address: string; port: number }>;
}

export const DEFAULT_NETWORK_POLICY: NetworkPolicy = { allowedPrivateTargets: [] };

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** DNS as the guard needs it; injectable so tests can make a name resolve to 10.0.0.1. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
};

export interface VettedTarget {
  url: URL;
  /** The hostname to send as Host and SNI. */
  hostname: string;
  port: number;
  /** The address the connection is pinned to, so a second DNS answer cannot redirect it. */
  address: ResolvedAddress;
}

/** Name of the special range an address falls in ('unicast' = public). IPv4-mapped IPv6 is judged as IPv4. */
export function addressRange(address: string): string {
  const parsed = ipaddr.process(address);
  return parsed.range();
}

export function isAllowedAddress(address: string, port: number, policy: NetworkPolicy): boolean {
  if (policy.allowedPrivateTargets.some((target) => sameAddress(target.address, address) && target.port === port)) return true;
  return addressRange(address) === 'unicast';
}

function sameAddress(a: string, b: string): boolean {
  try {
    return ipaddr.process(a).toNormalizedString() === ipaddr.process(b).toNormalizedString();
  } catch {
    return false;
  }
}

function blocked(url: string, reason: string, details: Record<string, unknown> = {}): SkryaError {
  return new SkryaError('BLOCKED_URL', `refused to fetch ${url}: ${reason}`, { details: { url, reason, ...details } });
}

/**
 * Checks scheme, resolves the name and checks every answer (one private answer refuses the
 * whole name: a split answer is how rebinding attacks start). Returns the pinned address.
 */
export async function vetUrl(rawUrl: string, policy: NetworkPolicy, resolver: Resolver): Promise<VettedTarget> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw blocked(rawUrl, 'not a valid absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw blocked(rawUrl, `scheme ${url.protocol} is not http(s)`);
  if (url.username || url.password) throw blocked(rawUrl, 'URLs with credentials are not fetched');
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  let addresses: ResolvedAddress[];
  if (net.isIP(hostname)) {
    addresses = [{ address: hostname, family: net.isIP(hostname) === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await resolver(hostname);
    } catch (error) {
      throw blocked(rawUrl, `host ${hostname} does not resolve (${describeError(error)})`);
    }
  }
  if (addresses.length === 0) throw blocked(rawUrl, `host ${hostname} has no address`);
  for (const candidate of addresses) {
    if (!isAllowedAddress(candidate.address, port, policy)) {
      throw blocked(rawUrl, `${hostname} resolves to ${candidate.address} (${addressRange(candidate.address)}), which is not a public address`, {
        address: candidate.address,
        range: addressRange(candidate.address),
      });
    }
  }
  const [first] = addresses;
  if (!first) throw blocked(rawUrl, `host ${hostname} has no address`);
  return { url, hostname, port, address: first };
}
