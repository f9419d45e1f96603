import type { IncomingMessage } from 'node:http';

/**
 * Calls `onBody` with a request's body once whoever serves it has read it,
 * without reading it first: a `data` listener of the bench's own would set
 * the stream flowing, and the embedded DynamoDB holds some requests back
 * (while a transaction runs) and reads their bodies only later, by which
 * time the chunks would have gone by.
 */
export function tapBody(request: IncomingMessage, onBody: (body: string) => void): void {
  const chunks: Buffer[] = [];
  const emit = request.emit.bind(request) as (event: string | symbol, ...args: unknown[]) => boolean;
  request.emit = ((event: string | symbol, ...args: unknown[]) => {
    if (event === 'data') chunks.push(Buffer.from(args[0] as Buffer));
    if (event === 'end') onBody(Buffer.concat(chunks).toString('utf8'));
    return emit(event, ...args);
  }) as IncomingMessage['emit'];
}
