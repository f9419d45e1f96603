import { SendMessageCommand, SQSClient, type SendMessageCommandInput } from '@aws-sdk/client-sqs';
import { AWS_MAX_ATTEMPTS, AWS_REQUEST_TIMEOUTS, type AwsClientOptions } from './aws-clients';

/** Sends one SQS message: the one call a job queue makes, so the client behind it can be loaded on first use. */
export type SendSqsMessage = (input: SendMessageCommandInput) => Promise<void>;

/** The SQS client; its endpoint comes from `AWS_ENDPOINT_URL_SQS` locally. */
export function createSqsClient(
  options: AwsClientOptions = {},
  instrument: <Client>(client: Client) => Client = (client) => client,
): SQSClient {
  return instrument(
    new SQSClient({
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.region ? { region: options.region } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      maxAttempts: AWS_MAX_ATTEMPTS,
      requestHandler: AWS_REQUEST_TIMEOUTS,
    }),
  );
}

/** `SendMessage` through `sqs`. */
export function sqsMessageSender(sqs: SQSClient): SendSqsMessage {
  return async (input) => {
    await sqs.send(new SendMessageCommand(input));
  };
}
