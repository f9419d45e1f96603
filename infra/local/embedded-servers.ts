import type { AddressInfo } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import dynalite from 'dynalite';
import { createSqsServer } from 'local-aws-sqs';
import { addTransactions, recoverTransactions, type DirectDynamo } from './dynalite-transactions';
import { arrivalListeners, watchArrivals, type QueueActivity } from './queue-news';

/**
 * Where the embedded servers listen, whatever `HOST` says: they have no
 * authentication, so they are never reachable from another machine.
 */
export const EMBEDDED_HOST = '127.0.0.1';

/** What an observer gets of a call besides its request. */
export interface ObservedCall {
  /** The answer being made: the service calls its `end` once it has done the call. */
  response: ServerResponse;
  /**
   * Reads an item of the table (wire format) in-process, never queued behind
   * another call, so it answers even while an observer holds a call back.
   */
  readItem(key: Record<string, { S: string }>): Promise<Record<string, unknown> | undefined>;
}

/**
 * Sees a request to an embedded service as it arrives, before the service
 * reads it: `operation` is the action from its X-Amz-Target (`GetItem`,
 * `SendMessage`, ...). To read the body, attach `data` listeners at once,
 * in this call; never consume it any other way.
 */
export type AwsRequestObserver = (service: 'dynamodb' | 'sqs', operation: string, request: IncomingMessage, call: ObservedCall) => void;

/** How to start the servers. Plain data, so it can be handed to a worker thread. */
export interface EmbeddedServersOptions {
  /** Keep DynamoDB data in this folder (LevelDB); in memory when absent. */
  dataDir?: string;
  /** The table, as a DynamoDB CreateTable request (JSON protocol): created unless the data already has it. */
  table: { TableName: string; KeySchema: { AttributeName: string; KeyType: string }[] } & Record<string, unknown>;
}

/** What the servers tell their starter as it happens: functions, so only in the thread they run in. */
export interface EmbeddedServersHooks {
  /** Called with every request to either service (benches count calls with it). */
  onRequest?: AwsRequestObserver;
  /** Called with a queue's name (undefined: any queue) once messages may have become visible on it. */
  onArrival?: (queue: string | undefined) => void;
}

/** The embedded DynamoDB and SQS servers, running in this thread or another. */
export interface EmbeddedServers {
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  /** News that messages may have become visible on a queue (see EmbeddedAws.activity). */
  activity: QueueActivity;
  stop(): Promise<void>;
}

/**
 * Starts the wire-compatible DynamoDB (dynalite, with transactions added)
 * and SQS (local-aws-sqs) servers on {@link EMBEDDED_HOST}, creates the
 * table unless the data has it, and rolls back a transaction a killed
 * process left half applied. Queues are the caller's to create. The
 * endpoints name the address each server is actually bound to.
 */
export async function startEmbeddedServers(options: EmbeddedServersOptions, hooks: EmbeddedServersHooks = {}): Promise<EmbeddedServers> {
  const { onRequest, onArrival } = hooks;
  const dynamo: Server = dynalite({
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
    ...(options.dataDir ? { path: options.dataDir } : {}),
  });
  await new Promise<void>((resolve, reject) => {
    dynamo.once('error', reject);
    dynamo.listen(0, EMBEDDED_HOST, () => resolve());
  });
  const dynamodbEndpoint = endpointOf(dynamo.address() as AddressInfo);
  const keyAttributes = options.table.KeySchema.map((key) => key.AttributeName);
  // A journal only where the data outlives the process (DATA_DIR): an in-memory table dies whole with it.
  const direct = addTransactions(dynamo, keyAttributes, { journal: Boolean(options.dataDir) });
  // Requests being answered: a stop waits for them, since dynalite closes its database when the server closes and a write
  // still under way would then throw outside any request (and end the process).
  let answering = 0;
  dynamo.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
    answering += 1;
    response.once('close', () => (answering -= 1));
  });

  const sqsServer = await createSqsServer({ port: 0, hostname: EMBEDDED_HOST, emulateQueueCreationLifecycle: false });
  const sqsEndpoint = endpointOf(sqsServer.address() as AddressInfo);
  const operationOf = (request: IncomingMessage) => String(request.headers['x-amz-target'] ?? '').replace(/^.*\./, '');
  const listeners = arrivalListeners();
  const observeArrivals = watchArrivals((queue) => {
    listeners.wake(queue);
    onArrival?.(queue);
  });
  sqsServer.prependListener('request', (request: IncomingMessage, response: ServerResponse) =>
    observeArrivals(operationOf(request), request, response),
  );
  if (onRequest) {
    const tableName = options.table.TableName;
    const readItem: ObservedCall['readItem'] = async (key) => {
      const { body } = await direct('GetItem', { TableName: tableName, Key: key, ConsistentRead: true });
      return body.Item as Record<string, unknown> | undefined;
    };
    dynamo.prependListener('request', (request: IncomingMessage, response: ServerResponse) =>
      onRequest('dynamodb', operationOf(request), request, { response, readItem }),
    );
    sqsServer.prependListener('request', (request: IncomingMessage, response: ServerResponse) =>
      onRequest('sqs', operationOf(request), request, { response, readItem }),
    );
  }

  await ensureTable(direct, options.table);
  await recoverTransactions(direct);

  return {
    dynamodbEndpoint,
    sqsEndpoint,
    activity: listeners.activity,
    async stop() {
      await closeServer(sqsServer);
      await closeServer(dynamo, () => answering === 0);
    },
  };
}

/** The URL of a bound server, from the address it is listening on. */
function endpointOf(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

async function ensureTable(direct: DirectDynamo, table: EmbeddedServersOptions['table']): Promise<void> {
  const described = await direct('DescribeTable', { TableName: table.TableName });
  if (described.status === 200) return;
  const created = await direct('CreateTable', table);
  if (created.status !== 200) {
    throw new Error(
      `The embedded DynamoDB could not create table ${table.TableName}: ${String(created.body.message ?? created.body.__type)}`,
    );
  }
}

/** Longest a stop waits for the requests being answered (each is milliseconds of work). */
const STOP_DRAIN_MS = 2_000;

/**
 * Closes a server: no new connection, idle ones closed, and, when `idle` says so, the requests being answered finished
 * (for at most STOP_DRAIN_MS), before every connection left is cut.
 */
async function closeServer(server: Server, idle: () => boolean = () => true): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections?.();
  const deadline = Date.now() + STOP_DRAIN_MS;
  while (!idle() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  server.closeAllConnections?.();
  await closed;
}
