import { createHash } from 'node:crypto';
import type { DeliveryKey } from './delivery-store';

/**
 * The reference an engagement carries at the end of its body: what a rep
 * sees as its origin, and what a retry after an unknown outcome searches
 * for. Derived from the delivery's key only, so every attempt writes the same.
 */
export function markerOf(key: DeliveryKey): string {
  const digest = createHash('sha256')
    .update([key.tenantId, key.siteId, key.leadId, key.source, key.sourceId, key.kind].join('\n'))
    .digest('hex');
  return `sb-${digest.slice(0, 20)}`;
}

/** The body as written: the text, then the line naming its origin and reference. */
export function markedBody(body: string, marker: string): string {
  return `${body}\n\n(Logged by Switchboard, ref ${marker})`;
}
