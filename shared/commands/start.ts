import { startingJobOf } from '../catalogue/job-types';
import { MAX_WAIT_SECONDS } from '../catalogue/limits';
import type { Clock } from '../platform/clock';
import { epochSeconds } from '../platform/clock';
import { newId } from '../platform/ids';
import type { OperationMetrics } from '../platform/metrics';
import { finishCommand, type FinishDependencies } from './finish';
import type { IdempotencyStore } from './idempotency';
import { jobNaming, type JobEnvelope } from './job';
import type { JobQueue } from './queue';
import { DEFAULT_COMMAND_RETENTION_MS } from './retention';
import type { CommandType, NoLiveFields, StoredCommand } from './record';
import { InProgressLimitError, type CommandPatch, type CommandStore } from './store';
import type { Admission, CommandAdmission } from '../access/limits/admission';
import type { TenantLimits } from '../access/limits/tenant-limits';

/** Longer than any API function may run: a command older than this without a job will never get one from its first request. */
const FIRST_SEND_DEADLINE_MS = (MAX_WAIT_SECONDS + 10) * 1000;

/** Ports a command is started through (and, when its job cannot be queued, closed through). */
export interface StartDependencies extends FinishDependencies {
  commands: CommandStore;
  idempotency: IdempotencyStore;
  queue: Pick<JobQueue, 'send'>;
  clock: Clock;
  /** Counts started commands. @default none */
  metrics?: OperationMetrics;
  /** How long a new command is kept (COMMAND_RETENTION_DAYS, see retention.ts). @default 90 days */
  commandRetentionMs?: number;
  /** Holds the commands a tenant starts (not their phases) to its in-progress and monthly limits. @default no limits */
  admission?: CommandAdmission;
}

/** One validated request to turn into a command. */
export interface StartInput<Request, Live extends object = NoLiveFields> {
  type: CommandType;
  tenantId: string;
  /** The site the command acts on, when it acts on one. */
  siteId?: string;
  /** The validated (parsed) request: what is stored, and what every phase runs. */
  request: Request;
  /** The caller's Idempotency-Key (or a producer job's key), with the hash of the body it came with. */
  idempotency?: { key: string; bodyHash: string };
  /** The id to use (a parent names its child before creating it). @default a new id */
  id?: string;
  /** The command whose phase this one is. */
  parentId?: string;
  /** What the parent's record takes in the same write as this phase (see CreateOptions.parentPatch). */
  parentPatch?: CommandPatch;
  /** Its feature's live fields known before any worker runs (e.g. the call it will place), stored with the command. */
  initial?: Partial<Live>;
  /** How long its first job waits on the queue before a worker may take it (whole seconds, at most 900). @default 0 */
  firstJobDelaySeconds?: number;
  /** The tenant's own limits when the caller has them (its API key brought them; null: none), so admission reads no record. */
  tenantLimits?: TenantLimits | null;
}

/**
 * `queue`: send the command's first job (API requests, child phases);
 * `in_hand`: the caller already holds the job and runs it (producer jobs).
 */
export type Dispatch = 'queue' | 'in_hand';

/** The command a start created, or found already started. */
export interface StartOutcome {
  command: StoredCommand;
  /** True when an earlier start (same Idempotency-Key, or same id) created it. */
  replayed: boolean;
}

/**
 * Use case: the one way to start a command. Writes the record
 * (`in_progress`, conditional on its id being new) and then queues its first
 * job, named in the job-type table. With an Idempotency-Key, the same key
 * and body within 24 h give back the first start's command and queue nothing
 * new (unless its job never reached the queue).
 */
