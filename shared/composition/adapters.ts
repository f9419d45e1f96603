import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { Logger } from '@aws-lambda-powertools/logger';
import { createAuthenticator, type Authenticator } from '../access/authenticate';
import { dynamoApiKeyStore } from '../access/dynamo-api-keys';
import { functionById, type FunctionId } from '../catalogue/functions';
import { QUEUES } from '../catalogue/job-types';
import { SECRETS } from '../catalogue/secrets';
import { TABLE } from '../catalogue/table';
import { sqsJobQueue, type JobQueue, type QueueUrls } from '../commands/queue';
import { ConfigError, readConfig, requiredString } from '../platform/config';
import type { AwsClientOptions } from '../platform/aws-clients';
import { createDocumentClient } from '../platform/dynamodb';
import { createLogger } from '../platform/logger';
import { powertoolsMetrics, type OperationMetrics } from '../platform/metrics';
import { environmentSecrets, secretsManagerSecrets, type SecretSource } from '../platform/secrets';
import { createSqsClient } from '../platform/sqs';
import type { Settings } from './settings';

/**
 * Builders of the adapters a function may need, each reading only its own
 * settings. A composition root calls the ones its function uses, once per
 * cold start.
 */

/** Where an AWS client connects: the endpoint, region and credentials given in the settings, else the SDK's defaults. */
export function awsClientOptions(settings: Settings, service: 'DYNAMODB' | 'SQS'): AwsClientOptions {
  const endpoint = settings[`AWS_ENDPOINT_URL_${service}`] ?? settings.AWS_ENDPOINT_URL;
  const { AWS_REGION: region, AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey, AWS_SESSION_TOKEN: sessionToken } = settings;
  return {
    ...(endpoint ? { endpoint } : {}),
    ...(region ? { region } : {}),
    ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) } } : {}),
  };
}

/** The table's name (TABLE_NAME); a missing one fails the cold start. */
export function tableNameOf(settings: Settings): string {
  return readConfig({ [TABLE.envVar]: requiredString() }, settings)[TABLE.envVar] as string;
}

export function documentClientOf(settings: Settings): DynamoDBDocumentClient {
  return createDocumentClient(awsClientOptions(settings, 'DYNAMODB'));
}

export function sqsClientOf(settings: Settings): SQSClient {
  return createSqsClient(awsClientOptions(settings, 'SQS'));
}

/** The function's logger: LOG_LEVEL, and LOG_FORMAT (`json` in Lambda; `pretty` under `npm start`). */
export function loggerOf(functionId: FunctionId, settings: Settings): Logger {
  const format = settings.LOG_FORMAT?.trim().toLowerCase() || 'json';
  if (format !== 'json' && format !== 'pretty') throw new ConfigError(`Invalid configuration: LOG_FORMAT must be json or pretty (got ${settings.LOG_FORMAT})`);
  return createLogger(functionId, { level: settings.LOG_LEVEL ?? 'INFO', format });
}

export function metricsOf(functionId: FunctionId, settings: Settings): OperationMetrics {
  return powertoolsMetrics(functionId, settings);
}

/** Authenticates API keys against the table (a key lookup is cached briefly). */
export function authenticatorOf(db: DynamoDBDocumentClient, tableName: string): Authenticator {
  return createAuthenticator(dynamoApiKeyStore(db, tableName));
}

/** The queues a function declares it sends to (and the dead-letter queues), their URLs read from its settings. */
export function jobQueueOf(functionId: FunctionId, settings: Settings, sqs: SQSClient = sqsClientOf(settings)): JobQueue {
  const { sendsTo, sendsToDeadLetterOf } = functionById(functionId).access;
  const shape: Record<string, ReturnType<typeof requiredString>> = {};
  for (const queue of QUEUES) {
    if (sendsTo.includes(queue.id)) shape[queue.urlEnvVar] = requiredString();
    if (sendsToDeadLetterOf.includes(queue.id)) shape[queue.dlqUrlEnvVar] = requiredString();
  }
  const values = readConfig(shape, settings) as Record<string, string | undefined>;
  const urls: QueueUrls = { queues: {}, deadLetterQueues: {} };
  for (const queue of QUEUES) {
    if (values[queue.urlEnvVar]) urls.queues[queue.id] = values[queue.urlEnvVar];
    if (values[queue.dlqUrlEnvVar]) urls.deadLetterQueues[queue.id] = values[queue.dlqUrlEnvVar];
  }
  return sqsJobQueue(sqs, urls);
}

/** Provider credentials: Secrets Manager when the function has secret ARNs, else the settings themselves (locally). */
export function secretsOf(functionId: FunctionId, settings: Settings): SecretSource {
  const declared = functionById(functionId).access.secrets;
  const arns = SECRETS.filter((secret) => declared.includes(secret.id))
    .map((secret) => settings[secret.arnEnvVar])
    .filter((arn): arn is string => Boolean(arn));
  return arns.length > 0 ? secretsManagerSecrets(arns) : environmentSecrets(settings);
}
