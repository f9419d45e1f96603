import { randomBytes } from 'node:crypto';
import { newId } from '../platform/ids';

/** An endpoint id: `we_` and 24 hex characters (random). */
export const ENDPOINT_ID_PATTERN = /^we_[0-9a-f]{24}$/;

/** An event id: `evt_` and 32 hex characters (a UUID v7 without dashes: ids sort by creation time). */
export const EVENT_ID_PATTERN = /^evt_[0-9a-f]{32}$/;

/**
 * A signing secret: `whsec_` and 33 random bytes in base64 (44 characters), which Standard Webhooks decodes to its key. Secrets made
 * before that are 32 bytes in base64url (43 characters); they stay valid.
 */
export const SECRET_PATTERN = /^whsec_(?:[A-Za-z0-9]{44}|[A-Za-z0-9_-]{43})$/;

export function newEndpointId(): string {
  return `we_${randomBytes(12).toString('hex')}`;
}

export function newEventId(): string {
  return `evt_${newId().replace(/-/g, '')}`;
}

/**
 * A new signing secret, shown once to the tenant. Drawn again until its base64 has no `+` or `/` (about four draws; two bits of 264
 * lost): such a secret is the same in base64 and base64url, whole in a URL or a shell, and redacted whole by the log's secret filter.
 */
export function newSigningSecret(): string {
  for (;;) {
    const encoded = randomBytes(33).toString('base64');
    if (/^[A-Za-z0-9]+$/.test(encoded)) return `whsec_${encoded}`;
  }
}
