import { DEEP_RESEARCH_JOB_TYPES } from '../deep-research/catalogue';
import { LEAD_FOLLOW_UP_JOB_TYPES } from '../lead-follow-up/catalogue';
import { STAKEHOLDER_COORDINATION_JOB_TYPES } from '../stakeholder-coordination/catalogue';
import { VOICE_ASSISTANT_JOB_TYPES } from '../voice-assistant/catalogue';
import { WEBHOOKS_JOB_TYPES } from '../webhooks/catalogue';
import type { EVENT_DELIVERY_QUEUE } from './event-publishing';
import type { FunctionDefinition, FunctionId } from './functions';
import type { QueueDefinition } from './work-queue';

export type { QueueDefinition };

/**
 * One job type, declared once: the command it runs, its queue and its
 * worker (with the worker's timeout). Each feature declares its own in its
 * catalogue.ts and JOB_TYPES gathers them. Accepting a command, child
 * phases, the janitor, restart recovery, the local runtime and the CDK app
 * all read this table; adding a job type is one entry in its feature's
 * catalogue.ts, gathered here, and one worker module.
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

/** Every job type of Switchboard. */
export const JOB_TYPES = [
  ...LEAD_FOLLOW_UP_JOB_TYPES,
  ...STAKEHOLDER_COORDINATION_JOB_TYPES,
  ...DEEP_RESEARCH_JOB_TYPES,
  ...VOICE_ASSISTANT_JOB_TYPES,
  ...WEBHOOKS_JOB_TYPES,
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
