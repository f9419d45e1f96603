import { MAX_WAIT_SECONDS } from '../catalogue/limits';
import type { JobQueueId } from '../catalogue/job-types';
import type { Clock } from '../platform/clock';
import { newId } from '../platform/ids';
import type { OperationMetrics } from '../platform/metrics';
import type { IdempotencyStore } from './idempotency';
import { JOB_ENVELOPE_VERSION, type JobEnvelope } from './job';
import type { JobQueue } from './queue';
import type { CommandRecord, CommandType } from './record';
import type { CommandStore } from './store';

/** Longer than any API function may run: a command older than this without a job will never get one from its first request. */
export const FIRST_SEND_DEADLINE_MS = (MAX_WAIT_SECONDS + 10) * 1000;

/** Ports the accept use case writes through. */
export interface AcceptDependencies {
  commands: CommandStore;
  idempotency: IdempotencyStore;
  queue: JobQueue;
  clock: Clock;
  /** Counts accepted commands; optional. */
  metrics?: OperationMetrics;
}

/** One validated request to turn into a command. */
export interface AcceptInput {
  type: CommandType;
  /** The queue of the command's first phase. */
  queue: JobQueueId;
  tenantId: string;
  /** The site the command acts on, when it acts on one. */
  siteId?: string;
  /** The validated request, stored on the command and sent in the job. */
  request: Record<string, unknown>;
  /** The caller's Idempotency-Key, with the hash of the body it came with. */
  idempotency?: { key: string; bodyHash: string };
  /** Seed fields known before any worker runs (targets, context, task, ...). */
  initial?: Partial<Pick<CommandRecord, 'targets' | 'context' | 'supervisors' | 'task' | 'description' | 'progress'>>;
}

/** The command the request created or replayed. */
export interface AcceptOutcome {
  command: CommandRecord;
  /** True when an earlier request with the same Idempotency-Key created the command. */
  replayed: boolean;
}

/**
 * Use case: records a new command `in_progress` and queues its first job.
 * With an Idempotency-Key, the same key and body within 24 h returns the
 * command of the first request and queues nothing new.
 */
export async function acceptCommand(deps: AcceptDependencies, input: AcceptInput): Promise<AcceptOutcome> {
  let commandId = newId();
  if (input.idempotency) {
    const outcome = await deps.idempotency.claim({
      tenantId: input.tenantId,
      scope: input.type,
      key: input.idempotency.key,
      bodyHash: input.idempotency.bodyHash,
      commandId,
      now: deps.clock.now(),
    });
    if (outcome.kind === 'replay') {
      const existing = await deps.commands.get(outcome.commandId);
      if (existing) {
        await requeueIfStranded(deps, existing, input);
        return { command: existing, replayed: true };
      }
      // The first request died between claiming the key and writing the command: finish its work.
      commandId = outcome.commandId;
    }
  }

  const nowIso = new Date(deps.clock.now()).toISOString();
  const command: CommandRecord = {
    id: commandId,
    type: input.type,
    status: 'in_progress',
    tenant_id: input.tenantId,
    ...(input.siteId === undefined ? {} : { site_id: input.siteId }),
    request: input.request,
    ...input.initial,
    created_at: nowIso,
    updated_at: nowIso,
    attempts: 0,
    ...(input.idempotency ? { idempotency_key: input.idempotency.key } : {}),
  };
  if (!(await deps.commands.create(command))) {
    const existing = await deps.commands.get(commandId);
    if (existing) return { command: existing, replayed: true };
  }
  try {
    await deps.queue.send(input.queue, jobFor(command));
  } catch (error) {
    // With an Idempotency-Key the caller's retry re-queues this command; without one nobody can, so close it.
    const now = deps.clock.now();
    const settled = input.idempotency
      ? deps.commands.recordProgress(command.id, { enqueue_failed_at: new Date(now).toISOString() }, now)
      : deps.commands.fail(command.id, { code: 'SYSTEM_ERROR', message: 'The command could not be queued; nothing was done. Retry the request.' }, now);
    await settled.catch(() => undefined);
    throw error;
  }
  deps.metrics?.count('CommandAccepted', command.type);
  return { command, replayed: false };
}

/** The job that starts a command's first phase. */
export function jobFor(command: CommandRecord): JobEnvelope {
  return {
    version: JOB_ENVELOPE_VERSION,
    type: command.type,
    tenant_id: command.tenant_id,
    command_id: command.id,
    request: command.request,
    ...(command.idempotency_key ? { idempotency_key: command.idempotency_key } : {}),
  };
}

/**
 * A replay finds the first request's command. If its job never reached the
 * queue (the send failed, or the first request died between the write and
 * the send, which is certain once the API's timeout has passed) and no
 * worker has taken it up, the job is sent now; otherwise nothing is queued.
 */
async function requeueIfStranded(deps: AcceptDependencies, command: CommandRecord, input: AcceptInput): Promise<void> {
  if (command.status !== 'in_progress' || command.attempts > 0) return;
  const age = deps.clock.now() - Date.parse(command.created_at);
  if (!command.enqueue_failed_at && age <= FIRST_SEND_DEADLINE_MS) return;
  await deps.queue.send(input.queue, jobFor(command));
  if (command.enqueue_failed_at) {
    await deps.commands.recordProgress(command.id, { enqueue_failed_at: undefined }, deps.clock.now());
  }
}
