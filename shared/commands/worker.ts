import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { tenantMayActOn, type TenantStore } from '../access/tenants';
import { jobTypeByName, type JobType, type JobTypeDefinition } from '../catalogue/job-types';
import { MAX_JSON_DEPTH } from '../catalogue/limits';
import type { Clock } from '../platform/clock';
import { isItemTooLarge, itemTooLargeMessage } from '../platform/dynamodb-errors';
import { AppError, GENERIC_SYSTEM_ERROR, type ErrorInfo } from '../platform/errors';
import { canonicalJson, sha256Hex } from '../platform/hashing';
import { JsonDocumentError, parseJsonDocument } from '../platform/json';
import { describeError, redact } from '../platform/logger';
import { noMetrics, type OperationMetrics } from '../platform/metrics';
import { noTracing, type Tracing } from '../platform/tracing';
import { finishCommand, replayFinishHooks, type CommandEnding, type FinishAnnouncer, type FinishHook } from './finish';
import type { IdempotencyStore } from './idempotency';
import { jobEnvelopeSchema, jobNaming, PoisonJobError, type JobEnvelope } from './job';
import { readCommand, UnreadableCommandError, type CommandKind } from './kind';
import { ATTEMPT_ATTRIBUTE, type JobQueue } from './queue';
import type { CommandWith, NoLiveFields, StoredCommand } from './record';
import { startCommand } from './start';
import { CommandGoneError, type CommandStore } from './store';
import type { CommandAdmission } from '../access/limits/admission';
import { RateLimitedError } from '../access/limits/rate-limited-error';
import { UsageMeter, usageTargetOf, withUsageMeter } from '../usage/meter';

/** What a phase hands back to the runner. */
export type PhaseOutcome =
  | CommandEnding
  /** The phase started the next phase itself; the command stays in progress. */
  | { status: 'handed_off' };

/** What a phase is given: the claimed command, read with its kind, and the job it came in. */
export interface PhaseInput<Request, Progress, Live extends object = NoLiveFields> {
  command: CommandWith<Request, Progress, Live>;
  /** The command's stored request (the same as `command.request`). */
  request: Request;
  job: JobEnvelope;
  /** 1 on the job's first attempt; the last is the queue's maxReceiveCount. */
  attempt: number;
}

/**
 * One job type's worker: the command kind it runs and its phase. A phase
 * must be safe to run again on a command it already advanced (redelivery
 * after a crash): it reads `command.progress` to skip done work.
 */
export interface JobDefinition<Request, Progress, Live extends object = NoLiveFields> {
  /** The job type (shared/catalogue/job-types.ts) this worker consumes. */
  type: JobType;
  /** How its command's stored request and progress are read. */
  kind: CommandKind<Request, Progress, Live>;
  /**
   * Validates a producer's `request` with the route's schema (job types that
   * producers may send); an AppError makes the job poison.
   */
  parseProducerRequest?: (raw: unknown) => Request;
  /** The site a request concerns (undefined for operations without one). */
  siteIdOf(request: Request): string | undefined;
  run(input: PhaseInput<Request, Progress, Live>): Promise<PhaseOutcome>;
}

/** Ports and limits of a worker, built once per cold start. */
export interface WorkerDependencies {
  commands: CommandStore;
  idempotency: IdempotencyStore;
  tenants: Pick<TenantStore, 'get'>;
  queue: JobQueue;
  clock: Clock;
  logger: Pick<Logger, 'info' | 'warn' | 'error' | 'addContext'>;
  /** How long one attempt holds its command; at least the function's timeout. */
  leaseMs: number;
  /** Attempts a job gets (the queue's maxReceiveCount, which also bounds SQS's own redeliveries). */
  maxReceiveCount: number;
  /** Back-off before the next attempt after an infrastructure fault, by attempt (the queue's retryDelaysSeconds). */
  retryDelaysSeconds: readonly number[];
  /** Counts outcomes. @default none */
  metrics?: OperationMetrics;
  /** Events written with each command this worker ends (the outbox). @default none */
  announce?: FinishAnnouncer;
  /** Run after each command this worker ends. @default none */
  onFinished?: readonly FinishHook[];
  /** Each job runs in a subsegment annotated with its command id. @default none */
  tracing?: Tracing;
  /** Holds the commands producers' jobs start to their tenants' limits; a job over one waits on its queue. @default no limits */
  admission?: CommandAdmission;
}

