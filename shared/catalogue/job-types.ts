import type { EVENT_DELIVERY_QUEUE } from './event-publishing';
import type { JobTypeSpec } from './feature';
import { FEATURES } from './features';
import type { QueueSpec } from './work-queue';

/**
 * One job type of Switchboard: the command it runs, its queue and its
 * worker (with the worker's timeout), narrowed to the service's queues and
 * command types. Accepting a command, child phases, the janitor, restart
 * recovery, the local runtime and the CDK app all read JOB_TYPES.
 *
 * Adding a job type: its feature folder declares it in its one catalogue
 * file (`jobTypes` of `shared/<feature>/catalogue.ts`, listed once in
 * features.ts) and writes its worker entry, `functions/workers/<name>.ts`;
 * the command type, queue id and everything below follow from that entry.
 */
export type JobTypeDefinition<Queue extends string = JobQueueId, Command extends string = CommandType> = JobTypeSpec<Queue, Command>;

/** One work queue and its dead-letter queue. */
export type QueueDefinition<Id extends string = JobQueueId> = QueueSpec<Id>;

/** A job type as its feature declared it (ids literal). */
type DeclaredJobType = (typeof FEATURES)[number]['jobTypes'][number];

/** Every job type of Switchboard. */
export const JOB_TYPES: readonly DeclaredJobType[] = FEATURES.flatMap((feature): readonly DeclaredJobType[] => feature.jobTypes);

/** Id of a work queue (one per job type): the queues of the job types above. */
export type JobQueueId = (typeof JOB_TYPES)[number]['queue']['id'];

/** Fail to compile when a worker, or an event publisher, sends to a queue no job type has. */
const _workersSendToKnownQueues: [
  Exclude<(typeof JOB_TYPES)[number]['worker']['access']['sendsTo' | 'sendsToDeadLetterOf'][number], JobQueueId>,
] extends [never]
  ? true
  : false = true;
const _deliveryQueueKnown: typeof EVENT_DELIVERY_QUEUE extends JobQueueId ? true : false = true;

/** The envelope `type` of a job. */
export type JobType = (typeof JOB_TYPES)[number]['type'];

/** The operations Switchboard runs, each recorded as a command: the command types of the job types above. */
export type CommandType = Extract<(typeof JOB_TYPES)[number], { commandType: string }>['commandType'];

/** Fail to compile when a feature lists live fields for a command type no job type runs. */
const _liveFieldsOfKnownCommands: [
  Exclude<keyof Extract<(typeof FEATURES)[number], { liveFields: object }>['liveFields'], CommandType>,
] extends [never]
  ? true
  : false = true;

/** The name of a worker function (a FunctionId of functions.ts): the workers of the job types above. */
export type WorkerFunctionId = (typeof JOB_TYPES)[number]['worker']['id'];

/** A work queue with the job type it carries and the worker that consumes it (derived from JOB_TYPES). */
export interface WorkQueue extends QueueDefinition {
  jobType: JobType;
  workerFunction: WorkerFunctionId;
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
