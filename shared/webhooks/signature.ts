import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures, Stripe's scheme: every delivery carries
 * `Switchboard-Signature: t=<unix seconds>,v1=<hex>` where the hex is
 * HMAC-SHA256, keyed with the endpoint's signing secret (the whole
 * `whsec_…` string), over `"<t>.<raw body>"`. While a rotated secret is
 * still valid, one `v1` is sent per secret (newest first); a receiver
 * accepts the request when any of them matches one of its secrets.
 */

/** The header's name (HTTP header names are case-insensitive; Node lower-cases them). */
export const SIGNATURE_HEADER = 'Switchboard-Signature';

/** How far a signature's time may be from the receiver's clock, by default: five minutes, as Stripe. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** The hex HMAC-SHA256 of `"<timestamp>.<body>"` with `secret`. */
export function computeSignature(secret: string, timestamp: number, body: string | Uint8Array): string {
  const hmac = createHmac('sha256', secret);
  hmac.update(`${timestamp}.`, 'utf8');
  hmac.update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body);
  return hmac.digest('hex');
}

/** The header value for a body sent at `timestamp` (unix seconds): `t=…` then one `v1=…` per secret, in order. */
export function signatureHeader(secrets: readonly string[], timestamp: number, body: string): string {
  if (secrets.length === 0) throw new Error('A webhook is signed with at least one secret');
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${computeSignature(secret, timestamp, body)}`)].join(',');
}

/** The parts of a signature header: its time and its `v1` signatures (other schemes are ignored). */
export function parseSignatureHeader(header: string): { timestamp?: number; signatures: string[] } {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  return timestamp === undefined ? { signatures } : { timestamp, signatures };
}

/**
 * For receivers: true when `header` (the `Switchboard-Signature` value)
 * signs `rawBody` (the body exactly as received, before any JSON parsing)
 * with `secret` (or one of several, during a rotation), at a time within
 * `toleranceSeconds` of `nowSeconds`. Comparisons run in constant time.
 *
 * @param toleranceSeconds @default 300 (pass Infinity to skip the time check)
 * @param nowSeconds the receiver's clock in unix seconds @default now
 */
export function verifyWebhookSignature(
  secret: string | readonly string[],
  header: string | null | undefined,
  rawBody: string | Uint8Array,
  toleranceSeconds: number = DEFAULT_TOLERANCE_SECONDS,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): boolean {
  if (!header) return false;
  const { timestamp, signatures } = parseSignatureHeader(header);
  if (timestamp === undefined || signatures.length === 0) return false;
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const secrets = typeof secret === 'string' ? [secret] : secret;
  return secrets.some((candidate) => {
    const expected = Buffer.from(computeSignature(candidate, timestamp, rawBody), 'hex');
    return signatures.some((given) => timingSafeEqual(expected, Buffer.from(given, 'hex')));
  });
}
