import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { AWS_MAX_ATTEMPTS, AWS_REQUEST_TIMEOUTS, type AwsClientOptions } from './aws-clients';
import { cancellationReasons } from './dynamodb-errors';
import {
  BatchWriteCommand,
  DynamoDBDocumentClient,
  QueryCommand,
  TransactWriteCommand,
  type QueryCommandInput,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';

/** One item of a TransactWriteItems (Put, Update, Delete or ConditionCheck), in the document client's form. */
export type TransactionItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** Most items one TransactWriteItems takes. */
export const MAX_TRANSACTION_ITEMS = 100;

/**
 * The document client every store uses. The endpoint comes from the SDK's own
 * settings (`AWS_ENDPOINT_URL_DYNAMODB` locally), so the same code runs in
 * Lambda and against the embedded server.
 */
export function createDocumentClient(
  options: AwsClientOptions = {},
  instrument: <Client>(client: Client) => Client = (client) => client,
): DynamoDBDocumentClient {
  const client = instrument(
    new DynamoDBClient({
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.region ? { region: options.region } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      maxAttempts: AWS_MAX_ATTEMPTS,
      requestHandler: AWS_REQUEST_TIMEOUTS,
    }),
  );
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    unmarshallOptions: { wrapNumbers: false },
  });
}

/** Times a transaction that met another one on the same item is tried again, after a short random wait. */
export const TRANSACTION_CONFLICT_RETRIES = 4;

/**
 * Sends a TransactWriteItems. One cancelled only because another transaction
 * held one of its items at that moment (`TransactionConflict`: a tenant's
 * shared counters under load) is sent again, up to
 * {@link TRANSACTION_CONFLICT_RETRIES} times after a growing random wait;
 * any other cancellation (a condition) is the caller's to read.
 */
export async function sendTransaction(db: DynamoDBDocumentClient, items: TransactionItem[]): Promise<void> {
  for (let retry = 0; ; retry++) {
    try {
      await db.send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      const reasons = cancellationReasons(error);
      const conflictOnly = reasons?.includes('TransactionConflict') && !reasons.includes('ConditionalCheckFailed');
      if (!conflictOnly || retry >= TRANSACTION_CONFLICT_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, (10 + Math.random() * 40) * 2 ** retry));
    }
  }
}

/** Runs a Query page after page until `limit` items are read or there are no more. */
export async function queryUpTo(
  db: DynamoDBDocumentClient,
  input: Omit<QueryCommandInput, 'Limit' | 'ExclusiveStartKey'>,
  limit: number,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new QueryCommand({ ...input, Limit: limit - items.length, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey && items.length < limit);
  return items;
}

/** A family of index partitions spread over shards: `<partitionPrefix><shard>`, for shard 0 to `shards - 1`. */
export interface ShardedPartitions {
  tableName: string;
  index: { name: string; partitionKey: string; sortKey: string };
  partitionPrefix: string;
  shards: number;
}

/**
 * Every item of the sharded partitions whose index sort key sorts before
 * `before`, read shard by shard at once (up to `limit` from each), merged
 * in sort-key order and cut to `limit`.
 */
export async function queryShardsBefore(
  db: DynamoDBDocumentClient,
  family: ShardedPartitions,
  before: string,
  limit: number,
): Promise<Record<string, unknown>[]> {
  const { index } = family;
  const shards = await Promise.all(
    Array.from({ length: family.shards }, (_, shard) =>
      queryUpTo(
        db,
        {
          TableName: family.tableName,
          IndexName: index.name,
          KeyConditionExpression: '#pk = :pk AND #sk < :before',
          ExpressionAttributeNames: { '#pk': index.partitionKey, '#sk': index.sortKey },
          ExpressionAttributeValues: { ':pk': `${family.partitionPrefix}${shard}`, ':before': before },
        },
        limit,
      ),
    ),
  );
  return shards
    .flat()
    .sort((a, b) => String(a[index.sortKey]).localeCompare(String(b[index.sortKey])))
    .slice(0, limit);
}

/** Most items DynamoDB takes in one BatchWriteItem. */
const BATCH_WRITE_LIMIT = 25;
/** Rounds of retrying unprocessed items (throttling) before giving up, with exponential backoff from 100 ms. */
const MAX_UNPROCESSED_ROUNDS = 8;

/**
 * Puts items unconditionally, 25 to a BatchWriteItem, retrying what DynamoDB
 * leaves unprocessed with backoff; throws if some stay unprocessed. For
 * items no other writer can hold (a batch cannot carry conditions).
 */
export async function batchPutAll(db: DynamoDBDocumentClient, tableName: string, items: readonly object[]): Promise<void> {
  await batchWriteAll(
    db,
    tableName,
    items.map((item) => ({ PutRequest: { Item: item as Record<string, unknown> } })),
  );
}

/** Deletes items by key, 25 to a BatchWriteItem, with the same retries as {@link batchPutAll}. */
export async function batchDeleteAll(
  db: DynamoDBDocumentClient,
  tableName: string,
  keys: readonly Record<string, unknown>[],
): Promise<void> {
  await batchWriteAll(
    db,
    tableName,
    keys.map((key) => ({ DeleteRequest: { Key: key } })),
  );
}

type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Record<string, unknown> } };

async function batchWriteAll(db: DynamoDBDocumentClient, tableName: string, writes: readonly WriteRequest[]): Promise<void> {
  for (let index = 0; index < writes.length; index += BATCH_WRITE_LIMIT) {
    let requests = writes.slice(index, index + BATCH_WRITE_LIMIT);
    for (let round = 0; requests.length > 0; round++) {
      if (round >= MAX_UNPROCESSED_ROUNDS) throw new Error(`DynamoDB kept ${requests.length} items unprocessed`);
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** round));
      const result = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: [...requests] } }));
      requests = (result.UnprocessedItems?.[tableName] ?? []) as WriteRequest[];
    }
  }
}
