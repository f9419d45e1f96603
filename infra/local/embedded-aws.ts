import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { QUEUES, visibilityTimeoutSeconds, type JobQueueId } from '../../shared/catalogue/job-types';
import { projectedAttributes, TABLE } from '../../shared/catalogue/table';
import { startEmbeddedServers, type AwsRequestObserver, type EmbeddedServersOptions } from './embedded-servers';
import { startEmbeddedServersInThread } from './embedded-servers-in-thread';
import type { QueueActivity } from './queue-news';

export { EMBEDDED_HOST, type AwsRequestObserver, type ObservedCall } from './embedded-servers';

/** The table's name on the embedded DynamoDB. */
export const LOCAL_TABLE_NAME = 'switchboard';
const LOCAL_REGION = 'us-east-1';
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

/**
 * The settings that point a function at the embedded services: their endpoints (the SDK's own
 * `AWS_ENDPOINT_URL_DYNAMODB` and `AWS_ENDPOINT_URL_SQS`), the table's name and every queue's and
 * dead-letter queue's URL, under the names the catalogue gives them.
 */
export function embeddedServiceSettings(
  aws: Pick<EmbeddedAws, 'dynamodbEndpoint' | 'sqsEndpoint' | 'tableName' | 'queues'>,
): Record<string, string> {
  return {
    AWS_ENDPOINT_URL_DYNAMODB: aws.dynamodbEndpoint,
    AWS_ENDPOINT_URL_SQS: aws.sqsEndpoint,
    [TABLE.envVar]: aws.tableName,
    ...Object.fromEntries(
      QUEUES.flatMap((queue) => [
        [queue.urlEnvVar, aws.queues[queue.id].url],
        [queue.dlqUrlEnvVar, aws.queues[queue.id].dlqUrl],
      ]),
    ),
  };
}

/** How to start the embedded services. */
export interface EmbeddedAwsOptions {
  /** Keep DynamoDB data in this folder (LevelDB); in memory when absent. */
  dataDir?: string;
  /** Visibility timeout of every work queue; by default the one AWS gets (6× the worker's timeout). */
  visibilityTimeoutSeconds?: number;
  /** Called with every request to either service (benches count calls with it); only with the servers in this thread. */
  onRequest?: AwsRequestObserver;
  /**
   * Run the servers in a worker thread of their own (`npm start` does), so
   * their work is not done on this thread's event loop; by default they run
   * on it, where `onRequest` can watch them.
   */
  thread?: boolean;
}

/**
 * Starts the embedded, wire-compatible DynamoDB (dynalite) and SQS
 * (local-aws-sqs) servers on {@link EMBEDDED_HOST} (embedded-servers.ts), in
 * this thread or, with `thread`, another, and creates the table and the
 * queues of the service catalogue, with dead-letter queues and redrive.
 * The endpoints name the address each server is actually bound to.
 */
export async function startEmbeddedAws(options: EmbeddedAwsOptions = {}): Promise<EmbeddedAws> {
  if (options.thread && options.onRequest) throw new Error('onRequest watches the servers in this thread: not with thread: true');
  const serverOptions: EmbeddedServersOptions = { ...(options.dataDir ? { dataDir: options.dataDir } : {}), table: tableDefinition() };
  const servers = options.thread
    ? await startEmbeddedServersInThread(serverOptions)
    : await startEmbeddedServers(serverOptions, options.onRequest ? { onRequest: options.onRequest } : {});

  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  const sqs = new SQSClient({ endpoint: servers.sqsEndpoint, region: LOCAL_REGION, credentials });
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
    dynamodbEndpoint: servers.dynamodbEndpoint,
    sqsEndpoint: servers.sqsEndpoint,
    region: LOCAL_REGION,
    tableName: LOCAL_TABLE_NAME,
    queues,
    sqs,
    activity: servers.activity,
    async stop() {
      sqs.destroy();
      await servers.stop();
    },
  };
}

/** The catalogue's table as a CreateTable request: keys, and indexes holding only what is read through them, as deployed. */
function tableDefinition(): EmbeddedServersOptions['table'] {
  const keyAttributes = new Set<string>([
    TABLE.partitionKey,
    TABLE.sortKey,
    ...TABLE.indexes.flatMap((index) => [index.partitionKey, index.sortKey]),
  ]);
  return {
    TableName: LOCAL_TABLE_NAME,
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
      Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: projectedAttributes(index) },
    })),
  };
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