export async function startCommand<Request, Live extends object = NoLiveFields>(
  deps: StartDependencies,
  input: StartInput<Request, Live>,
  dispatch: Dispatch = 'queue',
): Promise<StartOutcome> {
  let commandId = input.id ?? newId();
  let claimedKey = false;
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
        if (dispatch === 'queue') await requeueIfStranded(deps, existing);
        return { command: existing, replayed: true };
      }
      // The first start died between claiming the key and writing the command: finish its work.
      commandId = outcome.commandId;
    } else {
      claimedKey = true;
    }
  }
  // A start refused by a limit writes nothing: the caller's Idempotency-Key stays free for its retry, with any body.
  const releaseKey = async () => {
    if (input.idempotency && claimedKey) {
      await deps.idempotency.release({ tenantId: input.tenantId, scope: input.type, key: input.idempotency.key, commandId });
    }
  };
  // A tenant past a monthly cap is refused before its command is written (a retry of a start it already made, above, is
  // answered with that command); its in-progress limit holds the write itself.
  let admission: Admission = {};
  try {
    if (input.parentId === undefined && deps.admission) {
      admission = await deps.admission.admit(input.tenantId, spendsOf(input.type), input.tenantLimits);
    }
  } catch (error) {
    await releaseKey();
    throw error;
  }

  const command = newCommandRecord(deps.clock.now(), commandId, input, deps.commandRetentionMs ?? DEFAULT_COMMAND_RETENTION_MS);
  let created: boolean;
  try {
    created = await deps.commands.create(command, input.parentPatch ? { ...admission, parentPatch: input.parentPatch } : admission);
  } catch (error) {
    if (!(error instanceof InProgressLimitError) || !deps.admission) throw error;
    await releaseKey();
    deps.metrics?.count('CommandRefusedByLimit', input.type);
    throw deps.admission.inProgressRefusal(error.cap);
  }
  if (!created) {
    const existing = await deps.commands.get(commandId);
    if (existing) {
      // Only a retried start reaches here; its job may not have been sent the first time.
      if (dispatch === 'queue' && existing.status === 'in_progress' && existing.attempts === 0)
        await sendFirstJob(deps, existing, input.firstJobDelaySeconds);
      return { command: existing, replayed: true };
    }
  }
  if (dispatch === 'queue') {
    try {
      await sendFirstJob(deps, command, input.firstJobDelaySeconds);
    } catch (error) {
      await closeUnqueued(deps, command, input.idempotency !== undefined).catch(() => undefined);
      throw error;
    }
  }
  deps.metrics?.count('CommandAccepted', command.type);
  return { command, replayed: false };
}

/** What a command of this type spends against its tenant's monthly caps (its starting job type's `spends`). */
function spendsOf(type: CommandType): readonly ('model_tokens' | 'searches')[] {
  return startingJobOf(type)?.spends ?? ['model_tokens'];
}

/** The record of a new command, in progress, expiring `retentionMs` after now. */
function newCommandRecord<Request, Live extends object>(
  now: number,
  id: string,
  input: StartInput<Request, Live>,
  retentionMs: number,
): StoredCommand<Live> {
  const nowIso = new Date(now).toISOString();
  const live: Partial<Live> = input.initial ?? {};
  return {
    ...live,
    id,
    type: input.type,
    status: 'in_progress',
    tenant_id: input.tenantId,
    ...(input.siteId === undefined ? {} : { site_id: input.siteId }),
    request: input.request,
    ...(input.parentId === undefined ? {} : { parent_id: input.parentId }),
    created_at: nowIso,
    updated_at: nowIso,
    attempts: 0,
    ...(input.idempotency ? { idempotency_key: input.idempotency.key } : {}),
    expires_at: epochSeconds(now + retentionMs),
  };
}

/** The job that runs a command's first phase: it names the command, whose stored request is what runs. */
export function jobFor(command: Pick<StoredCommand, 'id' | 'type' | 'tenant_id'>): JobEnvelope {
  const job = startingJobOf(command.type);
  if (!job) throw new Error(`No job type starts a ${command.type} command`);
  return jobNaming(job.type, command.tenant_id, command.id);
}

/** Queues the first job of a command (again: a worker runs a command's job only once). */
export async function sendFirstJob(
  deps: { queue: Pick<JobQueue, 'send'> },
  command: Pick<StoredCommand, 'id' | 'type' | 'tenant_id'>,
  delaySeconds?: number,
): Promise<void> {
  const job = startingJobOf(command.type);
  if (!job) throw new Error(`No job type starts a ${command.type} command`);
  await deps.queue.send(job.queue.id, jobFor(command), delaySeconds);
}

/**
 * The first job could not be queued. With an Idempotency-Key the caller's
 * retry queues it again, so the command waits, marked; without one nobody
 * can, so it is closed.
 */
async function closeUnqueued(deps: StartDependencies, command: StoredCommand, retryable: boolean): Promise<void> {
  const now = deps.clock.now();
  if (retryable) {
    await deps.commands.recordProgress(command.id, { enqueue_failed_at: new Date(now).toISOString() }, now);
  } else {
    await finishCommand(deps, command, {
      status: 'failed',
      error: { code: 'SYSTEM_ERROR', message: 'The command could not be queued; nothing was done. Retry the request.' },
    });
  }
}

/**
 * A replay finds the first request's command. If its job never reached the
 * queue (the send failed, or the first request died between the write and
 * the send, which is certain once the API's timeout has passed) and no
 * worker has taken it up, the job is sent now; otherwise nothing is queued.
 */
async function requeueIfStranded(deps: StartDependencies, command: StoredCommand): Promise<void> {
  if (command.status !== 'in_progress' || command.attempts > 0) return;
  const age = deps.clock.now() - Date.parse(command.created_at);
  if (!command.enqueue_failed_at && age <= FIRST_SEND_DEADLINE_MS) return;
  await sendFirstJob(deps, command);
  if (command.enqueue_failed_at) {
    await deps.commands.recordProgress(command.id, { enqueue_failed_at: undefined }, deps.clock.now());
  }
}
