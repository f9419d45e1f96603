/*
 * What an endpoint URL may be, apart from the checks themselves
 * (endpoint-url.ts): the webhooks API reads these at cold start, and
 * imports the checks (with ipaddr.js) only when a request registers or
 * changes a URL.
 */

import type { HostLookup } from '../platform/http/public-address';

/** Longest endpoint URL accepted. */
export const MAX_URL_LENGTH = 2048;

/** How long a host may take to resolve, at registration and before each delivery. */
export const LOOKUP_DEADLINE_MS = 3_000;

/** Where endpoints may point (WEBHOOK_ALLOW_LOOPBACK, WEBHOOK_RESERVED_PORTS), and how names resolve (tests inject a lookup). */
export interface EndpointUrlPolicy {
  allowLoopback: boolean;
  /**
   * Ports no loopback endpoint may use: under `npm start`, every port the
   * runtime itself listens on (its API and relay socket, the embedded
   * DynamoDB and SQS, the local telephony). @default none
   */
  reservedPorts?: ReadonlySet<number>;
  /** @default dns.lookup(host, {all: true}) */
  lookup?: HostLookup;
}

/** An endpoint URL that may not be used; the message says why, in words a caller can act on (never internals). */
export class EndpointUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EndpointUrlError';
  }
}
