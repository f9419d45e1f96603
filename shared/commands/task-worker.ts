import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Logger } from '@aws-lambda-powertools/logger';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { jobTypeByName, type JobType } from '../catalogue/job-types';
import type { Clock } from '../platform/clock';
import { describeError, redact } from '../platform/logger';
import { noMetrics, type OperationMetrics } from '../platform/metrics';
import { noTracing, type Tracing } from '../platform/tracing';
import { PoisonJobError, type JobEnvelope } from './job';
import type { JobQueue } from './queue';
import { attemptOf, decodeJob, poisonReasonOf, retryDelayOf } from './worker';

/** What a task hands back: a word for the job's log line, and what else to log. */
export interface TaskOutcome {
  outcome: string;
  extra?: Record<string, unknown>;
}

/** What a task is given: its job, its validated input, and which attempt of the job this is (infrastructure faults). */
export interface TaskInput<Input> {
  job: JobEnvelope;
  input: Input;
  /** 1 on the job's first delivery; the last is the queue's maxReceiveCount. */
  attempt: number;
  /** The SQS message id (for the log). */
  messageId: string;
}

/**
 * One job type that runs without a command (its catalogue entry has no
 * `commandType`): a webhook delivery. It keeps its own state and must be
 * safe to run again (a redelivered message, a duplicate job). Throwing a
 * PoisonJobError, or a write DynamoDB refuses as too large, dead-letters the
 * job at once; any other error is an infrastructure fault, retried with the
 * queue's back-off.
 */
export interface TaskDefinition<Input> {
  /** The job type (shared/catalogue/job-types.ts) this worker consumes. */
  type: JobType;
  /** Reads the job's `request`; throwing makes the job poison. */
  parse(request: unknown): Input;
  run(input: TaskInput<Input>): Promise<TaskOutcome>;
}

/** Ports and limits of a task worker, built once per cold start. */
export interface TaskWorkerDependencies {
  queue: JobQueue;
  clock: Clock;
  logger: Pick<Logger, 'info' | 'warn' | 'error' | 'addContext'>;
  /** Deliveries a job gets (the queue's maxReceiveCount). */
  maxReceiveCount: number;
  /** Back-off before the next attempt after an infrastructure fault, by attempt (the queue's retryDelaysSeconds). */
  retryDelaysSeconds: readonly number[];
  /** @default none */
  metrics?: OperationMetrics;
  /** @default none */
  tracing?: Tracing;
}

/**
 * Builds the SQS batch handler of a job type without a command, with the
 * kernel's rules: each record on its own (`batchItemFailures`), poison jobs
 * dead-lettered with their reason, a fault retried as a new message after
 * its back-off (the attempt it will be carried along), the last attempt
 * dead-lettered.
 */
export function createTaskWorker<Input>(definition: TaskDefinition<Input>, deps: TaskWorkerDependencies) {
  const jobType = jobTypeByName(definition.type);
  if (!jobType) throw new Error(`Job type ${definition.type} is not in the service catalogue`);
  if (jobType.commandType) throw new Error(`Job type ${definition.type} runs a command: its worker is a job worker (worker.ts)`);
  const queue = jobType.queue.id;
  const processor = new BatchProcessor(EventType.SQS);
  const metrics = deps.metrics ?? noMetrics;

  const processRecord = async (record: SQSRecord): Promise<void> => {
    const started = deps.clock.now();
    const attempt = attemptOf(record);
    const context = { messageId: record.messageId, jobType: definition.type, attempt };
    const done = (outcome: string, extra: Record<string, unknown> = {}, warn = false) => {
      const line = { ...context, outcome, durationMs: deps.clock.now() - started, ...extra };
      if (warn) deps.logger.warn('Job done', line);
      else deps.logger.info('Job done', line);
    };
    try {
      const job = decodeJob(definition, record.body);
      let input: Input;
      try {
        input = definition.parse(job.request);
      } catch (error) {
        throw new PoisonJobError(`The job's request is invalid: ${error instanceof Error ? error.message : 'unknown problem'}`);
      }
      const result = await (deps.tracing ?? noTracing).span(`## ${definition.type}`, {}, () =>
        definition.run({ job, input, attempt, messageId: record.messageId }),
      );
      done(result.outcome, result.extra);
    } catch (error) {
      const poison = poisonReasonOf(error);
      if (poison !== undefined) {
        await deps.queue.sendToDeadLetter(queue, record.body, poison);
        metrics.count('JobDeadLettered', definition.type);
        done('dead_lettered', { reason: redact(poison) }, true);
        return;
      }
      if (attempt >= deps.maxReceiveCount) {
        await deps.queue.sendToDeadLetter(queue, record.body, `Gave up after ${attempt} attempts: ${describeError(error).name}`);
        metrics.count('JobDeadLettered', definition.type);
        done('dead_lettered', { error: describeError(error) }, true);
        return;
      }
      const delaySeconds = retryDelayOf(deps, attempt);
      await deps.queue.sendAgain(queue, record.body, delaySeconds, attempt + 1);
      metrics.count('JobRetried', definition.type);
      done('retried', { error: describeError(error), retryInSeconds: delaySeconds }, true);
    }
  };

  return async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
    if (context) deps.logger.addContext(context);
    return processPartialResponse(event, processRecord, processor, { ...(context ? { context } : {}), throwOnFullBatchFailure: false });
  };
}
