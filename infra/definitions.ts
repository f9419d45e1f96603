/**
 * The table, queues, functions and routes of Switchboard, named once.
 * Both the CDK app (infra/app.ts) and the one-machine runtime (infra/local/)
 * read this file, so the two can never drift apart.
 */

/** The single DynamoDB table: every entity lives under `pk`/`sk`. */
export const TABLE = {
  id: 'Table',
  /** Environment variable through which functions learn the table's name. */
  envVar: 'TABLE_NAME',
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Epoch seconds after which DynamoDB may delete the item (idempotency records, caches). */
  ttlAttribute: 'expires_at',
  indexes: [
    /**
     * Overloaded: follow-ups by due time (`FOLLOWUP#scheduled`, for schedulers),
     * and commands still in progress by creation time (`CMD#IN_PROGRESS#<shard>`, for the janitor).
     */
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  ],
} as const;

/** The kinds of job that travel on queues; each has its own queue, DLQ and worker. */
export type JobQueueId = 'sales' | 'copywriter';

/** One work queue and its dead-letter queue. */
export interface QueueDefinition {
  id: JobQueueId;
  /** Queue name on the local runtime; CDK derives the physical name itself. */
  localName: string;
  /** Environment variable holding the queue's URL, for functions that send to it. */
  urlEnvVar: string;
  /** Environment variable holding its dead-letter queue's URL. */
  dlqUrlEnvVar: string;
  /** Deliveries before SQS moves a message to the dead-letter queue. */
  maxReceiveCount: number;
  /** The worker function that consumes it. */
  workerFunction: FunctionId;
  /** Job envelope `type`s that belong on this queue (the command types its worker runs). */
  jobTypes: readonly string[];
  /** Records handed to one worker invocation. */
  batchSize: number;
  /** Seconds the event source may wait to fill a batch. */
  maxBatchingWindowSeconds: number;
  /** Most worker invocations at once (protects provider quotas). */
  maxConcurrency: number;
}

export type FunctionId =
  | 'leadFollowUpApi'
  | 'getCommandApi'
  | 'healthApi'
  | 'notFoundApi'
  | 'salesWorker'
  | 'copywriterWorker'
  | 'commandJanitor';

/** What a function touches, from which its IAM grants are derived. */
export interface FunctionAccess {
  table: 'none' | 'read' | 'readwrite';
  /** Queues it sends jobs to. */
  sendsTo: JobQueueId[];
  /** Dead-letter queues it sends poison jobs to (its own queue's). */
  sendsToDeadLetterOf: JobQueueId[];
  /** Provider secrets it reads. */
  secrets: SecretId[];
  /**
   * Table indexes it queries (names from `TABLE.indexes`); grants Query on
   * exactly those index ARNs. Needs `table` to be `read` or `readwrite`.
   * @default [] (no index access)
   */
  indexes?: TableIndexName[];
}

/** Name of one of the table's global secondary indexes. */
export type TableIndexName = (typeof TABLE.indexes)[number]['name'];

export type SecretId = 'openai';

/** One Lambda function: its source module, sizing and access. */
export interface FunctionDefinition {
  id: FunctionId;
  /** `api`: behind a route; `worker`: consumes a queue; `scheduled`: runs on a timer. */
  kind: 'api' | 'worker' | 'scheduled';
  /** Module exporting `handler`, relative to the repository root. */
  entry: string;
  description: string;
  timeoutSeconds: number;
  memoryMb: number;
  access: FunctionAccess;
  /** How often a `scheduled` function runs. */
  scheduleMinutes?: number;
}

export interface RouteDefinition {
  method: 'GET' | 'POST';
  /** API Gateway route path; `{name}` segments are path parameters. */
  path: string;
  function: FunctionId;
}

/** Provider credentials kept in Secrets Manager in AWS, the environment locally. */
export interface SecretDefinition {
  id: SecretId;
  /** Setting names (PROVIDERS.md "Settings") held as JSON keys in the secret. */
  keys: string[];
  /** Environment variable through which functions learn the secret's ARN. */
  arnEnvVar: string;
}

export const SECRETS: readonly SecretDefinition[] = [
  { id: 'openai', keys: ['OPENAI_API_KEY'], arnEnvVar: 'OPENAI_SECRET_ARN' },
];

