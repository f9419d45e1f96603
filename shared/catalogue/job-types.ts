import { PAGE_PARSE_WORKER } from '../providers/web/parse-worker-bundle';
import { EVENT_DELIVERY_QUEUE, EVENT_PUBLISHER_TABLE_GRANTS } from './event-publishing';
import type { FunctionDefinition, FunctionId } from './functions';

/** One work queue and its dead-letter queue. */
export interface QueueDefinition<Id extends string = JobQueueId> {
  id: Id;
  /** Queue name on the local runtime; CDK derives the physical name itself. */
  localName: string;
  /** Environment variable holding the queue's URL, for functions that send to it. */
  urlEnvVar: string;
  /** Environment variable holding its dead-letter queue's URL. */
  dlqUrlEnvVar: string;
  /** Deliveries before SQS moves a message to the dead-letter queue. */
  maxReceiveCount: number;
  /**
   * Seconds a job waits before its next delivery after an infrastructure
   * fault, by attempt (the last value repeats): the worker shortens the
   * message's visibility to this instead of waiting the full timeout.
   */
  retryDelaysSeconds: readonly number[];
  /** Records handed to one worker invocation. */
  batchSize: number;
  /** Seconds the event source may wait to fill a batch. */
  maxBatchingWindowSeconds: number;
  /** Most worker invocations at once (protects provider quotas). */
  maxConcurrency: number;
}

/**
 * One job type, declared once: the command it runs, its queue and its
 * worker (with the worker's timeout). Accepting a command, child phases,
 * the janitor, restart recovery, the local runtime and the CDK app all read
 * this table; adding a job type is one entry here and one worker module.
 */
export interface JobTypeDefinition<Queue extends string = JobQueueId, Command extends string = CommandType> {
  /** The job envelope's `type`. */
  type: string;
  /**
   * The command type whose phase this job runs; the job that starts a command of that type.
   * Absent for a job that runs without a command (a webhook delivery): its worker is a task
   * worker (shared/commands/task-worker.ts), which keeps its own state.
   */
  commandType?: Command;
  /** True when the command's first job is this one (the janitor and restart recovery queue it again). */
  startsCommand: boolean;
  /** True when event producers may put this job on its queue directly (without a command). */
  fromProducers: boolean;
  queue: QueueDefinition<Queue>;
  worker: FunctionDefinition<string, Queue> & { kind: 'worker' };
}

/** Back-off after an infrastructure fault: 10 s, 1 minute, then 5 minutes (a job ends within about 11 minutes). */
const JOB_RETRY_DELAYS_SECONDS = [10, 60, 300] as const;

/**
 * A work queue with the house defaults: five attempts with back-off,
 * batches of five, at most ten worker invocations at once (provider quotas).
 */
function workQueue<Id extends string>(id: Id, envPrefix: string): QueueDefinition<Id> {
  return {
    id,
    localName: `switchboard-${id}`,
    urlEnvVar: `${envPrefix}_QUEUE_URL`,
    dlqUrlEnvVar: `${envPrefix}_DLQ_URL`,
    maxReceiveCount: 5,
    retryDelaysSeconds: JOB_RETRY_DELAYS_SECONDS,
    batchSize: 5,
    maxBatchingWindowSeconds: 1,
    maxConcurrency: 10,
  };
}

