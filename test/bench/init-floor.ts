import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * The init floor: a Lambda entry that only creates the clients every
 * Switchboard function starts from. Bundled like the functions, its cold
 * start is what any of them must at least pay.
 */
const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
const sqs = new SQSClient({});

export const handler = async (): Promise<{ clients: number }> => ({ clients: [db, sqs].length });
