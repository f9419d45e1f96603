import { randomBytes } from 'node:crypto';
import { newId } from '../platform/ids';

/** An endpoint id: `we_` and 24 hex characters (random). */
export const ENDPOINT_ID_PATTERN = /^we_[0-9a-f]{24}$/;

/** An event id: `evt_` and 32 hex characters (a UUID v7 without dashes: ids sort by creation time). */
export const EVENT_ID_PATTERN = /^evt_[0-9a-f]{32}$/;

/** A signing secret: `whsec_` and 32 random bytes in base64url; the whole string is the HMAC key. */
export const SECRET_PATTERN = /^whsec_[A-Za-z0-9_-]{43}$/;

export function newEndpointId(): string {
  return `we_${randomBytes(12).toString('hex')}`;
}

export function newEventId(): string {
  return `evt_${newId().replace(/-/g, '')}`;
}

/** A new signing secret, shown once to the tenant. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}
