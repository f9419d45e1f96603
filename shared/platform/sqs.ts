import { SQSClient } from '@aws-sdk/client-sqs';

/** The SQS client; its endpoint comes from `AWS_ENDPOINT_URL_SQS` locally. */
export function createSqsClient(options: { endpoint?: string; region?: string } = {}): SQSClient {
  return new SQSClient({
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.region ? { region: options.region } : {}),
    maxAttempts: 3,
  });
}
