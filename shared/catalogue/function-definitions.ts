import { TENANT_LIMIT_SETTINGS } from '../access/limits/tenant-limits';
import { USAGE_LEDGER_GRANTS } from './command-start';
import { ERASER_FUNCTION, type FeatureCatalogue } from './feature';
import { FEATURES } from './features';
import type { FunctionAccessSpec, FunctionSpec } from './function-spec';
import type { TableGrant } from './table';
import { JOB_TYPES, type JobQueueId, type WorkerFunctionId } from './job-types';

/** What a function touches, from which its IAM grants are derived. */
export type FunctionAccess<Queue extends string = JobQueueId> = FunctionAccessSpec<Queue>;

/** One Lambda function of Switchboard: its source module, sizing and access. */
export type FunctionDefinition<Id extends string = FunctionId, Queue extends string = JobQueueId> = FunctionSpec<Id, Queue>;

/** A function behind a route or on a timer, as its feature declared it (ids literal). */
export type DeclaredFunction = (typeof FEATURES)[number]['functions'][number];

/** The name of a deployed function. */
export type FunctionId = DeclaredFunction['id'] | WorkerFunctionId;

/** The name of a function on a timer (an EventBridge schedule in AWS). */
export type ScheduledFunctionId = Extract<DeclaredFunction, { kind: 'scheduled' }>['id'];

/** The queues of the job types that start a command: where the janitor queues their first jobs again. */
const STARTING_QUEUES: JobQueueId[] = JOB_TYPES.filter((job) => job.startsCommand).map((job) => job.queue.id);

/** A declared function with its access complete: `sendsToEveryStartingQueue` spelled out in `sendsTo`, so readers see only the queues. */
function withStartingQueues(definition: DeclaredFunction): FunctionDefinition {
  if (!('sendsToEveryStartingQueue' in definition.access)) return definition;
  const { sendsToEveryStartingQueue, ...access } = definition.access;
  return { ...definition, access: { ...access, sendsTo: [...(sendsToEveryStartingQueue ? STARTING_QUEUES : []), ...access.sendsTo] } };
}

/** What features keep with their commands, which the eraser deletes with them (FeatureCatalogue.erasedWithCommand). */
const ERASED_WITH_COMMANDS: readonly TableGrant[] = (FEATURES as readonly FeatureCatalogue[]).flatMap(
  (feature) => feature.erasedWithCommand ?? [],
);

/** The eraser with the grants of what features keep with their commands. */
function withErasedItems(definition: FunctionDefinition): FunctionDefinition {
  if (definition.id !== ERASER_FUNCTION) return definition;
  return { ...definition, access: { ...definition.access, table: [...definition.access.table, ...ERASED_WITH_COMMANDS] } };
}

/**
 * What a function that authenticates API keys reads besides the key: its tenant's limits, and the tenant's request-rate
 * bucket it takes from (shared/composition/adapters.ts `authenticatorOf`).
 */
const TENANT_LIMIT_GRANTS: readonly TableGrant[] = [
  { actions: ['GetItem'], keyPrefixes: ['TENANT#'] },
  { actions: ['UpdateItem'], keyPrefixes: ['RATE#'] },
];

/**
 * A function that reads API keys with the grants of the limits every authenticated request is held to, and the settings
 * of their defaults (`providerSettings` of infra/config.ts sets them in AWS).
 */
function withTenantLimits(definition: FunctionDefinition): FunctionDefinition {
  const authenticates = definition.access.table.some((grant) => !grant.index && grant.keyPrefixes.includes('APIKEY#'));
  if (!authenticates) return definition;
  return {
    ...definition,
    access: { ...definition.access, table: [...definition.access.table, ...TENANT_LIMIT_GRANTS] },
    settings: [...(definition.settings ?? []), ...Object.values(TENANT_LIMIT_SETTINGS)],
  };
}

/** True when the function already holds every action of `grant` on each of its prefixes. */
function holds(definition: FunctionDefinition, grant: TableGrant): boolean {
  return grant.actions.every((action) =>
    grant.keyPrefixes.every((prefix) =>
      definition.access.table.some(
        (held) =>
          !held.index && (held.keyPrefixes as readonly string[]).includes(prefix) && (held.actions as readonly string[]).includes(action),
      ),
    ),
  );
}

/**
 * A worker (every one ends commands) with the ledger's grants; one that holds the commands it starts to their tenant's limits
 * (COMMAND_ADMISSION_GRANTS in its catalogue entry) with the TENANT_* settings of their defaults.
 */
function withUsageAndLimits(definition: FunctionDefinition): FunctionDefinition {
  const writesCommands = definition.kind === 'worker' && holds(definition, { actions: ['UpdateItem'], keyPrefixes: ['CMD#'] });
  const admits = holds(definition, { actions: ['DeleteItem'], keyPrefixes: ['IDEM#'] });
  if (!writesCommands && !admits) return definition;
  const settings = new Set([...(definition.settings ?? []), ...(admits ? Object.values(TENANT_LIMIT_SETTINGS) : [])]);
  return {
    ...definition,
    access: {
      ...definition.access,
      table: [...definition.access.table, ...(writesCommands ? USAGE_LEDGER_GRANTS.filter((grant) => !holds(definition, grant)) : [])],
    },
    ...(settings.size > 0 ? { settings: [...settings] } : {}),
  };
}

/**
 * Every function code split, unless its entry says otherwise: what only some invocations reach through `import()` (the
 * SDK's other credential providers among them, about a third of the SDK code a client loads) stays out of its cold
 * start (FunctionDefinition.lazyChunks).
 */
function withCodeSplitting<Definition extends FunctionDefinition>(definition: Definition): Definition {
  return definition.lazyChunks === undefined ? { ...definition, lazyChunks: true } : definition;
}

/** The definition of a function as deployed: as its feature or job type declared it, with what the catalogue adds. */
function derive(id: string): FunctionDefinition | undefined {
  const declared = FEATURES.flatMap((feature): readonly DeclaredFunction[] => feature.functions).find((fn) => fn.id === id);
  if (declared) return withCodeSplitting(withUsageAndLimits(withTenantLimits(withErasedItems(withStartingQueues(declared)))));
  const worker = JOB_TYPES.find((job) => job.worker.id === id)?.worker;
  return worker && withCodeSplitting(withUsageAndLimits(worker));
}

const DERIVED = new Map<string, FunctionDefinition>();

/**
 * One function's definition as deployed (an entry of FUNCTIONS, the same object), derived on first use: a function's
 * cold start reads its own definition without deriving the service's every other (functions.ts).
 */
export function functionById(id: FunctionId): FunctionDefinition {
  let found = DERIVED.get(id);
  if (found) return found;
  found = derive(id);
  if (!found) throw new Error(`No function named ${id} in the service catalogue`);
  DERIVED.set(id, found);
  return found;
}
