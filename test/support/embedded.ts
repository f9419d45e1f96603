import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startEmbeddedAws, type EmbeddedAws } from '../../infra/local/embedded-aws';
import { createDocumentClient } from '../../shared/platform/dynamodb';

export interface EmbeddedServices {
  aws: EmbeddedAws;
  db: DynamoDBDocumentClient;
  stop(): Promise<void>;
}

/**
 * Starts the embedded DynamoDB and SQS with the table and queues of the service catalogue (shared/catalogue/), on this thread
 * unless `thread`.
 */
export async function startEmbeddedServices(
  options: { visibilityTimeoutSeconds?: number; dataDir?: string; thread?: boolean } = {},
): Promise<EmbeddedServices> {
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
  process.env.AWS_REGION ??= 'us-east-1';
  const aws = await startEmbeddedAws(options);
  const db = createDocumentClient({ endpoint: aws.dynamodbEndpoint, region: aws.region });
  return {
    aws,
    db,
    async stop() {
      db.destroy();
      await aws.stop();
    },
  };
}

export { eventually } from './eventually';
