import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures, two schemes from one secret on every delivery.
 * Stripe's: `Switchboard-Signature: t=<unix seconds>,v1=<hex>` where the
 * hex is HMAC-SHA256, keyed with the endpoint's signing secret (the whole
 * `whsec_…` string), over `"<t>.<raw body>"`. Standard Webhooks' (what the
 * `standardwebhooks` and `svix` libraries verify): `webhook-id`,
 * `webhook-timestamp` and `webhook-signature: v1,<base64>`, the HMAC-SHA256
 * of `"<id>.<timestamp>.<raw body>"` keyed with the bytes the secret's
 * part after `whsec_` decodes to. While a rotated secret is still valid,
 * each scheme carries one signature per secret (newest first); a receiver
 * accepts the request when any of them matches one of its secrets.
 */

/** The header's name (HTTP header names are case-insensitive; Node lower-cases them). */
export const SIGNATURE_HEADER = 'Switchboard-Signature';

/** The Standard Webhooks headers (lower case, as sent). */
export const STANDARD_ID_HEADER = 'webhook-id';
export const STANDARD_TIMESTAMP_HEADER = 'webhook-timestamp';
export const STANDARD_SIGNATURE_HEADER = 'webhook-signature';

const SECRET_PREFIX = 'whsec_';

/**
 * The HMAC key a secret gives Standard Webhooks: its part after `whsec_`,
 * base64-decoded. Secrets made before the scheme was added are base64url
 * (`-` and `_` where base64 has `+` and `/`); Node decodes either alphabet
 * to the same bytes, so their deliveries verify with the same secret
 * written in the standard alphabet (docs/webhooks.md "Verifying signatures").
 */
export function standardWebhookKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new Error('A webhook secret decodes to no key');
  return key;
}

/** The Standard Webhooks signature of a message: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`. */
export function standardWebhookSignature(secret: string, id: string, timestamp: number, body: string): string {
  const hmac = createHmac('sha256', standardWebhookKey(secret));
  hmac.update(`${id}.${timestamp}.`, 'utf8');
  hmac.update(Buffer.from(body, 'utf8'));
  return `v1,${hmac.digest('base64')}`;
}

/**
 * Every signature header of one delivery of `body` (the event `id`) sent at `timestamp` (unix seconds), signed with each of `secrets`
 * (newest first): `switchboard-signature` and the three Standard Webhooks headers.
 */
export function signedHeaders(secrets: readonly string[], id: string, timestamp: number, body: string): Record<string, string> {
  return {
    [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(secrets, timestamp, body),
    [STANDARD_ID_HEADER]: id,
    [STANDARD_TIMESTAMP_HEADER]: String(timestamp),
    [STANDARD_SIGNATURE_HEADER]: secrets.map((secret) => standardWebhookSignature(secret, id, timestamp, body)).join(' '),
  };
}

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
