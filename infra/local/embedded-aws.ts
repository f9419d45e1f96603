import type { AddressInfo } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import dynalite from 'dynalite';
import { createSqsServer } from 'local-aws-sqs';
import { QUEUES, visibilityTimeoutSeconds, type JobQueueId } from '../../shared/catalogue/job-types';
import { projectedAttributes, TABLE } from '../../shared/catalogue/table';
import { addTransactions, recoverTransactions } from './dynalite-transactions';
import { queueNews, type QueueActivity } from './queue-news';

/** The table's name on the embedded DynamoDB. */
export const LOCAL_TABLE_NAME = 'switchboard';
const LOCAL_REGION = 'us-east-1';
/**
 * Where the embedded servers listen, whatever `HOST` says: they have no
 * authentication, so they are never reachable from another machine.
 */
export const EMBEDDED_HOST = '127.0.0.1';

/** One work queue of the embedded SQS and its dead-letter queue. */
export interface LocalQueue {
  url: string;
  dlqUrl: string;
  visibilityTimeoutSeconds: number;
}

/** The running embedded services, their endpoints and what was created in them. */
export interface EmbeddedAws {
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  region: string;
  tableName: string;
  queues: Record<JobQueueId, LocalQueue>;
  sqs: SQSClient;
  /**
   * News that messages may have become visible on a queue: every
   * SendMessage(Batch) and ChangeMessageVisibility(Batch) naming it, and
   * every message move task, the embedded SQS has answered, from any client.
   * Pollers idle on it instead of polling every queue many times a second.
   */
  activity: QueueActivity;
  stop(): Promise<void>;
}

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
 * reads it. `operation` is the action named in `X-Amz-Target` (`PutItem`,
 * `SendMessage`, ...). To read the body, attach `data` listeners at once,
 * in this call; never consume it any other way.
 */
export type AwsRequestObserver = (service: 'dynamodb' | 'sqs', operation: string, request: IncomingMessage, call: ObservedCall) => void;

/** How to start the embedded services. */
export interface EmbeddedAwsOptions {
  /** Keep DynamoDB data in this folder (LevelDB); in memory when absent. */
  dataDir?: string;
  /** Visibility timeout of every work queue; by default the one AWS gets (6× the worker's timeout). */
  visibilityTimeoutSeconds?: number;
  /** Called with every request to either service (benches count calls with it). */
  onRequest?: AwsRequestObserver;
}

/**
 * Starts the embedded, wire-compatible DynamoDB (dynalite) and SQS
 * (local-aws-sqs) servers on {@link EMBEDDED_HOST} and creates the table and
 * the queues of the service catalogue, with dead-letter queues and redrive.
 * The endpoints name the address each server is actually bound to.
 */
export async function startEmbeddedAws(options: EmbeddedAwsOptions = {}): Promise<EmbeddedAws> {
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
  // A journal only where the data outlives the process (DATA_DIR): an in-memory table dies whole with it.
  const direct = addTransactions(dynamo, [TABLE.partitionKey, TABLE.sortKey], { journal: Boolean(options.dataDir) });
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
  const news = queueNews();
  sqsServer.prependListener('request', (request: IncomingMessage, response: ServerResponse) =>
    news.observe(operationOf(request), request, response),
  );
  const activity: QueueActivity = news.activity;
  if (options.onRequest) {
    const observe = options.onRequest;
    const readItem: ObservedCall['readItem'] = async (key) => {
      const { body } = await direct('GetItem', { TableName: LOCAL_TABLE_NAME, Key: key, ConsistentRead: true });
      return body.Item as Record<string, unknown> | undefined;
    };
    dynamo.prependListener('request', (request: IncomingMessage, response: ServerResponse) =>
      observe('dynamodb', operationOf(request), request, { response, readItem }),
    );
    sqsServer.prependListener('request', (request: IncomingMessage, response: ServerResponse) =>
      observe('sqs', operationOf(request), request, { response, readItem }),
    );
  }

  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  const ddb = new DynamoDBClient({ endpoint: dynamodbEndpoint, region: LOCAL_REGION, credentials });
  await ensureTable(ddb, LOCAL_TABLE_NAME);
  ddb.destroy();
  await recoverTransactions(direct);

  const sqs = new SQSClient({ endpoint: sqsEndpoint, region: LOCAL_REGION, credentials });
  const queues = {} as Record<JobQueueId, LocalQueue>;
  for (const queue of QUEUES) {
    const visibility = options.visibilityTimeoutSeconds ?? visibilityTimeoutSeconds(queue);
    const dlqUrl = await createQueue(sqs, `${queue.localName}-dlq`, { MessageRetentionPeriod: String(14 * 24 * 3600) });
    const dlqArn = await queueArn(sqs, dlqUrl);
    const url = await createQueue(sqs, queue.localName, {
      VisibilityTimeout: String(visibility),
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: queue.maxReceiveCount }),
    });
    queues[queue.id] = { url, dlqUrl, visibilityTimeoutSeconds: visibility };
  }

  return {
    dynamodbEndpoint,
    sqsEndpoint,
    region: LOCAL_REGION,
    tableName: LOCAL_TABLE_NAME,
    queues,
    sqs,
    activity,
    async stop() {
      sqs.destroy();
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

async function ensureTable(ddb: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await ddb.send(new DescribeTableCommand({ TableName: tableName }));
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const keyAttributes = new Set<string>([
    TABLE.partitionKey,
    TABLE.sortKey,
    ...TABLE.indexes.flatMap((index) => [index.partitionKey, index.sortKey]),
  ]);
  await ddb.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [...keyAttributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: TABLE.indexes.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        // As deployed: the index holds only what is read through it.
        Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: projectedAttributes(index) },
      })),
    }),
  );
}

async function createQueue(sqs: SQSClient, name: string, attributes: Record<string, string>): Promise<string> {
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
  if (!QueueUrl) throw new Error(`The embedded SQS did not return a URL for ${name}`);
  return QueueUrl;
}

async function queueArn(sqs: SQSClient, url: string): Promise<string> {
  const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }));
  if (!Attributes?.QueueArn) throw new Error(`The embedded SQS did not return an ARN for ${url}`);
  return Attributes.QueueArn;
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