/** How one record ended, for the job log line. */
type RecordOutcome = 'completed' | 'failed' | 'handed_off' | 'dead_lettered' | 'duplicate' | 'busy' | 'retried' | 'erased' | 'delayed';

/** Longest SQS delay: a producer's job over a limit that resets later waits this long, again and again. */
const MAX_DELAY_SECONDS = 900;

/**
 * Builds the SQS batch handler of a worker: each record is processed on its
 * own, failures are reported per item (`batchItemFailures`), poison jobs go to
 * the dead-letter queue with their reason, and a job is never run twice on a
 * finished command.
 */
export function createJobWorker<Request, Progress, Live extends object>(
  definition: JobDefinition<Request, Progress, Live>,
  deps: WorkerDependencies,
) {
  const jobType = jobTypeByName(definition.type);
  if (!jobType) throw new Error(`Job type ${definition.type} is not in the service catalogue`);
  if (!jobType.commandType)
    throw new Error(`Job type ${definition.type} runs without a command: its worker is a task worker (task-worker.ts)`);
  if (jobType.fromProducers && !definition.parseProducerRequest)
    throw new Error(`Job type ${definition.type} takes producer jobs but has no parseProducerRequest`);
  const processor = new BatchProcessor(EventType.SQS);
  const processRecord = (record: SQSRecord) => processJobRecord(definition, deps, record);
  return async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
    if (context) deps.logger.addContext(context);
    return processPartialResponse(event, processRecord, processor, {
      ...(context ? { context } : {}),
      throwOnFullBatchFailure: false,
    });
  };
}

/**
 * Processes one SQS record. A job that failed for a fault of the
 * infrastructure is queued again after its back-off delay, as a new message
 * carrying its attempt number, and this one is done; on its last attempt
 * its command fails and the job goes to the dead-letter queue. It throws
 * only when even that could not be done (SQS then delivers it again).
 */
export async function processJobRecord<Request, Progress, Live extends object>(
  definition: JobDefinition<Request, Progress, Live>,
  deps: WorkerDependencies,
  record: SQSRecord,
): Promise<void> {
  const started = deps.clock.now();
  const attempt = attemptOf(record);
  const context: RecordContext = { messageId: record.messageId, jobType: definition.type, attempt };
  const done = (outcome: RecordOutcome, extra: Record<string, unknown> = {}) => {
    const { retryBody: _retryBody, ...logged } = context;
    const line = { ...logged, outcome, durationMs: deps.clock.now() - started, ...extra };
    if (outcome === 'failed' || outcome === 'dead_lettered' || outcome === 'retried') deps.logger.warn('Job done', line);
    else deps.logger.info('Job done', line);
  };
  try {
    const outcome = await runRecord(definition, deps, record, attempt, context);
    done(outcome.kind, outcome.extra);
  } catch (error) {
    const poison = poisonReasonOf(error);
    if (poison !== undefined) {
      await deadLetter(definition, deps, record.body, poison);
      done('dead_lettered', { reason: redact(poison) });
      return;
    }
    if (attempt >= deps.maxReceiveCount) {
      await deadLetter(definition, deps, record.body, `Gave up after ${attempt} attempts: ${describeError(error).name}`);
      done('dead_lettered', { error: describeError(error) });
      return;
    }
    const delaySeconds = retryDelayOf(deps, attempt);
    await deps.queue.sendAgain(queueOf(definition), context.retryBody ?? record.body, delaySeconds, attempt + 1);
    metricsOf(deps).count('JobRetried', definition.kind.type);
    done('retried', { error: describeError(error), retryInSeconds: delaySeconds });
  }
}

/**
 * Why a job can never succeed, when that is what `error` says: a poison job,
 * or a write DynamoDB refused as too large (the same write would be refused
 * on every attempt). Undefined for a fault worth retrying.
 */
export function poisonReasonOf(error: unknown): string | undefined {
  if (error instanceof PoisonJobError) return error.message;
  if (isItemTooLarge(error)) return tooLargeReason(error);
  return undefined;
}