/** Every job type of Switchboard. */
export const JOB_TYPES = [
  {
    type: 'lead_follow_up',
    commandType: 'lead_follow_up',
    startsCommand: true,
    fromProducers: true,
    queue: workQueue('sales', 'SALES'),
    worker: {
      id: 'salesWorker',
      kind: 'worker',
      entry: 'functions/workers/sales.ts',
      description: 'Lead follow-up phase 1: the sales agent writes the messages or the sequence',
      // One model call and one repair call, each bounded by the LLM policy's 56 s deadline.
      timeoutSeconds: 120,
      // Measured (a batch of 5 in one process, SDK bundled): peak RSS 141 MB, heap 50 MB, 17 ms CPU a job;
      // the rest of a job is waiting on the model, which more memory (and CPU) would not shorten.
      memoryMb: 256,
      access: {
        table: [
          // Producer jobs: the tenant's sites, then the job's Idempotency-Key.
          { actions: ['GetItem'], keyPrefixes: ['TENANT#'] },
          { actions: ['GetItem', 'PutItem'], keyPrefixes: ['IDEM#'] },
          { actions: ['GetItem', 'Query'], keyPrefixes: ['SITE#'] },
          // The command's tenant's window of the lead's history (one Query, Limit bounded).
          { actions: ['Query'], keyPrefixes: ['LEADHISTORY#'] },
          // Its command, and the copywriter child it starts. The child and a sequence's follow-ups are written
          // only while the command is still there (a ConditionCheck on it in the same transaction).
          { actions: ['GetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'], keyPrefixes: ['CMD#'] },
          // A sequence's follow-ups: in one transaction on the first attempt, item by item (conditionally) after.
          { actions: ['PutItem'], keyPrefixes: ['FOLLOWUP#'] },
          // command.completed / command.failed for the tenant's webhooks (event-publishing.ts).
          ...EVENT_PUBLISHER_TABLE_GRANTS,
        ],
        // Its own queue too: a job that hit a fault, or whose command is busy, is queued again, delayed.
        sendsTo: ['sales', 'copywriter', EVENT_DELIVERY_QUEUE],
        sendsToDeadLetterOf: ['sales'],
        secrets: ['openai'],
      },
    },
  },
  {
    type: 'copywriter',
    commandType: 'copywriter',
    startsCommand: true,
    fromProducers: false,
    queue: workQueue('copywriter', 'COPYWRITER'),
    worker: {
      id: 'copywriterWorker',
      kind: 'worker',
      entry: 'functions/workers/copywriter.ts',
      description: 'Lead follow-up phase 2: the copywriter agent refines the messages',
      // One model call and one repair call, each bounded by the LLM policy's 56 s deadline.
      timeoutSeconds: 120,
      // Measured (a batch of 5 in one process, SDK bundled): peak RSS 141 MB, heap 50 MB, 17 ms CPU a job;
      // the rest of a job is waiting on the model, which more memory (and CPU) would not shorten.
      memoryMb: 256,
      access: {
        table: [
          { actions: ['GetItem'], keyPrefixes: ['SITE#'] },
          // Its command and the parent lead follow-up it finishes.
          { actions: ['GetItem', 'UpdateItem'], keyPrefixes: ['CMD#'] },
          // The parent's command.completed for the tenant's webhooks (event-publishing.ts).
          ...EVENT_PUBLISHER_TABLE_GRANTS,
        ],
        // Its own queue: a job that hit a fault, or whose command is busy, is queued again, delayed.
        sendsTo: ['copywriter', EVENT_DELIVERY_QUEUE],
        sendsToDeadLetterOf: ['copywriter'],
        secrets: ['openai'],
      },
    },
  },
  {
    type: 'stakeholder_coordination',
    commandType: 'stakeholder_coordination',
    startsCommand: true,
    fromProducers: false,
    queue: workQueue('call', 'CALL'),
    worker: {
      id: 'callWorker',
      kind: 'worker',
      entry: 'functions/workers/stakeholder-call.ts',
      description: 'Stakeholder coordination: writes a missing meeting title or objective, then places the call (never twice)',
      // One model call bounded by the LLM policy's 56 s deadline, then one Twilio create bounded by the adapter's timeout.
      timeoutSeconds: 120,
      memoryMb: 256,
      access: {
        table: [
          // Its command: the request, context and prompts the API stored, and the call's conditional writes.
          { actions: ['GetItem', 'UpdateItem'], keyPrefixes: ['CMD#'] },
          // command.completed / command.failed for the tenant's webhooks (event-publishing.ts).
          ...EVENT_PUBLISHER_TABLE_GRANTS,
        ],
        // Its own queue: a job that hit a fault, or whose command is busy, is queued again, delayed.
        sendsTo: ['call', EVENT_DELIVERY_QUEUE],
        sendsToDeadLetterOf: ['call'],
        secrets: ['openai', 'twilio'],
      },
      settings: ['TWILIO_FROM_NUMBER', 'TWILIO_API_BASE_URL'],
    },
  },
  {
    type: 'deep_research',
    commandType: 'deep_research',
    startsCommand: true,
    // A producer's research job concerns no site: its tenant only has to exist (tenantMayActOn).
    fromProducers: true,
    queue: workQueue('research', 'RESEARCH'),
    worker: {
      id: 'researchWorker',
      kind: 'worker',
      entry: 'functions/workers/research.ts',
      description: 'Deep research: web search through the provider chain (or the local corpus), then optional content analysis',
      // Worst case, every provider timing out on its attempt and its retry, then analysis to its budget
      // (checked by test/unit/deep-research/budget.test.ts):
      //   search:   Google 2 x 20 s + Brave 2 x 20 s + Perplexity 2 x 30 s + 3 retry pauses of 1 s
      //             (searchChainWorstCaseMs, shared/providers/search/policy.ts)                      = 143 s
      //   analysis: no call starts after 120 s; those running end within a page read (5 s) and one
      //             LLM call deadline (56 s) (ANALYSIS_BUDGET_MS, shared/deep-research/budget.ts)     = 181 s
      //   storage, queueing and completion                                                           ≤  36 s
      //   total                                                                                      = 360 s
      timeoutSeconds: 360,
      // Advanced analysis parses pages of up to 1 MiB into a DOM (linkedom), 2 at once in worker threads of at most 128 MiB
      // of heap each (shared/providers/web/page-parser.ts): more room than the LLM-only workers.
      memoryMb: 512,
      // The local corpus (served when no search provider is configured and offline providers are allowed) is read from disk.
      bundledFiles: [{ source: 'shared/providers/search/corpus/sample-news.jsonl', setting: 'SEARCH_CORPUS_FILE' }],
      // Advanced analysis parses pages in worker threads, under a deadline (shared/providers/web/page-parser.ts).
      workerBundles: [PAGE_PARSE_WORKER],
      access: {
        table: [
          // Producer jobs: the tenant must exist, then the job's Idempotency-Key.
          { actions: ['GetItem'], keyPrefixes: ['TENANT#'] },
          { actions: ['GetItem', 'PutItem'], keyPrefixes: ['IDEM#'] },
          // Its command (a producer's job starts one).
          { actions: ['GetItem', 'PutItem', 'UpdateItem'], keyPrefixes: ['CMD#'] },
          // Google's daily query counter, shared by every worker (an atomic conditional update).
          { actions: ['UpdateItem'], keyPrefixes: ['QUOTA#'] },
          // Search results cached for SEARCH_CACHE_TTL.
          { actions: ['GetItem', 'PutItem'], keyPrefixes: ['SEARCH#'] },
          // command.completed / command.failed for the tenant's webhooks (event-publishing.ts).
          ...EVENT_PUBLISHER_TABLE_GRANTS,
        ],
        // Its own queue: a job that hit a fault, or whose command is busy, is queued again, delayed.
        sendsTo: ['research', EVENT_DELIVERY_QUEUE],
        sendsToDeadLetterOf: ['research'],
        secrets: ['search', 'openai'],
      },
      // Unset, each has its PROVIDERS.md default; an environment's providerSettings (infra/config.ts) may set them.
      settings: ['SEARCH_PROVIDERS', 'SEARCH_CACHE_TTL', 'GOOGLE_CSE_DAILY_QUOTA', 'GOOGLE_CSE_BASE_URL', 'BRAVE_BASE_URL', 'PERPLEXITY_BASE_URL', 'PERPLEXITY_MODEL'],
    },
  },
  {
    type: 'post_call_summary',
    commandType: 'post_call_summary',
    startsCommand: true,
    fromProducers: false,
    queue: workQueue('summary', 'SUMMARY'),
    worker: {
      id: 'postCallSummaryWorker',
      kind: 'worker',
      entry: 'functions/workers/post-call-summary.ts',
      description: 'After a stakeholder call: turns its transcript into the meeting summary (key points, decisions, action items, requirements)',
      // One model call bounded by the LLM policy's 56 s deadline, then two conditional writes and one event.
      timeoutSeconds: 120,
      memoryMb: 256,
      access: {
        table: [
          // Its command, and the stakeholder command whose transcript it reads and whose meeting_summary it writes.
          { actions: ['GetItem', 'UpdateItem'], keyPrefixes: ['CMD#'] },
          // meeting_summary.created for the tenant's webhooks (event-publishing.ts).
          ...EVENT_PUBLISHER_TABLE_GRANTS,
        ],
        // Its own queue: a job that hit a fault, or whose command is busy, is queued again, delayed.
        sendsTo: ['summary', EVENT_DELIVERY_QUEUE],
        sendsToDeadLetterOf: ['summary'],
        secrets: ['openai'],
      },
    },
  },
  {
    type: 'webhook_delivery',
    // No command: a delivery keeps its own state (DELIVERY#), and its worker is a task worker.
    startsCommand: false,
    fromProducers: false,
    // Deliveries are short and independent: ten to a batch, run side by side.
    queue: { ...workQueue('webhooks', 'WEBHOOKS'), batchSize: 10 },
    worker: {
      id: 'webhookDeliveryWorker',
      kind: 'worker',
      entry: 'functions/workers/webhook-delivery.ts',
      description: "Completion webhooks: POSTs one signed event to one tenant endpoint, records the attempt, schedules the next (WEBHOOK_RETRY_DELAYS)",
      // A batch runs in parallel: each attempt is bounded by the 10 s request timeout, plus its reads and writes.
      timeoutSeconds: 30,
      memoryMb: 256,
      access: {
        table: [
          // The endpoint (its URL and signing secrets), among its tenant's.
          { actions: ['Query'], keyPrefixes: ['WEBHOOK#'] },
          // The event's payload.
          { actions: ['GetItem'], keyPrefixes: ['EVENT#'] },
          // The delivery: read, leased for one attempt, then the attempt recorded (conditional updates).
          { actions: ['GetItem', 'UpdateItem'], keyPrefixes: ['DELIVERY#'] },
        ],
        // Its own queue: the next attempt (delayed), and waits longer than SQS's 900 s in hops.
        sendsTo: ['webhooks'],
        sendsToDeadLetterOf: ['webhooks'],
        secrets: [],
      },
      settings: ['WEBHOOK_RETRY_DELAYS'],
    },
  },
] as const satisfies readonly JobTypeDefinition<string, string>[];

