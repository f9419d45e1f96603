import type { OutboundMessage } from './protocol';

/**
 * Port: the open ConversationRelay sockets, by connection id. In AWS the
 * API Gateway management API (`@connections`); under `npm start` the local
 * socket server. Sending to a socket that is gone throws
 * ConnectionGoneError, which the caller takes as the end of the call.
 */
export interface RelayConnections {
  send(connectionId: string, message: OutboundMessage): Promise<void>;
  /**
   * Closes the socket. `code` and `reason` reach the other side where the
   * transport can say them (the local socket; API Gateway closes without
   * them, so the reason is also logged).
   */
  close(connectionId: string, code: number, reason: string): Promise<void>;
}

/** The socket is closed already (API Gateway answers 410 Gone). */
export class ConnectionGoneError extends Error {
  constructor(connectionId: string) {
    super(`Socket ${connectionId} is closed`);
    this.name = 'ConnectionGoneError';
  }
}

/** Close codes the relay uses (RFC 6455). */
export const CLOSE_CODES = {
  /** The session is over (after `end`). */
  normal: 1000,
  /** The socket did not prove it belongs to a call of this service: unsigned, unknown command, another call. */
  policyViolation: 1008,
} as const;
