import { dynamoTenantStore } from '../access/dynamo-tenants';
import type { FunctionId } from '../catalogue/functions';
import { jobTypeOfWorker } from '../catalogue/job-types';
import { dynamoIdempotencyStore } from '../commands/idempotency';
import { readCommandRetention, type CommandRetention } from '../commands/retention';
import type { EventPublisher } from '../commands/events';
import { dynamoCommandStore } from '../commands/dynamo-store';
import type { TaskWorkerDependencies } from '../commands/task-worker';
import type { WorkerDependencies } from '../commands/worker';
import { ConfigError } from '../platform/config';
import type { SecretSource } from '../platform/secrets';
import type { SiteDirectory } from '../sites/directory';
import { cachedSiteDirectory } from '../sites/cached-directory';
import { dynamoSiteDirectory } from '../sites/dynamo-directory';
import type { Tracing } from '../platform/tracing';
import type { LlmPolicy } from '../providers/llm/from-settings';
import { admissionOf, documentClientOf, loggerOf, metricsOf, tableNameOf, tracingOf } from './adapters';
import { secretsOf } from './secrets';
import { jobQueueOf } from './job-queue';
import { commandAnnouncerOf, eventPublisherOf } from './events';
import { clockOf, type HostPorts } from './host';
import type { Settings } from './settings';

/**
 * How long a worker keeps a site and its agents and users (never leads): a
 * burst of jobs for one site reads them once, and a change still reaches the
 * next job within seconds (the API keeps them 30 s).
 */
const WORKER_SITE_CACHE_TTL_MS = 5_000;

/**
 * A worker's ports, plus what its phases read: the table, site data,
 * provider credentials and the model's policy, and the retention of the
 * commands it starts (a producer's job, a child phase).
 */
export interface WorkerComposition extends WorkerDependencies, CommandRetention {
  db: ReturnType<typeof documentClientOf>;
  tableName: string;
  sites: SiteDirectory;
  secrets: SecretSource;
  tracing: Tracing;
  /** ALLOW_OFFLINE_PROVIDERS, and the metric and log line of offline answers and missing keys. */
  llmPolicy: LlmPolicy;
  /**
   * Events for the tenant's webhooks (call.status_changed, meeting_summary.created, …), when the
   * function's catalogue entry grants publishing; `noEvents` otherwise. Commands that end are
   * announced by `announce` (command.completed / command.failed, with their terminal write), wired here for every worker.
   */
  events: EventPublisher;
}

/**
 * Dependencies of a queue worker, from its settings: the kernel's ports, its
 * lease (the function's timeout, so a crashed attempt's lease has run out
 * by the time SQS delivers the job again; `WORKER_LEASE_SECONDS` overrides
 * it locally), its queue's maxReceiveCount and back-off (`JOB_RETRY_DELAYS_SECONDS`,
 * e.g. "0,1", overrides it in tests), all from the job-type table; the clock is the host's (the system clock in Lambda).
 */
