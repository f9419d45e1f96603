import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/**
 * Address checks against server-side request forgery, for every outbound
 * request whose target a caller chose (pages read for research, webhook
 * deliveries). Only globally routable unicast addresses count as public;
 * everything else is refused: loopback, private (RFC 1918), link-local
 * (169.254.169.254, the cloud metadata service), unique-local IPv6,
 * unspecified, carrier-grade NAT, reserved and documentation ranges,
 * broadcast, multicast, and IPv6 ranges that embed or translate IPv4
 * (6to4, Teredo, NAT64, IPv4-compatible).
 */

/** One answer of a name lookup, as `dns.lookup(host, {all: true})` gives it. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a hostname to all its addresses (the default is `dns.lookup(host, {all: true})`). */
export type HostLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** Decides whether an address may be connected to. */
export type AddressCheck = (ip: string) => boolean;

/** The host resolved, or is, to an address that may not be reached. The message names the host, never the address ranges or internals. */
export class AddressRefusedError extends Error {
  constructor(readonly host: string) {
    super(`${host} is not a public internet address`);
    this.name = 'AddressRefusedError';
  }
}

/** The host name could not be resolved (no such host, DNS failure). */
export class AddressLookupError extends Error {
  constructor(
    readonly host: string,
    options?: { cause?: unknown },
  ) {
    super(`${host} could not be resolved`, options);
    this.name = 'AddressLookupError';
  }
}

/**
 * True when `ip` is a public unicast address. IPv4-mapped IPv6
 * (`::ffff:127.0.0.1`) is judged as the IPv4 address it carries. Anything
 * that is not an IP address at all is false.
 */
export function isPublicAddress(ip: string): boolean {
  const literal = unbracket(ip);
  if (!ipaddr.isValid(literal)) return false;
  const parsed = ipaddr.process(literal);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  // ::/96 (IPv4-compatible, deprecated) is 'unicast' to ipaddr.js but never a public destination.
  if (v6.parts.slice(0, 6).every((part) => part === 0)) return false;
  return v6.range() === 'unicast';
}

/** The literal without the brackets of a URL's IPv6 host (`[::1]` → `::1`). */
function unbracket(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** True when `host` is an IP literal (bracketed IPv6 included) rather than a name. */
export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(unbracket(host));
}

const systemLookup: HostLookup = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/**
 * Resolves `host` and returns the address to connect to, after checking
 * EVERY address the lookup gave (one bad answer refuses the host, so a
 * name cannot mix a public and a private address). IP literals, `[::1]`
 * included, are checked as they are, without a lookup. Connect to the
 * returned address (not to the name again), so a second DNS answer cannot
 * swap it.
 *
 * @param lookup name resolution; @default dns.lookup(host, {all: true})
 * @param isAllowed the address check; @default isPublicAddress
 * @throws AddressRefusedError when an address is not allowed
 * @throws AddressLookupError when the name does not resolve
 */
export async function resolvePublicAddress(
  host: string,
  lookup: HostLookup = systemLookup,
  isAllowed: AddressCheck = isPublicAddress,
): Promise<ResolvedAddress> {
  const name = host.trim().toLowerCase();
  if (isIpLiteral(name)) {
    const parsed = ipaddr.parse(unbracket(name));
    const address = parsed.toString();
    if (!isAllowed(address)) throw new AddressRefusedError(host);
    return { address, family: parsed.kind() === 'ipv6' ? 6 : 4 };
  }
  let answers: readonly ResolvedAddress[];
  try {
    answers = await lookup(name.endsWith('.') ? name.slice(0, -1) : name);
  } catch (error) {
    throw new AddressLookupError(host, { cause: error });
  }
  const first = answers[0];
  if (first === undefined) throw new AddressLookupError(host);
  if (!answers.every((answer) => isAllowed(answer.address))) throw new AddressRefusedError(host);
  return first;
}
