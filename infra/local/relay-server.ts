import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { ConnectionGoneError, type RelayConnections } from '../../shared/voice-assistant/connections';
import type { SocketEvent, SocketResult } from '../../shared/voice-assistant/socket-event';
import { lambdaContext } from './lambda-context';

/** The socket function's `handler`, as API Gateway's WebSocket API invokes it. */
export type SocketHandler = (event: SocketEvent, context: ReturnType<typeof lambdaContext>) => Promise<SocketResult>;

/** The ConversationRelay socket of the local runtime. */
export interface LocalRelay {
  /** The port the socket function answers through (its `@connections` here). */
  readonly connections: RelayConnections;
  /** Sockets open now. */
  open(): number;
  /** Resolves once every event received so far (each socket's `$disconnect` included) has been handled. */
  settled(): Promise<void>;
  /** Closes every socket (1001, going away) and waits, at most `graceMs`, for their `$disconnect` to be handled. */
  close(graceMs: number): Promise<void>;
}

/** Longest message a socket may send: API Gateway's WebSocket frame limit. */
const MAX_FRAME_BYTES = 32 * 1024;

/**
 * What API Gateway's WebSocket API does for the relay, on the local HTTP
 * server: an upgrade on `path` is a `$connect` (answered other than 200, the
 * upgrade is refused with that status), each message a `$default`, the
 * close a `$disconnect`, each handed to the socket function's handler with
 * a connection id. Events of one socket are handled one after another, in
 * order, its `$disconnect` last (or, with `events: 'at-once'`, each as it comes). The handler answers through `connections`.
 * Upgrades on other paths are refused (404).
 */
export function attachRelaySocket(
  server: Server,
  options: {
    /** The path of `relayUrlOf(PUBLIC_BASE_URL)`. */
    path: string;
    handler: SocketHandler;
    functionName: string;
    timeoutSeconds: number;
    onError?: (error: unknown) => void;
    /**
     * How a socket's events are handed over: `in-order`, each after the one
     * before was handled (its `$disconnect` last, when no turn is in flight),
     * or `at-once`, each as it comes, beside those still being handled, as
     * API Gateway invokes a function per event. @default 'in-order'
     */
    events?: 'in-order' | 'at-once';
  },
): LocalRelay {
  const onError =
    options.onError ??
    ((error: unknown) => process.stderr.write(`relay socket: ${error instanceof Error ? error.message : String(error)}\n`));
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  const sockets = new Map<string, WebSocket>();
  const queues = new Map<string, Promise<void>>();
  /** Events handed over as they came (`events: 'at-once'`), until handled. */
  const beside = new Set<Promise<void>>();
  const atOnce = (event: SocketEvent): void => {
    const handled = invoke(event)
      .then(() => undefined, onError)
      .finally(() => beside.delete(handled));
    beside.add(handled);
  };
  const invoke = (event: SocketEvent) => options.handler(event, lambdaContext(options.functionName, options.timeoutSeconds));

  /** Runs one event of a socket after the ones before it. */
  const enqueue = (connectionId: string, event: SocketEvent): Promise<void> => {
    const next = (queues.get(connectionId) ?? Promise.resolve()).then(async () => {
      try {
        await invoke(event);
      } catch (error) {
        onError(error);
      }
    });
    queues.set(connectionId, next);
    return next;
  };

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://local');
      if (url.pathname.replace(/\/+$/, '') !== options.path.replace(/\/+$/, '')) return reject(socket, 404, 'Not Found');
      const connectionId = randomBytes(9).toString('base64');
      const answer = await invoke(connectEvent(req, url, connectionId));
      if (answer.statusCode !== 200) return reject(socket, answer.statusCode, answer.body ?? 'Forbidden');
      wss.handleUpgrade(req, socket, head, (ws) => {
        sockets.set(connectionId, ws);
        ws.on('message', (data, isBinary) => {
          const body = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
          const event = messageEvent(connectionId, isBinary ? body.toString('base64') : body.toString('utf8'), isBinary);
          if (options.events === 'at-once') atOnce(event);
          else void enqueue(connectionId, event);
        });
        ws.on('close', (code, reason) => {
          sockets.delete(connectionId);
          const event = disconnectEvent(connectionId, code, reason.toString('utf8'));
          if (options.events === 'at-once') return atOnce(event);
          void enqueue(connectionId, event).finally(() => queues.delete(connectionId));
        });
        ws.on('error', (error) => onError(error));
      });
    })().catch((error: unknown) => {
      onError(error);
      reject(socket, 500, 'Internal Server Error');
    });
  });

  const connections: RelayConnections = {
    async send(connectionId, message) {
      const ws = sockets.get(connectionId);
      if (!ws || ws.readyState !== ws.OPEN) throw new ConnectionGoneError(connectionId);
      await new Promise<void>((resolve, reject) =>
        ws.send(JSON.stringify(message), (error) => (error ? reject(new ConnectionGoneError(connectionId)) : resolve())),
      );
    },
    async close(connectionId, code, reason) {
      const ws = sockets.get(connectionId);
      if (!ws || ws.readyState !== ws.OPEN) throw new ConnectionGoneError(connectionId);
      // A close reason is at most 123 bytes (RFC 6455).
      ws.close(code, Buffer.from(reason, 'utf8').subarray(0, 123).toString('utf8'));
    },
  };

  /** Resolves once no event is being handled, those that started while it waited included. */
  const settled = async (): Promise<void> => {
    for (;;) {
      const pending = [...queues.values(), ...beside];
      await Promise.all(pending);
      if ([...queues.values(), ...beside].every((promise) => pending.includes(promise))) return;
    }
  };

  return {
    connections,
    open: () => sockets.size,
    settled,
    async close(graceMs) {
      for (const ws of sockets.values()) ws.close(1001, 'the service is stopping');
      // A socket hands its $disconnect over when its close completes: wait for those, and what runs, within the grace.
      const closed = (async () => {
        while (sockets.size > 0) await new Promise((resolve) => setTimeout(resolve, 10));
        await settled();
      })();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([closed, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
      for (const ws of sockets.values()) ws.terminate();
      wss.close();
    },
  };
}

function reject(socket: Duplex, status: number, text: string): void {
  if (!socket.writable) return void socket.destroy();
  socket.end(`HTTP/1.1 ${status} ${text}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
}

function context(connectionId: string, routeKey: string, eventType: SocketEvent['requestContext']['eventType'], host: string) {
  return { routeKey, eventType, connectionId, domainName: host, stage: 'local' };
}

function connectEvent(req: IncomingMessage, url: URL, connectionId: string): SocketEvent {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  const query = Object.fromEntries(url.searchParams);
  return {
    requestContext: context(connectionId, '$connect', 'CONNECT', headers.host ?? 'localhost'),
    headers,
    queryStringParameters: Object.keys(query).length > 0 ? query : null,
  };
}

function messageEvent(connectionId: string, body: string, isBase64Encoded: boolean): SocketEvent {
  return { requestContext: context(connectionId, '$default', 'MESSAGE', 'localhost'), body, isBase64Encoded };
}

function disconnectEvent(connectionId: string, code: number, reason: string): SocketEvent {
  return {
    requestContext: {
      ...context(connectionId, '$disconnect', 'DISCONNECT', 'localhost'),
      disconnectStatusCode: code,
      disconnectReason: reason,
    },
  };
}
