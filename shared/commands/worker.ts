import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { JobQueueId } from '../catalogue/job-types';
import type { Clock } from '../platform/clock';
import { AppError, GENERIC_SYSTEM_ERROR, type ErrorInfo } from '../platform/errors';
import { describeError, redact } from '../platform/logger';
import { noMetrics, type OperationMetrics } from '../platform/metrics';
import { canonicalJson, sha256Hex } from '../platform/hashing';
import { newId } from '../platform/ids';
import type { IdempotencyStore } from './idempotency';
import { jobEnvelopeSchema, PoisonJobError, type JobEnvelope } from './job';
import type { JobQueue } from './queue';
import type { CommandRecord, CommandType } from './record';
import type { CommandPatch, CommandStore } from './store';

/** What a phase hands back to the runner. */
export type PhaseOutcome =
  | { status: 'completed'; result: Record<string, unknown>; patch?: CommandPatch }
  | { status: 'failed'; error: ErrorInfo; patch?: CommandPatch }
  /** The phase queued the next phase itself; the command stays in progress. */
  | { status: 'handed_off' };

/** What a phase is given: the claimed command, its validated request and the job it came in. */
export interface PhaseInput<Request> {
  command: CommandRecord;
  request: Request;
  job: JobEnvelope;
  /** 1 on first delivery of this message. */
  receiveCount: number;
}

/**
 * One job type's worker: how to read its request and how to run its phase.
 * A phase must be safe to run again on a command it already advanced
 * (redelivery after a crash): it reads `command.progress` to skip done work.
 */
export interface JobDefinition<Request> {
  queue: JobQueueId;
  /** Envelope `type`s this queue takes. */
  types: readonly CommandType[];
  /** Validates `request`; throws PoisonJobError (or returns it) when it can never be valid. */
  parseRequest(request: Record<string, unknown>): Request;
  /** The site a producer's job concerns, for the command it gets (undefined for operations without one). */
  siteIdOf(request: Request): string | undefined;
  run(input: PhaseInput<Request>): Promise<PhaseOutcome>;
}

/** Ports and limits of a worker, built once per cold start. */
export interface WorkerDependencies {
  commands: CommandStore;
  idempotency: IdempotencyStore;
  queue: JobQueue;
  clock: Clock;
  logger: Logger;
  /** How long one attempt holds its command; at least the function's timeout. */
  leaseMs: number;
  /** Deliveries after which SQS gives up on a message (the queue's maxReceiveCount). */
  maxReceiveCount: number;
  /** Counts outcomes; optional. */
  metrics?: OperationMetrics;
}

/** Thrown when another worker holds the command: the message goes back to the queue for later. */
export class CommandBusyError extends Error {
  constructor(id: string) {
    super(`Command ${id} is held by another worker`);
    this.name = 'CommandBusyError';
  }
}

/**
 * Builds the SQS batch handler of a worker: each record is processed on its
 * own, failures are reported per item (`batchItemFailures`), poison jobs go to
 * the dead-letter queue with their reason, and a job is never run twice on a
 * finished command.
 */
