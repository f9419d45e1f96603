/**
 * One event of an API Gateway WebSocket API, as it invokes the socket
 * function (and as the local socket server builds it): `$connect` with the
 * upgrade's headers and query, `$default` with one message, `$disconnect`.
 * Only the fields the relay reads.
 */
export interface SocketEvent {
  requestContext: {
    routeKey: string;
    eventType: 'CONNECT' | 'MESSAGE' | 'DISCONNECT';
    connectionId: string;
    domainName?: string;
    stage?: string;
    disconnectStatusCode?: number;
    disconnectReason?: string;
  };
  /** The upgrade request's headers (`$connect` only); names in any case. */
  headers?: Record<string, string | undefined>;
  queryStringParameters?: Record<string, string | undefined> | null;
  /** The message (`$default`). */
  body?: string | null;
  isBase64Encoded?: boolean;
}

/** What the socket function answers API Gateway: a `$connect` answered other than 200 refuses the upgrade with that status. */
export interface SocketResult {
  statusCode: number;
  body?: string;
}

/** A header of the event, looked up case-blind (API Gateway keeps the sender's case). */
export function headerOf(event: Pick<SocketEvent, 'headers'>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/** The message body as text (base64 when API Gateway encoded a binary frame). */
export function bodyOf(event: Pick<SocketEvent, 'body' | 'isBase64Encoded'>): string {
  const body = event.body ?? '';
  return event.isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
}