const tooLargeReason = (error: Error) =>
  `A write was refused as too large for DynamoDB's 400 KB item limit (${itemTooLargeMessage(error)})`;

/** How a command whose output cannot be stored ends (a 500 code: a narrower request may well succeed). */
const OUTPUT_TOO_LARGE_ERROR: ErrorInfo = Object.freeze({
  code: 'SYSTEM_ERROR',
  message:
    'The command produced more data than can be stored (a command holds at most 400 KB), so it failed; a narrower request may succeed.',
});

/**
 * Which attempt a record is: the attempt its message carries (a job queued
 * again after a fault, or at a restart of the local runtime), plus
 * deliveries SQS made of this message beyond the first (a worker that
 * crashed or timed out).
 */
export function attemptOf(record: Pick<SQSRecord, 'messageAttributes' | 'attributes'>): number {
  const carried = Number(record.messageAttributes?.[ATTEMPT_ATTRIBUTE]?.stringValue ?? '1');
  const deliveries = Number(record.attributes?.ApproximateReceiveCount ?? '1');
  return (Number.isInteger(carried) && carried > 0 ? carried : 1) + (Number.isInteger(deliveries) && deliveries > 1 ? deliveries - 1 : 0);
}

const queueOf = <Request, Progress, Live extends object>(definition: JobDefinition<Request, Progress, Live>) =>
  jobTypeByName(definition.type)!.queue.id;

interface RecordContext {
  messageId: string;
  jobType: string;
  attempt: number;
  commandId?: string;
  /**
   * The body to queue again: once the job has its command, one that names it (a producer's job keyed by its message id must not start a
   * second command).
   */
  retryBody?: string;
}

/** What is queued again once a job has its command: a job that names it. */
const namingJob = (job: JobEnvelope, commandId: string): string => JSON.stringify(jobNaming(job.type, job.tenant_id, commandId));

async function runRecord<Request, Progress, Live extends object>(
  definition: JobDefinition<Request, Progress, Live>,
  deps: WorkerDependencies,
  record: SQSRecord,
  attempt: number,
  context: RecordContext,
): Promise<{ kind: RecordOutcome; extra?: Record<string, unknown> }> {
  const job = decodeJob(definition, record.body);
  let commandId: string;
  try {
    commandId = job.command_id ?? (await startProducerCommand(definition, deps, job, record.messageId));
  } catch (error) {
    if (!(error instanceof RateLimitedError)) throw error;
    // Over its tenant's limit: the job waits on its queue (a new message, its attempt unspent), never dead-lettered.
    const delaySeconds = Math.min(MAX_DELAY_SECONDS, Math.max(1, error.retryAfterSeconds));
    await deps.queue.sendAgain(queueOf(definition), record.body, delaySeconds, attempt);
    metricsOf(deps).count('JobDelayedByLimit', definition.kind.type);
    return { kind: 'delayed', extra: { limit: error.limit, retryInSeconds: delaySeconds } };
  }
  context.commandId = commandId;
  context.retryBody = namingJob(job, commandId);
  return (deps.tracing ?? noTracing).span(`## ${definition.type}`, { commandId }, () =>
    claimAndRun(definition, deps, job, commandId, attempt, context),
  );
}

async function claimAndRun<Request, Progress, Live extends object>(
  definition: JobDefinition<Request, Progress, Live>,
  deps: WorkerDependencies,
  job: JobEnvelope,
  commandId: string,
  attempt: number,
  context: RecordContext,
): Promise<{ kind: RecordOutcome; extra?: Record<string, unknown> }> {
  const now = deps.clock.now();
  const claim = await deps.commands.claim(commandId, { tenantId: job.tenant_id, type: definition.kind.type }, now, now + deps.leaseMs);
  switch (claim.kind) {
    case 'missing':
      throw new PoisonJobError(`No command ${commandId} exists for this job`);
    case 'erased':
      // Its tenant erased it (DELETE /api/commands/{id}): nothing is left to do, and nothing is wrong.
      return { kind: 'erased' };
    case 'mismatch':
      throw new PoisonJobError(`Command ${commandId} is not a ${definition.kind.type} command of tenant ${job.tenant_id}`);
    case 'terminal':
      // Finished by an earlier delivery, whose hooks may have failed or never run (a process that died after the
      // terminal write): they run again, idempotently, so the job is acknowledged only once they have succeeded.
      await replayFinishHooks(deps, claim.command);
      metricsOf(deps).count('DuplicateJobIgnored', claim.command.type);
      return { kind: 'duplicate' };
    case 'leased': {
      // Not a failure: the job is queued afresh for when the lease runs out, so it costs none of its attempts.
      const waitSeconds = Math.ceil(((claim.command.lease_until ?? now) - now) / 1000) + 1;
      await deps.queue.sendAgain(queueOf(definition), namingJob(job, commandId), waitSeconds, attempt);
      return { kind: 'busy', extra: { retryInSeconds: Math.min(900, waitSeconds) } };
    }
    case 'claimed':
      break;
  }
  // What the phase's providers use is counted against the command, written with its next write (shared/usage/meter.ts).
  const meter = new UsageMeter(usageTargetOf(claim.command));
  return withUsageMeter(meter, () => runClaimed(definition, deps, job, claim.command, attempt, context));
}