export function createJobWorker<Request>(definition: JobDefinition<Request>, deps: WorkerDependencies) {
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

/** Processes one SQS record; throws only when the message should be delivered again. */
export async function processJobRecord<Request>(
  definition: JobDefinition<Request>,
  deps: WorkerDependencies,
  record: SQSRecord,
): Promise<void> {
  const receiveCount = Number(record.attributes?.ApproximateReceiveCount ?? '1') || 1;
  const log = { messageId: record.messageId, queue: definition.queue, receiveCount };
  let job: JobEnvelope;
  let request: Request;
  try {
    ({ job, request } = decodeJob(definition, record.body));
  } catch (error) {
    if (!(error instanceof PoisonJobError)) throw error;
    await deadLetter(definition, deps, record.body, error.message, log);
    return;
  }

  let commandId: string;
  try {
    commandId = job.command_id ?? (await adoptProducerJob(definition, deps, job, request, record.messageId));
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    await deadLetter(definition, deps, record.body, `${error.code}: ${error.message}`, log);
    return;
  }
  const now = deps.clock.now();
  const claim = await deps.commands.claim(commandId, now, now + deps.leaseMs);
  if (claim.kind === 'missing') {
    await deadLetter(definition, deps, record.body, `No command ${commandId} exists for this job`, log);
    return;
  }
  if (claim.kind === 'terminal') {
    deps.logger.info('Job for a finished command ignored (duplicate delivery)', { ...log, commandId });
    metricsOf(deps).count('DuplicateJobIgnored', claim.command.type);
    return;
  }
  if (claim.kind === 'leased') throw new CommandBusyError(commandId);

  let outcome: PhaseOutcome;
  try {
    outcome = await definition.run({ command: claim.command, request, job, receiveCount });
  } catch (error) {
    if (error instanceof AppError) {
      outcome = { status: 'failed', error: error.toInfo() };
    } else if (receiveCount >= deps.maxReceiveCount) {
      deps.logger.error('Job failed on its last delivery; command marked failed', { ...log, commandId, error: describeError(error) });
      if (await deps.commands.fail(commandId, { ...GENERIC_SYSTEM_ERROR }, deps.clock.now())) {
        metricsOf(deps).count('CommandFailed', claim.command.type);
      }
      throw error;
    } else {
      deps.logger.warn('Job failed; it will be delivered again', { ...log, commandId, error: describeError(error) });
      await deps.commands.release(commandId).catch(() => undefined);
      metricsOf(deps).count('JobRetried', claim.command.type);
      throw error;
    }
  }
  await settle(deps, claim.command, outcome);
  if (outcome.status === 'failed') {
    deps.logger.warn('Job done: command failed', { ...log, commandId, code: outcome.error.code, reason: redact(outcome.error.message) });
  } else {
    deps.logger.info('Job done', { ...log, commandId, outcome: outcome.status });
  }
}

async function settle(deps: WorkerDependencies, command: CommandRecord, outcome: PhaseOutcome): Promise<void> {
  const now = deps.clock.now();
  switch (outcome.status) {
    case 'completed':
      if (await deps.commands.complete(command.id, outcome.result, now, outcome.patch)) metricsOf(deps).count('CommandCompleted', command.type);
      return;
    case 'failed':
      if (await deps.commands.fail(command.id, outcome.error, now, outcome.patch)) metricsOf(deps).count('CommandFailed', command.type);
      return;
    case 'handed_off':
      await deps.commands.release(command.id);
      return;
  }
}

async function deadLetter<Request>(
  definition: JobDefinition<Request>,
  deps: WorkerDependencies,
  body: string,
  reason: string,
  log: Record<string, unknown>,
): Promise<void> {
  deps.logger.warn('Poison job sent to the dead-letter queue', { ...log, reason });
  await deps.queue.sendToDeadLetter(definition.queue, body, reason);
  metricsOf(deps).count('JobDeadLettered', definition.types[0] ?? definition.queue);
}

const metricsOf = (deps: WorkerDependencies): OperationMetrics => deps.metrics ?? noMetrics;

function decodeJob<Request>(definition: JobDefinition<Request>, body: string): { job: JobEnvelope; request: Request } {
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    throw new PoisonJobError('The message body is not JSON');
  }
  const parsed = jobEnvelopeSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new PoisonJobError(
      `The job envelope is invalid: ${first ? `${first.path.join('.') || 'envelope'}: ${first.message}` : 'unknown problem'}`,
    );
  }
  const job = parsed.data as JobEnvelope;
  if (!definition.types.includes(job.type)) {
    throw new PoisonJobError(`Job type "${job.type}" does not belong on the ${definition.queue} queue`);
  }
  return { job, request: definition.parseRequest(job.request) };
}

/**
 * A producer's job arrives without a command: give it one, exactly once even
 * when the message is delivered twice (keyed by its idempotency key, else by
 * the SQS message id).
 */
async function adoptProducerJob<Request>(
  definition: JobDefinition<Request>,
  deps: WorkerDependencies,
  job: JobEnvelope,
  request: Request,
  messageId: string,
): Promise<string> {
  const candidate = newId();
  const key = job.idempotency_key ?? `sqs-message:${messageId}`;
  const now = deps.clock.now();
  const outcome = await deps.idempotency.claim({
    tenantId: job.tenant_id,
    scope: job.type,
    key,
    bodyHash: sha256Hex(canonicalJson(job.request)),
    commandId: candidate,
    now,
  });
  const commandId = outcome.kind === 'replay' ? outcome.commandId : candidate;
  const nowIso = new Date(now).toISOString();
  await deps.commands.create({
    id: commandId,
    type: job.type,
    status: 'in_progress',
    tenant_id: job.tenant_id,
    ...optionalSite(definition.siteIdOf(request)),
    request: job.request,
    idempotency_key: key,
    created_at: nowIso,
    updated_at: nowIso,
    attempts: 0,
  });
  return commandId;
}

const optionalSite = (siteId: string | undefined) => (siteId === undefined ? {} : { site_id: siteId });
