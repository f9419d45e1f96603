import type { TableGrant } from './table';

/**
 * What a function that ends commands (or writes usage with their writes) also writes: the usage counted with a command's
 * writes, its tenant's daily and monthly totals and in-progress places (shared/usage/dynamo-ledger.ts). Every worker gets it;
 * other functions name it where they end commands or count usage.
 */
export const USAGE_LEDGER_GRANTS = [{ actions: ['UpdateItem'], keyPrefixes: ['USAGE#'] }] as const satisfies readonly TableGrant[];

/**
 * What holding a tenant's commands to its in-progress limit adds where they start (shared/access/limits/admission.ts; the
 * tenant's record is read already): its Idempotency-Key given back when the limit refuses the command.
 */
export const COMMAND_ADMISSION_GRANTS = [{ actions: ['DeleteItem'], keyPrefixes: ['IDEM#'] }] as const satisfies readonly TableGrant[];

/**
 * What a function that starts commands spending model tokens or searches adds to hold them to their tenant's monthly caps:
 * the month's totals (`USAGE#`, one Query).
 */
export const MONTHLY_CAP_GRANTS = [{ actions: ['Query'], keyPrefixes: ['USAGE#'] }] as const satisfies readonly TableGrant[];

/**
 * What starting a command takes (shared/commands/start.ts): authenticate the
 * caller's key, claim the request's Idempotency-Key, write the command and
 * read it back (on a replay, and while the caller waits), or mark or close it
 * when its first job cannot be queued.
 */
export const COMMAND_START_TABLE_GRANTS = [
  // The caller's API key: its tenant and the sites it covers.
  { actions: ['GetItem'], keyPrefixes: ['APIKEY#'] },
  // The command: written once (a conditional PutItem), read back on a replay and while the caller waits, and marked
  // (enqueue_failed_at) or failed with an UpdateItem when its first job cannot be queued.
  { actions: ['GetItem', 'PutItem', 'UpdateItem'], keyPrefixes: ['CMD#'] },
  // The Idempotency-Key: claimed once (a conditional PutItem), read back by a repeat of the request.
  { actions: ['GetItem', 'PutItem'], keyPrefixes: ['IDEM#'] },
] as const satisfies readonly TableGrant[];

/**
 * What an API function needs to accept a command (shared/commands/start.ts
 * behind its route): starting it, held to its tenant's in-progress limit
 * (the place it takes, and the Idempotency-Key given back when refused). A
 * feature's accept function spreads these and adds only what its own request
 * reads (a site, a conversation), and MONTHLY_CAP_GRANTS when its command
 * spends model tokens or searches.
 */
export const COMMAND_ACCEPT_TABLE_GRANTS = [
  ...COMMAND_START_TABLE_GRANTS,
  ...COMMAND_ADMISSION_GRANTS,
  // The command's in-progress place, taken with it (and given back when it is closed unqueued).
  ...USAGE_LEDGER_GRANTS,
] as const satisfies readonly TableGrant[];

/**
 * What a worker whose job type takes producer jobs (`fromProducers`) needs
 * before it starts their command (shared/commands/worker.ts): the tenant's
 * record (it must exist and may act on the job's site), then the job's
 * Idempotency-Key, so a producer's job sent twice starts one command. The
 * command's own grant is the worker's (its phase writes it too).
 */
export const PRODUCER_JOB_TABLE_GRANTS = [
  { actions: ['GetItem'], keyPrefixes: ['TENANT#'] },
  { actions: ['GetItem', 'PutItem'], keyPrefixes: ['IDEM#'] },
  ...COMMAND_ADMISSION_GRANTS,
] as const satisfies readonly TableGrant[];
