import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Logger } from '@aws-lambda-powertools/logger';
import { FUNCTIONS, type FunctionId } from '../catalogue/functions';
import { QUEUES } from '../catalogue/job-types';
import { SECRETS } from '../catalogue/secrets';
import { TABLE } from '../catalogue/table';
import { createAuthenticator, type Authenticator } from '../access/authenticate';
import { dynamoApiKeyStore } from '../access/api-keys';
import { dynamoIdempotencyStore, type IdempotencyStore } from '../commands/idempotency';
import { sqsJobQueue, type JobQueue, type QueueUrls } from '../commands/queue';
import { dynamoCommandStore, type CommandStore } from '../commands/store';
import { systemClock, type Clock } from '../platform/clock';
import { ConfigError, readConfig, requiredString } from '../platform/config';
import { createDocumentClient } from '../platform/dynamodb';
import { createLogger } from '../platform/logger';
import { powertoolsMetrics, type OperationMetrics } from '../platform/metrics';
import { environmentSecrets, secretsManagerSecrets, type SecretSource } from '../platform/secrets';
import { createSqsClient } from '../platform/sqs';
import { cachedSiteDirectory } from '../sites/cached-directory';
import type { SiteDirectory, SiteWriter } from '../sites/directory';
import { dynamoSiteDirectory } from '../sites/dynamo-directory';

/** How long an API function trusts a site and its agents before reading them again. */
const SITE_CACHE_TTL_MS = 30_000;

/** Adapters every function of Switchboard may use, built once per cold start. */
export interface PlatformDependencies {
  functionId: FunctionId;
  logger: Logger;
  clock: Clock;
  db: DynamoDBDocumentClient;
  tableName: string;
  commands: CommandStore;
  idempotency: IdempotencyStore;
  queue: JobQueue;
  /** Site data, cached briefly in API functions. */
  sites: SiteDirectory;
  siteWriter: SiteWriter;
  authenticate: Authenticator;
  secrets: SecretSource;
  metrics: OperationMetrics;
}

/**
 * The composition root's one call: reads and checks this function's settings
 * (failing the cold start with the names of missing ones) and builds the
 * adapters. What a function may touch comes from infra/definitions.ts.
 */
export function platformDependencies(functionId: FunctionId, env: Record<string, string | undefined> = process.env): PlatformDependencies {
  const definition = FUNCTIONS.find((fn) => fn.id === functionId);
  if (!definition) throw new ConfigError(`Unknown function ${functionId}`);
  const { [TABLE.envVar]: tableName } = readConfig({ [TABLE.envVar]: requiredString() }, env) as Record<string, string>;
  const urls = queueUrlsOf(definition.access.sendsTo, definition.access.sendsToDeadLetterOf, env);
  const db = createDocumentClient();
  const directory = dynamoSiteDirectory(db, tableName!);
  const secretArns = SECRETS.filter((secret) => definition.access.secrets.includes(secret.id))
    .map((secret) => env[secret.arnEnvVar])
    .filter((arn): arn is string => Boolean(arn));
  return {
    functionId,
    logger: createLogger(functionId),
    clock: systemClock,
    db,
    tableName: tableName!,
    commands: dynamoCommandStore(db, tableName!),
    idempotency: dynamoIdempotencyStore(db, tableName!),
    queue: sqsJobQueue(createSqsClient(), urls),
    sites: definition.kind === 'api' ? cachedSiteDirectory(directory, SITE_CACHE_TTL_MS) : directory,
    siteWriter: directory,
    authenticate: createAuthenticator(dynamoApiKeyStore(db, tableName!)),
    secrets: secretArns.length > 0 ? secretsManagerSecrets(secretArns) : environmentSecrets(env),
    metrics: powertoolsMetrics(functionId),
  };
}

function queueUrlsOf(
  sendsTo: readonly string[],
  deadLetters: readonly string[],
  env: Record<string, string | undefined>,
): QueueUrls {
  const shape: Record<string, ReturnType<typeof requiredString>> = {};
  for (const queue of QUEUES) {
    if (sendsTo.includes(queue.id)) shape[queue.urlEnvVar] = requiredString();
    if (deadLetters.includes(queue.id)) shape[queue.dlqUrlEnvVar] = requiredString();
  }
  const values = readConfig(shape, env) as Record<string, string>;
  const urls: QueueUrls = { queues: {}, deadLetterQueues: {} };
  for (const queue of QUEUES) {
    if (values[queue.urlEnvVar]) urls.queues[queue.id] = values[queue.urlEnvVar];
    if (values[queue.dlqUrlEnvVar]) urls.deadLetterQueues[queue.id] = values[queue.dlqUrlEnvVar];
  }
  return urls;
}
