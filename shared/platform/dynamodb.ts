import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { AWS_MAX_ATTEMPTS, AWS_REQUEST_TIMEOUTS, type AwsClientOptions } from './aws-clients';
import { DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';

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
