import { createHmac, timingSafeEqual } from 'node:crypto';

/** How old (or how far ahead) a signed call may be: HubSpot's own bound for signature v3. */
export const MAX_SIGNATURE_AGE_MS = 5 * 60_000;

/** What HubSpot signed, as the request arrived. */
export interface SignedRequest {
  method: string;
  /** The full URL HubSpot called: PUBLIC_BASE_URL, the path and the query string, if any. */
  url: string;
  /** The raw body, exactly as received. */
  body: string;
  /** `X-HubSpot-Request-Timestamp` (epoch ms), as sent. */
  timestamp: string | undefined;
  /** `X-HubSpot-Signature-v3`, as sent. */
  signature: string | undefined;
}

/** HubSpot's signature v3 of a request: base64 HMAC-SHA256, keyed with the app's client secret, of method + URL + body + timestamp. */
export function hubspotSignatureV3(
  clientSecret: string,
  request: Pick<SignedRequest, 'method' | 'url' | 'body'> & { timestamp: string },
): string {
  return createHmac('sha256', clientSecret)
    .update(`${request.method.toUpperCase()}${request.url}${request.body}${request.timestamp}`, 'utf8')
    .digest('base64');
}

/** Why a signed request is refused, or undefined when its timestamp is fresh enough to check its signature. */
export function staleness(request: Pick<SignedRequest, 'timestamp' | 'signature'>, now: number): string | undefined {
  if (!request.signature || !request.timestamp) return 'unsigned';
  const at = Number(request.timestamp);
  if (!/^\d{1,16}$/.test(request.timestamp) || !Number.isSafeInteger(at)) return 'malformed timestamp';
  if (Math.abs(now - at) > MAX_SIGNATURE_AGE_MS) return 'stale';
  return undefined;
}

/**
 * True when `request` carries a fresh v3 signature made with `clientSecret`
 * (compared in constant time); false when it is missing, stale (more than
 * {@link MAX_SIGNATURE_AGE_MS} from `now`) or wrong.
 */
export function isSignedByHubSpot(clientSecret: string, request: SignedRequest, now: number): boolean {
  if (staleness(request, now) !== undefined) return false;
  const expected = Buffer.from(hubspotSignatureV3(clientSecret, { ...request, timestamp: request.timestamp! }), 'utf8');
  const given = Buffer.from(request.signature!, 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}
