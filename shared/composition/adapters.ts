import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Logger } from '@aws-lambda-powertools/logger';
import { createAuthenticator, type Authenticator } from '../access/authenticate';
import { dynamoApiKeyStore } from '../access/dynamo-api-keys';
import { dynamoTenantStore } from '../access/dynamo-tenants';
import { dynamoRequestRateStore } from '../access/limits/dynamo-request-rate';
import { createRequestLimiter } from '../access/limits/request-limiter';
import { createCommandAdmission, type CommandAdmission } from '../access/limits/admission';
import { dynamoUsageTotals } from '../usage/dynamo-usage-totals';
import { defaultLimitsOf } from '../access/limits/tenant-limits';
import { functionById, type FunctionId } from '../catalogue/function-definitions';
import { QUEUES } from '../catalogue/job-types';
import { TABLE } from '../catalogue/table';
import type { QueueUrls } from '../commands/queue';
import { ConfigError, readConfig, requiredString } from '../platform/config';
import type { AwsClientOptions } from '../platform/aws-clients';
import type { Clock } from '../platform/clock';
import { createDocumentClient } from '../platform/dynamodb';
import { createLogger } from '../platform/logger';
import { embeddedMetrics, type OperationMetrics } from '../platform/metrics';
import { lambdaTracing, noTracing, type Tracing } from '../platform/tracing';
import type { Settings } from './settings';

/**
 * Builders of the adapters a function may need, each reading only its own
 * settings. A composition root calls the ones its function uses, once per
 * cold start.
 */

/** Where an AWS client connects: the endpoint, region and credentials given in the settings, else the SDK's defaults. */
export function awsClientOptions(settings: Settings, service: 'DYNAMODB' | 'SQS'): AwsClientOptions {
  const endpoint = settings[`AWS_ENDPOINT_URL_${service}`] ?? settings.AWS_ENDPOINT_URL;
  const {
    AWS_REGION: region,
    AWS_ACCESS_KEY_ID: accessKeyId,
    AWS_SECRET_ACCESS_KEY: secretAccessKey,
    AWS_SESSION_TOKEN: sessionToken,
  } = settings;
  return {
    ...(endpoint ? { endpoint } : {}),
    ...(region ? { region } : {}),
    ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) } } : {}),
  };
}

/** The table's name (TABLE_NAME); a missing one fails the cold start. */
export function tableNameOf(settings: Settings): string {
  return readConfig({ [TABLE.envVar]: requiredString() }, settings)[TABLE.envVar];
}

/** The DynamoDB document client, its calls traced when `tracing` is on. */
export function documentClientOf(settings: Settings, tracing: Tracing = noTracing): DynamoDBDocumentClient {
  return createDocumentClient(awsClientOptions(settings, 'DYNAMODB'), (client) => tracing.captureClient(client));
}

/**
 * True for a function whose outgoing HTTPS is traced: every worker (model,
 * search, Twilio and webhook calls) and any function that reads a provider
 * secret (the relay socket's model calls during a call).
 */
export function capturesOutgoingHttps(functionId: FunctionId): boolean {
  const definition = functionById(functionId);
  return definition.kind === 'worker' || definition.access.secrets.length > 0;
}

/** X-Ray tracing in Lambda (unless POWERTOOLS_TRACE_ENABLED=false); nothing anywhere else, `npm start` included. */
export function tracingOf(functionId: FunctionId, settings: Settings): Tracing {
  if (!settings.AWS_LAMBDA_FUNCTION_NAME || settings.POWERTOOLS_TRACE_ENABLED === 'false') return noTracing;
  return lambdaTracing({ captureHttps: capturesOutgoingHttps(functionId) });
}

/** The function's logger: LOG_LEVEL, and LOG_FORMAT (`json` in Lambda; `pretty` under `npm start`). */
export function loggerOf(functionId: FunctionId, settings: Settings): Logger {
  const format = settings.LOG_FORMAT?.trim().toLowerCase() || 'json';
  if (format !== 'json' && format !== 'pretty')
    throw new ConfigError(`Invalid configuration: LOG_FORMAT must be json or pretty (got ${settings.LOG_FORMAT})`);
  return createLogger(functionId, { level: settings.LOG_LEVEL ?? 'INFO', format });
}

export function metricsOf(functionId: FunctionId, settings: Settings): OperationMetrics {
  return embeddedMetrics(functionId, settings);
}

/**
 * Authenticates API keys against the table (a key lookup, with its tenant's
 * limits, is cached briefly), then holds each request to its tenant's request
 * rate: its own limits, else the TENANT_* settings' defaults, its bucket
 * refilling by `clock` (the host's: shared/composition/host.ts).
 */
export function authenticatorOf(db: DynamoDBDocumentClient, tableName: string, settings: Settings, clock: Clock): Authenticator {
  const tenants = dynamoTenantStore(db, tableName);
  return createAuthenticator(dynamoApiKeyStore(db, tableName), {
    tenantLimits: async (tenantId) => (await tenants.get(tenantId))?.limits,
    limiter: createRequestLimiter(dynamoRequestRateStore(db, tableName), defaultLimitsOf(settings), clock),
  });
}

/**
 * Holds the commands a tenant starts to its in-progress and monthly limits
 * (its record's, else the TENANT_* settings'), from the table's counters; the month is `clock`'s.
 */
export function admissionOf(db: DynamoDBDocumentClient, tableName: string, settings: Settings, clock: Clock): CommandAdmission {
  const tenants = dynamoTenantStore(db, tableName);
  return createCommandAdmission({
    tenantLimits: async (tenantId) => (await tenants.get(tenantId))?.limits,
    totals: dynamoUsageTotals(db, tableName),
    defaults: defaultLimitsOf(settings),
    clock,
  });
}

/**
 * The URLs of the queues a function declares it sends to (and of their
 * dead-letter queues), read from its settings; a missing one fails the cold start.
 */
export function queueUrlsOf(functionId: FunctionId, settings: Settings): QueueUrls {
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
  return urls;
}