/** Id of a work queue (one per job type): the queues of the job types above. */
export type JobQueueId = (typeof JOB_TYPES)[number]['queue']['id'];

/** Fail to compile when a worker, or an event publisher, sends to a queue no job type has. */
const _workersSendToKnownQueues: [Exclude<(typeof JOB_TYPES)[number]['worker']['access']['sendsTo' | 'sendsToDeadLetterOf'][number], JobQueueId>] extends [never]
  ? true
  : false = true;
const _deliveryQueueKnown: typeof EVENT_DELIVERY_QUEUE extends JobQueueId ? true : false = true;

/** The envelope `type` of a job. */
export type JobType = (typeof JOB_TYPES)[number]['type'];

/** The operations Switchboard runs, each recorded as a command: the command types of the job types above. */
export type CommandType = Extract<(typeof JOB_TYPES)[number], { commandType: string }>['commandType'];

/** A work queue with the job type it carries and the worker that consumes it (derived from JOB_TYPES). */
export interface WorkQueue extends QueueDefinition {
  jobType: JobType;
  workerFunction: FunctionId;
}

/** Every work queue, in job-type order. */
export const QUEUES: readonly WorkQueue[] = JOB_TYPES.map((job) => ({ ...job.queue, jobType: job.type, workerFunction: job.worker.id }));

