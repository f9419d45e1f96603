import { dynamoTenantStore } from '../access/tenants';
import type { FunctionId } from '../catalogue/functions';
import { jobTypeOfWorker } from '../catalogue/job-types';
import { dynamoIdempotencyStore } from '../commands/idempotency';
import { dynamoCommandStore } from '../commands/store';
import type { WorkerDependencies } from '../commands/worker';
import { systemClock } from '../platform/clock';
import { ConfigError } from '../platform/config';
import type { SecretSource } from '../platform/secrets';
import type { SiteDirectory } from '../sites/directory';
import { cachedSiteDirectory } from '../sites/cached-directory';
import { dynamoSiteDirectory } from '../sites/dynamo-directory';
import { documentClientOf, jobQueueOf, loggerOf, metricsOf, secretsOf, tableNameOf } from './adapters';
import type { Settings } from './settings';

/**
 * How long a worker keeps a site and its agents and users (never leads): a
 * burst of jobs for one site reads them once, and a change still reaches the
 * next job within seconds (the API keeps them 30 s).
 */
const WORKER_SITE_CACHE_TTL_MS = 5_000;

/** A worker's ports, plus what its phases read: the table, site data and provider credentials. */
export interface WorkerComposition extends WorkerDependencies {
  db: ReturnType<typeof documentClientOf>;
  tableName: string;
  sites: SiteDirectory;
  secrets: SecretSource;
}

/**
 * Dependencies of a queue worker, from its settings: the kernel's ports, its
 * lease (the function's timeout, so a crashed attempt's lease has run out
 * by the time SQS delivers the job again; `WORKER_LEASE_SECONDS` overrides
 * it locally) and its queue's maxReceiveCount, all from the job-type table.
 */
export function workerComposition(functionId: FunctionId, settings: Settings): WorkerComposition {
  const jobType = jobTypeOfWorker(functionId);
  if (!jobType) throw new ConfigError(`No job type is run by ${functionId}`);
  const tableName = tableNameOf(settings);
  const db = documentClientOf(settings);
  const override = Number(settings.WORKER_LEASE_SECONDS);
  const leaseSeconds = Number.isFinite(override) && override > 0 ? override : jobType.worker.timeoutSeconds;
  return {
    db,
    tableName,
    commands: dynamoCommandStore(db, tableName),
    idempotency: dynamoIdempotencyStore(db, tableName),
    tenants: dynamoTenantStore(db, tableName),
    sites: cachedSiteDirectory(dynamoSiteDirectory(db, tableName), WORKER_SITE_CACHE_TTL_MS),
    queue: jobQueueOf(functionId, settings),
    secrets: secretsOf(functionId, settings),
    clock: systemClock,
    logger: loggerOf(functionId, settings),
    metrics: metricsOf(functionId, settings),
    leaseMs: leaseSeconds * 1000,
    maxReceiveCount: jobType.queue.maxReceiveCount,
  };
}
