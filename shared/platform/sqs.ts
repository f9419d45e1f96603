import { SQSClient } from '@aws-sdk/client-sqs';
import { AWS_MAX_ATTEMPTS, AWS_REQUEST_TIMEOUTS } from './aws-clients';

/** The SQS client; its endpoint comes from `AWS_ENDPOINT_URL_SQS` locally. */
export function createSqsClient(options: { endpoint?: string; region?: string } = {}): SQSClient {
  return new SQSClient({
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.region ? { region: options.region } : {}),
    maxAttempts: AWS_MAX_ATTEMPTS,
    requestHandler: AWS_REQUEST_TIMEOUTS,
  });
}
