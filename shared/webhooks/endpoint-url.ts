import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import {
  AddressLookupError,
  AddressRefusedError,
  isPublicAddress,
  resolvePublicAddress,
  type HostLookup,
  type ResolvedAddress,
} from '../platform/http/public-address';
import { EndpointUrlError, LOOKUP_DEADLINE_MS, MAX_URL_LENGTH, type EndpointUrlPolicy } from './endpoint-url-policy';

/** True for an address of the loopback range (127.0.0.0/8, ::1, and IPv4-mapped forms). */
export function isLoopbackAddress(ip: string): boolean {
  const literal = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  return ipaddr.isValid(literal) && ipaddr.process(literal).range() === 'loopback';
}

/**
 * Checks an endpoint URL's form: absolute, `https:` (or `http:` where
 * loopback endpoints are allowed), with a host, without credentials or a
 * fragment, at most {@link MAX_URL_LENGTH} characters. Returns it parsed.
 */
export function parseEndpointUrl(text: string, policy: Pick<EndpointUrlPolicy, 'allowLoopback'>): URL {
  if (text.length > MAX_URL_LENGTH) throw new EndpointUrlError(`The URL is longer than ${MAX_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new EndpointUrlError('The URL is not an absolute URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new EndpointUrlError('The URL must start with https://.');
  if (url.protocol === 'http:' && !policy.allowLoopback) {
    throw new EndpointUrlError('The URL must start with https://; plain http:// is accepted only for a loopback address under npm start.');
  }
  if (!url.hostname) throw new EndpointUrlError('The URL has no host.');
  if (url.username || url.password)
    throw new EndpointUrlError('The URL may not carry a user name or password; authenticate the request with its signature instead.');
  if (url.hash) throw new EndpointUrlError('The URL may not carry a fragment (#…).');
  return url;
}

/** The port a URL connects to: its own, else its scheme's. */
export function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/**
 * Resolves the URL's host and checks EVERY address it has: public
 * addresses for `https:`; loopback ones too where allowed, and for `http:`
 * loopback only; and never a loopback address at a reserved port (the
 * runtime's own services). Returns the address to connect to (connect to
 * it, not to the name again, so a second DNS answer cannot swap it).
 *
 * @throws EndpointUrlError when the host does not resolve or an address is not allowed
 */
export async function resolveEndpointAddress(url: URL, policy: EndpointUrlPolicy): Promise<ResolvedAddress> {
  let loopback = false;
  const loopbackAllowed = (ip: string) => {
    if (!policy.allowLoopback || !isLoopbackAddress(ip)) return false;
    loopback = true;
    return true;
  };
  const allowed = url.protocol === 'http:' ? loopbackAllowed : (ip: string) => isPublicAddress(ip) || loopbackAllowed(ip);
  const lookup = withDeadline(policy.lookup, LOOKUP_DEADLINE_MS);
  try {
    const address = await resolvePublicAddress(url.hostname, lookup, allowed);
    const port = portOf(url);
    if (loopback && policy.reservedPorts?.has(port)) {
      throw new EndpointUrlError(
        `Port ${port} on this machine belongs to Switchboard itself (its API, storage, queues or telephony); point the endpoint at your receiver's port.`,
      );
    }
    return address;
  } catch (error) {
    if (error instanceof AddressRefusedError) {
      throw new EndpointUrlError(
        url.protocol === 'http:'
          ? `${url.hostname} is not a loopback address; plain http:// is accepted only for a loopback address under npm start.`
          : `${url.hostname} is not a public internet address${policy.allowLoopback ? ' or a loopback address' : ''}.`,
      );
    }
    if (error instanceof AddressLookupError) throw new EndpointUrlError(`${url.hostname} could not be resolved.`);
    throw error;
  }
}

/** The lookup (the system's by default), failing as unresolved after `deadlineMs`. */
function withDeadline(lookup: HostLookup | undefined, deadlineMs: number): HostLookup | undefined {
  if (!lookup) return systemLookupWithDeadline(deadlineMs);
  return (hostname) => race(lookup(hostname), deadlineMs, hostname);
}

function systemLookupWithDeadline(deadlineMs: number): HostLookup {
  return (hostname) =>
    race(
      dnsLookup(hostname, { all: true, verbatim: true }).then((answers) =>
        answers.map(({ address, family }) => ({ address, family: family === 6 ? (6 as const) : (4 as const) })),
      ),
      deadlineMs,
      hostname,
    );
}

function race<T>(work: Promise<T>, deadlineMs: number, hostname: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Looking up ${hostname} took longer than ${deadlineMs} ms`)), deadlineMs);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