export const FUNCTIONS: readonly FunctionDefinition[] = [
  {
    id: 'leadFollowUpApi',
    kind: 'api',
    entry: 'functions/api/lead-follow-up.ts',
    description: 'POST /api/agents/sales/leadFollowUp: validate, record the command, queue the sales job',
    timeoutSeconds: 29,
    memoryMb: 512,
    access: { table: 'readwrite', sendsTo: ['sales'], sendsToDeadLetterOf: [], secrets: [] },
  },
  {
    id: 'getCommandApi',
    kind: 'api',
    entry: 'functions/api/get-command.ts',
    description: 'GET /api/commands/{id}: read a command of the caller',
    timeoutSeconds: 10,
    memoryMb: 256,
    access: { table: 'read', sendsTo: [], sendsToDeadLetterOf: [], secrets: [] },
  },
  {
    id: 'healthApi',
    kind: 'api',
    entry: 'functions/api/health.ts',
    description: 'GET /health: liveness, no key',
    timeoutSeconds: 5,
    memoryMb: 128,
    access: { table: 'none', sendsTo: [], sendsToDeadLetterOf: [], secrets: [] },
  },
  {
    id: 'notFoundApi',
    kind: 'api',
    entry: 'functions/api/not-found.ts',
    description: 'Every other route: 401 without a key under /api, else 404 NOT_FOUND',
    timeoutSeconds: 10,
    memoryMb: 256,
    access: { table: 'read', sendsTo: [], sendsToDeadLetterOf: [], secrets: [] },
  },
  {
    id: 'salesWorker',
    kind: 'worker',
    entry: 'functions/workers/sales.ts',
    description: 'Lead follow-up phase 1: the sales agent writes the messages or the sequence',
    // One model call and one repair call, each bounded by the LLM policy's 56 s deadline.
    timeoutSeconds: 120,
    memoryMb: 512,
    access: { table: 'readwrite', sendsTo: ['copywriter'], sendsToDeadLetterOf: ['sales'], secrets: ['openai'] },
  },
  {
    id: 'copywriterWorker',
    kind: 'worker',
    entry: 'functions/workers/copywriter.ts',
    description: 'Lead follow-up phase 2: the copywriter agent refines the messages',
    // One model call and one repair call, each bounded by the LLM policy's 56 s deadline.
    timeoutSeconds: 120,
    memoryMb: 512,
    access: { table: 'readwrite', sendsTo: [], sendsToDeadLetterOf: ['copywriter'], secrets: ['openai'] },
  },
  {
    id: 'commandJanitor',
    kind: 'scheduled',
    entry: 'functions/scheduled/command-janitor.ts',
    description: 'Every 5 minutes: queues again commands whose first job never reached a queue; fails commands stuck past their deadline',
    timeoutSeconds: 60,
    memoryMb: 256,
    scheduleMinutes: 5,
    access: { table: 'readwrite', indexes: ['gsi1'], sendsTo: ['sales', 'copywriter'], sendsToDeadLetterOf: [], secrets: [] },
  },
];

export const QUEUES: readonly QueueDefinition[] = [
  {
    id: 'sales',
    localName: 'switchboard-sales',
    urlEnvVar: 'SALES_QUEUE_URL',
    dlqUrlEnvVar: 'SALES_DLQ_URL',
    maxReceiveCount: 3,
    workerFunction: 'salesWorker',
    jobTypes: ['lead_follow_up'],
    batchSize: 5,
    maxBatchingWindowSeconds: 1,
    maxConcurrency: 10,
  },
  {
    id: 'copywriter',
    localName: 'switchboard-copywriter',
    urlEnvVar: 'COPYWRITER_QUEUE_URL',
    dlqUrlEnvVar: 'COPYWRITER_DLQ_URL',
    maxReceiveCount: 3,
    workerFunction: 'copywriterWorker',
    jobTypes: ['copywriter'],
    batchSize: 5,
    maxBatchingWindowSeconds: 1,
    maxConcurrency: 10,
  },
];

/** Every HTTP route. Anything else reaches `notFoundApi` (the `$default` route). */
export const ROUTES: readonly RouteDefinition[] = [
  { method: 'POST', path: '/api/agents/sales/leadFollowUp', function: 'leadFollowUpApi' },
  { method: 'GET', path: '/api/commands/{id}', function: 'getCommandApi' },
  { method: 'GET', path: '/health', function: 'healthApi' },
];

/** The function that answers requests no route matches. */
export const DEFAULT_ROUTE_FUNCTION: FunctionId = 'notFoundApi';

/** Largest request body the API accepts; larger answers 413 PAYLOAD_TOO_LARGE. */
export const MAX_BODY_BYTES = 256 * 1024;

/** Longest `Prefer: wait=N` honoured (API Gateway's integration timeout is 30 s). */
export const MAX_WAIT_SECONDS = 25;

/**
 * Visibility timeout of a worker's queue: six times the worker's timeout,
 * as AWS recommends for SQS event sources.
 */
export function visibilityTimeoutSeconds(queue: QueueDefinition): number {
  return 6 * functionById(queue.workerFunction).timeoutSeconds;
}

export function functionById(id: FunctionId): FunctionDefinition {
  const found = FUNCTIONS.find((fn) => fn.id === id);
  if (!found) throw new Error(`No function named ${id} in infra/definitions.ts`);
  return found;
}

export function queueById(id: JobQueueId): QueueDefinition {
  const found = QUEUES.find((queue) => queue.id === id);
  if (!found) throw new Error(`No queue named ${id} in infra/definitions.ts`);
  return found;
}
