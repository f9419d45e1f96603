import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Random bytes in a relay token: 256 bits, far past guessing (at least 128 are needed). */
const TOKEN_BYTES = 32;
/** A token as it travels: base64url of TOKEN_BYTES, 43 characters, safe in a URL query unescaped. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * A call's one-time relay token: the token goes into the call's relay URL
 * (and so into the URL Twilio signs), only its hash is stored with the call.
 */
export interface RelayToken {
  token: string;
  hash: string;
}

/** Mints a token for one call, from the system's cryptographic random source. */
export function newRelayToken(): RelayToken {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  return { token, hash: relayTokenHash(token) };
}

/** True for text shaped like a token this service mints (checked before anything is hashed or stored). */
export function isRelayTokenShaped(text: string | undefined): text is string {
  return text !== undefined && TOKEN_SHAPE.test(text);
}

/** SHA-256 of the token, hex: what the call keeps (a stored hash opens nothing). */
export function relayTokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Compares two token hashes in constant time. */
export function sameRelayTokenHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
