import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { AWS_MAX_ATTEMPTS, AWS_REQUEST_TIMEOUTS, type AwsClientOptions } from './aws-clients';
import { BatchWriteCommand, DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';

/**
 * The document client every store uses. The endpoint comes from the SDK's own
 * settings (`AWS_ENDPOINT_URL_DYNAMODB` locally), so the same code runs in
 * Lambda and against the embedded server.
 */
export function createDocumentClient(options: AwsClientOptions = {}, instrument: <Client>(client: Client) => Client = (client) => client): DynamoDBDocumentClient {
  const client = instrument(new DynamoDBClient({
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.region ? { region: options.region } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
    maxAttempts: AWS_MAX_ATTEMPTS,
    requestHandler: AWS_REQUEST_TIMEOUTS,
  }));
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    unmarshallOptions: { wrapNumbers: false },
  });
}

export function isConditionalCheckFailed(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

/** Epoch seconds, as DynamoDB's TTL attribute wants them. */
export function epochSeconds(ms: number): number {
  return Math.floor(ms / 1000);
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
  await batchWriteAll(db, tableName, items.map((item) => ({ PutRequest: { Item: item as Record<string, unknown> } })));
}

/** Deletes items by key, 25 to a BatchWriteItem, with the same retries as {@link batchPutAll}. */
export async function batchDeleteAll(db: DynamoDBDocumentClient, tableName: string, keys: readonly Record<string, unknown>[]): Promise<void> {
  await batchWriteAll(db, tableName, keys.map((key) => ({ DeleteRequest: { Key: key } })));
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