async function runClaimed<Request, Progress, Live extends object>(
  definition: JobDefinition<Request, Progress, Live>,
  deps: WorkerDependencies,
  job: JobEnvelope,
  claimed: StoredCommand,
  attempt: number,
  context: RecordContext,
): Promise<{ kind: RecordOutcome; extra?: Record<string, unknown> }> {
  const claim = { command: claimed };
  const commandId = claimed.id;
  if (attempt > deps.maxReceiveCount) {
    // Its attempts were all used by workers that died mid-job (the local runtime queues a job again at a restart,
    // carrying its count): a job that kills its process would otherwise run again at every start, forever.
    await finish(deps, claim.command, { status: 'failed', error: { ...GENERIC_SYSTEM_ERROR } });
    throw new PoisonJobError(`Gave up: its ${deps.maxReceiveCount} attempts were used before this one`);
  }

  let command: CommandWith<Request, Progress, Live>;
  try {
    command = readCommand(definition.kind, claim.command);
  } catch (error) {
    if (!(error instanceof UnreadableCommandError)) throw error;
    await finish(deps, claim.command, {
      status: 'failed',
      error: { ...GENERIC_SYSTEM_ERROR, message: 'The stored command could not be read; it cannot run.' },
    });
    throw new PoisonJobError(error.message, { cause: error });
  }

  let outcome: PhaseOutcome;
  try {
    outcome = await definition.run({ command, request: command.request, job, attempt });
  } catch (error) {
    if (isItemTooLarge(error)) return failTooLarge(deps, claim.command, error);
    // A write found the command gone (erased while the phase ran): the phase stops there, and so does the job.
    if (!(error instanceof AppError) && (error instanceof CommandGoneError || !(await deps.commands.get(commandId)))) {
      if (await deps.commands.wasErased(commandId)) return { kind: 'erased' };
    }
    if (!(error instanceof AppError)) {
      if (attempt >= deps.maxReceiveCount) {
        deps.logger.error('Job failed on its last attempt; command marked failed', { ...context, error: describeError(error) });
        await finish(deps, claim.command, { status: 'failed', error: { ...GENERIC_SYSTEM_ERROR } });
      } else {
        await deps.commands.release(commandId).catch(() => undefined);
      }
      throw error;
    }
    outcome = { status: 'failed', error: error.toInfo() };
  }
  if (outcome.status === 'handed_off') return { kind: 'handed_off' };
  try {
    await finish(deps, claim.command, outcome);
  } catch (error) {
    // The ending itself may be the write too large (a huge result): the command then fails without it.
    if (isItemTooLarge(error)) return failTooLarge(deps, claim.command, error);
    throw error;
  }
  return outcome.status === 'failed'
    ? { kind: 'failed', extra: { code: outcome.error.code, reason: redact(outcome.error.message) } }
    : { kind: 'completed' };
}

const finish = (deps: WorkerDependencies, command: StoredCommand, ending: CommandEnding) => finishCommand(deps, command, ending);

/**
 * A write of the job was refused as too large: no attempt could do better,
 * so the command fails at once (without the output that did not fit) and
 * the job is dead-lettered with the reason. The failure fits even an item
 * already at the limit: like every terminal write it removes the command's
 * intermediate progress.
 */