export function workerComposition(functionId: FunctionId, settings: Settings, host: HostPorts = {}): WorkerComposition {
  const jobType = jobTypeOfWorker(functionId);
  if (!jobType) throw new ConfigError(`No job type is run by ${functionId}`);
  const tableName = tableNameOf(settings);
  const tracing = tracingOf(functionId, settings);
  const db = documentClientOf(settings, tracing);
  const logger = loggerOf(functionId, settings);
  const metrics = metricsOf(functionId, settings);
  const override = Number(settings.WORKER_LEASE_SECONDS);
  const leaseSeconds = Number.isFinite(override) && override > 0 ? override : jobType.worker.timeoutSeconds;
  const commandType = jobType.commandType ?? jobType.type;
  const commands = dynamoCommandStore(db, tableName);
  const queue = jobQueueOf(functionId, settings, tracing);
  const clock = clockOf(host);
  const publishing = { db, tableName, queue, clock, logger };
  return {
    db,
    tableName,
    commands,
    idempotency: dynamoIdempotencyStore(db, tableName),
    tenants: dynamoTenantStore(db, tableName),
    sites: cachedSiteDirectory(dynamoSiteDirectory(db, tableName), WORKER_SITE_CACHE_TTL_MS),
    queue,
    secrets: secretsOf(functionId, settings),
    clock,
    logger,
    metrics,
    tracing,
    llmPolicy: {
      allowOffline: settings.ALLOW_OFFLINE_PROVIDERS === 'true',
      onOffline: () => metrics.count('OfflineGeneration', commandType),
      onNotConfigured: (error) => {
        logger.error('Provider not configured: the job fails and is retried', { jobType: jobType.type, reason: error.message });
        metrics.count('ProviderNotConfigured', commandType);
      },
      tracing,
    },
    events: eventPublisherOf(functionId, publishing),
    // A producer's job starts its command here: held to its tenant's limits like a request.
    ...optional('admission', jobType.fromProducers ? admissionOf(db, tableName, settings, clock) : undefined),
    ...optional('announce', commandAnnouncerOf(functionId, publishing)),
    leaseMs: leaseSeconds * 1000,
    maxReceiveCount: jobType.queue.maxReceiveCount,
    retryDelaysSeconds: retryDelaysOf(settings) ?? jobType.queue.retryDelaysSeconds,
    ...readCommandRetention(settings),
  };
}

/** `{[name]: value}` when there is a value, `{}` otherwise (optional properties stay absent, not undefined). */
function optional<K extends string, V>(name: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [name]: value } as Record<K, V>);
}

function retryDelaysOf(settings: Settings): number[] | undefined {
  const text = settings.JOB_RETRY_DELAYS_SECONDS?.trim();
  if (!text) return undefined;
  const delays = text.split(',').map((part) => Number(part.trim()));
  if (delays.some((delay) => !Number.isInteger(delay) || delay < 0 || delay > 43_200)) {
    throw new ConfigError('Invalid configuration: JOB_RETRY_DELAYS_SECONDS must be whole seconds separated by commas, e.g. "10,60,300"');
  }
  return delays;
}

/** A task worker's ports (a job type without a command: the webhook deliveries), from its settings and its job type's queue. */
export interface TaskWorkerComposition extends TaskWorkerDependencies {
  db: ReturnType<typeof documentClientOf>;
  tableName: string;
  logger: ReturnType<typeof loggerOf>;
  metrics: ReturnType<typeof metricsOf>;
  tracing: Tracing;
  /** How long one attempt holds what it works on: the function's timeout (`WORKER_LEASE_SECONDS` overrides it locally). */
  leaseMs: number;
}

/**
 * Dependencies of a task worker: the table, its queues, logger, metrics and tracing, and its queue's limits (`JOB_RETRY_DELAYS_SECONDS`
 * overrides the back-off in tests), and the host's clock.
 */
export function taskWorkerComposition(functionId: FunctionId, settings: Settings, host: HostPorts = {}): TaskWorkerComposition {
  const jobType = jobTypeOfWorker(functionId);
  if (!jobType) throw new ConfigError(`No job type is run by ${functionId}`);
  const tracing = tracingOf(functionId, settings);
  const db = documentClientOf(settings, tracing);
  const override = Number(settings.WORKER_LEASE_SECONDS);
  const leaseSeconds = Number.isFinite(override) && override > 0 ? override : jobType.worker.timeoutSeconds;
  return {
    db,
    tableName: tableNameOf(settings),
    queue: jobQueueOf(functionId, settings, tracing),
    clock: clockOf(host),
    logger: loggerOf(functionId, settings),
    metrics: metricsOf(functionId, settings),
    tracing,
    leaseMs: leaseSeconds * 1000,
    maxReceiveCount: jobType.queue.maxReceiveCount,
    retryDelaysSeconds: retryDelaysOf(settings) ?? jobType.queue.retryDelaysSeconds,
  };
}
