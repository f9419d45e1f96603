import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startEmbeddedAws, type EmbeddedAws } from '../../infra/local/embedded-aws';
import { createDocumentClient } from '../../shared/platform/dynamodb';

export interface EmbeddedServices {
  aws: EmbeddedAws;
  db: DynamoDBDocumentClient;
  stop(): Promise<void>;
}

/** Starts the embedded DynamoDB and SQS with the table and queues of the service catalogue (shared/catalogue/). */
export async function startEmbeddedServices(options: { visibilityTimeoutSeconds?: number } = {}): Promise<EmbeddedServices> {
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

/** Polls `probe` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let pause = 10;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, 100);
  }
}