async function failTooLarge(deps: WorkerDependencies, command: StoredCommand, error: Error): Promise<never> {
  await finish(deps, command, { status: 'failed', error: { ...OUTPUT_TOO_LARGE_ERROR } });
  throw new PoisonJobError(tooLargeReason(error), { cause: error });
}

/** Seconds before the attempt after `attempt`: the back-off schedule, its last step repeating. */
export function retryDelayOf(deps: Pick<WorkerDependencies, 'retryDelaysSeconds'>, attempt: number): number {
  const delays = deps.retryDelaysSeconds;
  return delays[Math.min(attempt, delays.length) - 1] ?? 0;
}

async function deadLetter<Request, Progress, Live extends object>(
  definition: JobDefinition<Request, Progress, Live>,
  deps: WorkerDependencies,
  body: string,
  reason: string,
): Promise<void> {
  await deps.queue.sendToDeadLetter(queueOf(definition), body, reason);
  metricsOf(deps).count('JobDeadLettered', definition.kind.type);
}

const metricsOf = (deps: WorkerDependencies): OperationMetrics => deps.metrics ?? noMetrics;

/** Reads the envelope; anything wrong with the message itself makes it poison (job types with and without a command alike). */
export function decodeJob(definition: { type: string }, body: string): JobEnvelope {
  let raw: unknown;
  try {
    raw = parseJsonDocument(body, MAX_JSON_DEPTH);
  } catch (error) {
    if (error instanceof JsonDocumentError)
      throw new PoisonJobError(error.reason === 'too_deep' ? error.message : 'The message body is not JSON');
    throw error;
  }
  const parsed = jobEnvelopeSchema().safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new PoisonJobError(
      `The job envelope is invalid: ${first ? `${first.path.join('.') || 'envelope'}: ${first.message}` : 'unknown problem'}`,
    );
  }
  if (parsed.data.type !== definition.type) {
    throw new PoisonJobError(
      `Job type "${parsed.data.type}" does not belong on the ${jobTypeByName(definition.type)?.queue.id ?? definition.type} queue`,
    );
  }
  return parsed.data;
}

/**
 * A producer's job arrives without a command. Its request is validated with
 * the route's schema, its tenant must exist and may act on the request's
 * site; then it gets its command (once, even when the message is delivered
 * twice: keyed by its idempotency key, else by the SQS message id), which
 * stores the parsed request, and this worker runs it at once.
 */
async function startProducerCommand<Request, Progress, Live extends object>(
  definition: JobDefinition<Request, Progress, Live>,
  deps: WorkerDependencies,
  job: JobEnvelope,
  messageId: string,
): Promise<string> {
  const jobType: JobTypeDefinition = jobTypeByName(definition.type)!;
  if (!jobType.fromProducers || !definition.parseProducerRequest) {
    throw new PoisonJobError(`${definition.type} jobs are queued by the service only; a job without command_id is refused`);
  }
  let request: Request;
  try {
    request = definition.parseProducerRequest(job.request);
  } catch (error) {
    if (error instanceof AppError) throw new PoisonJobError(`${error.code}: ${error.message}`);
    throw error;
  }
  const siteId = definition.siteIdOf(request);
  const tenant = await deps.tenants.get(job.tenant_id);
  if (!tenant) throw new PoisonJobError(`Tenant ${job.tenant_id} is unknown`);
  if (!tenantMayActOn(tenant, siteId)) throw new PoisonJobError(`Tenant ${job.tenant_id} may not act on site ${siteId}`);
  try {
    const { command } = await startCommand(
      { ...deps },
      {
        type: definition.kind.type,
        tenantId: job.tenant_id,
        ...(siteId === undefined ? {} : { siteId }),
        request,
        idempotency: { key: job.idempotency_key ?? `sqs-message:${messageId}`, bodyHash: sha256Hex(canonicalJson(job.request)) },
        // The tenant's record, just read, brings its own limits.
        tenantLimits: tenant.limits ?? null,
      },
      'in_hand',
    );
    return command.id;
  } catch (error) {
    if (error instanceof RateLimitedError) throw error;
    if (error instanceof AppError) throw new PoisonJobError(`${error.code}: ${error.message}`);
    throw error;
  }
}