export function queueById(id: JobQueueId): WorkQueue {
  const found = QUEUES.find((queue) => queue.id === id);
  if (!found) throw new Error(`No queue named ${id} in the service catalogue`);
  return found;
}

export function jobTypeByName(type: string): JobTypeDefinition | undefined {
  return JOB_TYPES.find((job) => job.type === type);
}

/** The job type consumed from a queue. */
function jobTypeOfQueue(queue: JobQueueId): JobTypeDefinition {
  const found = JOB_TYPES.find((job) => job.queue.id === queue);
  if (!found) throw new Error(`No job type uses queue ${queue}`);
  return found;
}

/** The job that starts (or restarts) a command of this type, if one does. */
export function startingJobOf(commandType: string): JobTypeDefinition | undefined {
  return (JOB_TYPES as readonly JobTypeDefinition[]).find((job) => job.commandType === commandType && job.startsCommand);
}

/** Every command type some job type runs (the job types without a command run none). */
export function commandTypesRun(): CommandType[] {
  return [...new Set(JOB_TYPES.flatMap((job): CommandType[] => ('commandType' in job ? [job.commandType] : [])))];
}

/** The job type a worker function runs. */
export function jobTypeOfWorker(functionId: string): JobTypeDefinition | undefined {
  return JOB_TYPES.find((job) => job.worker.id === functionId);
}

/**
 * Visibility timeout of a job type's queue: six times its worker's timeout,
 * as AWS recommends for SQS event sources.
 */
export function visibilityTimeoutSeconds(queue: Pick<WorkQueue, 'id'>): number {
  return 6 * jobTypeOfQueue(queue.id).worker.timeoutSeconds;
}
