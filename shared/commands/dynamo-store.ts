import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TABLE } from '../catalogue/table';
import { queryShardsBefore, sendTransaction, type TransactionItem } from '../platform/dynamodb';
import { cancellationReasons, isConditionalCheckFailed } from '../platform/dynamodb-errors';
import { epochSeconds } from '../platform/clock';
import { currentUsageMeter, usageTargetOf, type UsageMeter } from '../usage/meter';
import {
  commandUsageKey,
  giveBackInProgressPlace,
  inProgressShardsOf,
  takeInProgressPlace,
  usageItems,
  usageItemsOf,
  type UsageEntry,
} from '../usage/dynamo-ledger';
import { countersOf, isEmptyUsage, NO_USAGE, type UsageCounters } from '../usage/usage';
import { tenantListingKeys } from './listing';
import type { NoLiveFields, StoredCommand } from './record';
import { CommandGoneError, commandKey, InProgressLimitError, type CommandStore, type EndingCommand } from './store';

/*
 * The CommandStore port on the single DynamoDB table. The port (store.ts)
 * loads no SDK, so code that only names a store, and its tests, stay light.
 */

/** How long an erased command's marker is kept: longer than any job of it can wait in a queue (SQS keeps a message at most 14 days). */
export const ERASED_MARKER_RETENTION_MS = 14 * 86_400_000;

function erasedMarkerKey(id: string): { pk: string; sk: string } {
  return { pk: commandKey(id).pk, sk: 'ERASED' };
}

/**
 * The transaction item that makes a write depend on its command: the command
 * exists and is still in progress. A write that carries it never lands for a
 * command erased (or finished) meanwhile.
 */
export function commandInProgressCheck(tableName: string, id: string): TransactionItem {
  return {
    ConditionCheck: {
      TableName: tableName,
      Key: commandKey(id),
      ConditionExpression: 'attribute_exists(pk) AND #status = :in_progress',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':in_progress': 'in_progress' },
    },
  };
}

/**
 * Commands in progress are listed in the table's overloaded index, spread
 * over a few partitions so no single one runs hot; finishing a command takes
 * it out (a sparse index: only unfinished commands are in it).
 */
const IN_PROGRESS_SHARDS = 8;
const IN_PROGRESS_INDEX = TABLE.indexes[0];
/** The tenant's listing (GET /api/commands): written once with the command, never moved. */
const LISTING_INDEX = TABLE.indexes[2];
/** A failed command's error code on its own, for the listing index (the error whole, with its details, stays out of indexes). */
const ERROR_CODE = 'error_code';

function inProgressIndexKeys(command: Pick<StoredCommand, 'id' | 'created_at'>): Record<string, string> {
  const shard = parseInt(command.id.slice(-1), 16) % IN_PROGRESS_SHARDS || 0;
  return {
    [IN_PROGRESS_INDEX.partitionKey]: `CMD#IN_PROGRESS#${shard}`,
    [IN_PROGRESS_INDEX.sortKey]: `${command.created_at}#${command.id}`,
  };
}

/** The items from a random one onwards, wrapping round: where each new command starts looking for room. */
function rotated<T>(items: readonly T[]): T[] {
  const start = Math.floor(Math.random() * items.length);
  return [...items.slice(start), ...items.slice(0, start)];
}

/** CommandStore on the single DynamoDB table. */
export function dynamoCommandStore(db: DynamoDBDocumentClient, tableName: string): CommandStore {
  // The item as stored: the kernel's fields, and its feature's live fields as the feature wrote them.
  const toRecord = <Live extends object = NoLiveFields>(item: Record<string, unknown> | undefined): StoredCommand<Live> | undefined => {
    if (!item) return undefined;
    const {
      pk: _pk,
      sk: _sk,
      [IN_PROGRESS_INDEX.partitionKey]: _ipk,
      [IN_PROGRESS_INDEX.sortKey]: _isk,
      [LISTING_INDEX.partitionKey]: _lpk,
      [LISTING_INDEX.sortKey]: _lsk,
      [ERROR_CODE]: _code,
      ...rest
    } = item;
    return rest as unknown as StoredCommand<Live>;
  };
  const leaveIndex = { [IN_PROGRESS_INDEX.partitionKey]: undefined, [IN_PROGRESS_INDEX.sortKey]: undefined };
  // A terminal write removes the command's progress: no phase runs again to need it (see CommandRecord.progress).
  const dropProgress = { progress: undefined };

  /**
   * The usage the running job's meter holds for command `id` (with `phases`, also for a phase of it: the job of a
   * phase ending its parent), taken to be written with a write to it (given back by {@link giveBack} when that write
   * does not land).
   */
  const pendingUsageOf = (id: string, phases = false): { meter?: UsageMeter; usage: UsageCounters } => {
    const meter = currentUsageMeter();
    if (!meter || (meter.target.commandId !== id && !(phases && meter.target.parentId === id))) return { usage: NO_USAGE };
    return { meter, usage: meter.take() };
  };
  const giveBack = (pending: { meter?: UsageMeter; usage: UsageCounters }) => pending.meter?.giveBack(pending.usage);

  /**
   * Updates a command still in progress, with `also` in the same transaction, and the usage the running job's meter
   * holds for it (and, with `ending`, the tenant's count of ended commands and its in-progress place given back; a
   * phase's job ending its parent brings the phase's usage along, so one write counts it and ends the parent).
   */
  const updateInProgress = async (
    id: string,
    sets: Record<string, unknown>,
    also: readonly TransactionItem[] = [],
    ending?: EndingCommand,
  ): Promise<boolean> => {
    const pending = pendingUsageOf(id, ending !== undefined);
    const now = Date.now();
    const counted: TransactionItem[] = [];
    const target = pending.meter?.target;
    const entries: UsageEntry[] = [];
    if (ending) {
      const own = target?.commandId === id;
      entries.push({
        target: own ? target : usageTargetOf(ending),
        usage: own ? pending.usage : NO_USAGE,
        at: now,
        ended: ending.parent_id === undefined,
      });
      if (!own && target && !isEmptyUsage(pending.usage)) entries.push({ target, usage: pending.usage, at: now });
    } else if (target && !isEmptyUsage(pending.usage)) {
      entries.push({ target, usage: pending.usage, at: now });
    }
    counted.push(...usageItemsOf(tableName, entries));
    if (ending?.in_progress_place !== undefined)
      counted.push(giveBackInProgressPlace(tableName, ending.tenant_id, ending.in_progress_place));
    const update = inProgressUpdate(id, sets);
    const others = [...also, ...counted];
    try {
      if (others.length === 0) await db.send(new UpdateCommand(update));
      else await sendTransaction(db, [{ Update: update }, ...others]);
      return true;
    } catch (error) {
      giveBack(pending);
      if (isConditionalCheckFailed(error) || cancellationReasons(error)?.[0] === 'ConditionalCheckFailed') return false;
      throw error;
    }
  };

  const iso = (ms: number) => new Date(ms).toISOString();

  /** The Update that sets `sets` on command `id` (an undefined value removes the field) while it is in progress. */
  const inProgressUpdate = (id: string, sets: Record<string, unknown>) => {
    const names: Record<string, string> = { '#status': 'status' };
    const values: Record<string, unknown> = { ':in_progress': 'in_progress' };
    const assignments: string[] = [];
    const removals: string[] = [];
    for (const [field, value] of Object.entries(sets)) {
      const name = `#f_${field}`;
      names[name] = field;
      if (value === undefined) {
        removals.push(name);
        continue;
      }
      values[`:v_${field}`] = value;
      assignments.push(`${name} = :v_${field}`);
    }
    const expression = [`SET ${assignments.join(', ')}`, removals.length ? `REMOVE ${removals.join(', ')}` : ''].filter(Boolean).join(' ');
    return {
      TableName: tableName,
      Key: commandKey(id),
      UpdateExpression: expression,
      ConditionExpression: 'attribute_exists(pk) AND #status = :in_progress',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    };
  };

  const store: CommandStore = {
    async create(command, options = {}) {
      // A phase's command is created with its parent's usage so far (the parent's job hands off with it).
      const pending = command.parent_id ? pendingUsageOf(command.parent_id) : { usage: NO_USAGE };
      const common: TransactionItem[] = [];
      if (command.parent_id && options.parentPatch) {
        // The parent's hand-off rides on the child's write, and its condition (in progress) stands for the check.
        const sets = { ...options.parentPatch, updated_at: command.created_at };
        common.push({ Update: inProgressUpdate(command.parent_id, sets) });
      } else if (command.parent_id) {
        common.push({
          ConditionCheck: { TableName: tableName, Key: commandKey(command.parent_id), ConditionExpression: 'attribute_exists(pk)' },
        });
      }
      if (pending.meter && !isEmptyUsage(pending.usage)) {
        common.push(...usageItems(tableName, { target: pending.meter.target, usage: pending.usage, at: Date.now() }));
      }
      // Without an in-progress limit one attempt; with one, each of the limit's shards in turn from a random one, until one has room.
      const cap = options.inProgressCap;
      const shards = cap === undefined ? [undefined] : rotated(inProgressShardsOf(cap));
      try {
        for (const place of shards) {
          const item = place ? { ...command, in_progress_place: place.shard } : command;
          const put = {
            TableName: tableName,
            Item: {
              ...commandKey(command.id),
              ...item,
              ...(command.status === 'in_progress' ? inProgressIndexKeys(command) : {}),
              ...tenantListingKeys(command),
              ...(command.error ? { [ERROR_CODE]: command.error.code } : {}),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          };
          const items: TransactionItem[] = [
            { Put: put },
            ...common,
            ...(place ? [takeInProgressPlace(tableName, command.tenant_id, place.shard, place.places)] : []),
          ];
          try {
            if (items.length === 1) await db.send(new PutCommand(put));
            else await sendTransaction(db, items);
            if (place) command.in_progress_place = place.shard;
            return true;
          } catch (error) {
            const reasons = cancellationReasons(error);
            if (isConditionalCheckFailed(error) || reasons?.[0] === 'ConditionalCheckFailed') {
              // It exists already: the usage that was to go with it goes with the job's next write instead.
              giveBack(pending);
              return false;
            }
            if (command.parent_id && reasons?.[1] === 'ConditionalCheckFailed') throw new CommandGoneError(command.parent_id);
            if (place && reasons?.at(-1) === 'ConditionalCheckFailed') continue;
            throw error;
          }
        }
        throw new InProgressLimitError(command.tenant_id, cap ?? 0);
      } catch (error) {
        giveBack(pending);
        throw error;
      }
    },

    async wasErased(id) {
      const { Item } = await db.send(
        new GetCommand({ TableName: tableName, Key: erasedMarkerKey(id), ConsistentRead: true, ProjectionExpression: 'pk' }),
      );
      return Item !== undefined;
    },

    async get<Live extends object = NoLiveFields>(id: string) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: commandKey(id), ConsistentRead: true }));
      return toRecord<Live>(Item);
    },

    async statusOf(id) {
      const { Item } = await db.send(
        new GetCommand({
          TableName: tableName,
          Key: commandKey(id),
          ConsistentRead: true,
          ProjectionExpression: '#status',
          ExpressionAttributeNames: { '#status': 'status' },
        }),
      );
      return Item?.status as StoredCommand['status'] | undefined;
    },

    async usageOf(id) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: commandUsageKey(id), ConsistentRead: true }));
      return Item ? countersOf(Item) : NO_USAGE;
    },

    async claim(id, expected, now, leaseUntil) {
      try {
        const { Attributes } = await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: commandKey(id),
            UpdateExpression: 'SET #lease = :lease, #updated = :updated ADD #attempts :one',
            ConditionExpression:
              'attribute_exists(pk) AND #status = :in_progress AND #tenant = :tenant AND #type = :type AND (attribute_not_exists(#lease) OR #lease < :now)',
            ExpressionAttributeNames: {
              '#status': 'status',
              '#tenant': 'tenant_id',
              '#type': 'type',
              '#lease': 'lease_until',
              '#updated': 'updated_at',
              '#attempts': 'attempts',
            },
            ExpressionAttributeValues: {
              ':in_progress': 'in_progress',
              ':tenant': expected.tenantId,
              ':type': expected.type,
              ':now': now,
              ':lease': leaseUntil,
              ':updated': iso(now),
              ':one': 1,
            },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return { kind: 'claimed', command: toRecord(Attributes)! };
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
        const current = await store.get(id);
        if (!current) return (await store.wasErased(id)) ? { kind: 'erased' } : { kind: 'missing' };
        if (current.tenant_id !== expected.tenantId || current.type !== expected.type) return { kind: 'mismatch', command: current };
        if (current.status !== 'in_progress') return { kind: 'terminal', command: current };
        return { kind: 'leased', command: current };
      }
    },

    async release(id) {
      await updateInProgress(id, { lease_until: undefined, updated_at: new Date().toISOString() });
    },

    async recordProgress(id, patch, now) {
      return updateInProgress(id, { ...patch, updated_at: iso(now) });
    },

    async complete(command, result, now, patch = {}, also = []) {
      return updateInProgress(
        command.id,
        {
          ...patch,
          ...dropProgress,
          status: 'completed',
          finished_at: iso(now),
          result,
          updated_at: iso(now),
          lease_until: undefined,
          ...leaveIndex,
        },
        also,
        command,
      );
    },

    async fail(command, error, now, patch = {}, also = []) {
      return updateInProgress(
        command.id,
        {
          ...patch,
          ...dropProgress,
          status: 'failed',
          finished_at: iso(now),
          error,
          [ERROR_CODE]: error.code,
          updated_at: iso(now),
          lease_until: undefined,
          ...leaveIndex,
        },
        also,
        command,
      );
    },

    async listInProgress(createdBefore, limit) {
      const family = { tableName, index: IN_PROGRESS_INDEX, partitionPrefix: 'CMD#IN_PROGRESS#', shards: IN_PROGRESS_SHARDS };
      // Index sort keys are `<created_at>#<id>`: the merge is in creation order.
      return (await queryShardsBefore(db, family, createdBefore, limit))
        .map((item) => toRecord(item)!)
        .filter((command) => command.status === 'in_progress');
    },

    async erase(id, tenantId, unchangedSince, inProgressPlace) {
      const now = Date.now();
      try {
        await db.send(
          new TransactWriteCommand({
            TransactItems: [
              // Its usage goes with it; what it used stays in its tenant's totals.
              { Delete: { TableName: tableName, Key: commandUsageKey(id) } },
              ...(inProgressPlace !== undefined && unchangedSince !== undefined
                ? [giveBackInProgressPlace(tableName, tenantId, inProgressPlace)]
                : []),
              {
                Delete: {
                  TableName: tableName,
                  Key: commandKey(id),
                  ConditionExpression: `attribute_exists(pk) AND #tenant = :tenant${unchangedSince === undefined ? '' : ' AND #updated = :updated'}`,
                  ExpressionAttributeNames: {
                    '#tenant': 'tenant_id',
                    ...(unchangedSince === undefined ? {} : { '#updated': 'updated_at' }),
                  },
                  ExpressionAttributeValues: {
                    ':tenant': tenantId,
                    ...(unchangedSince === undefined ? {} : { ':updated': unchangedSince }),
                  },
                },
              },
              {
                Put: {
                  TableName: tableName,
                  Item: {
                    ...erasedMarkerKey(id),
                    tenant_id: tenantId,
                    erased_at: new Date(now).toISOString(),
                    expires_at: epochSeconds(now + ERASED_MARKER_RETENTION_MS),
                  },
                },
              },
            ],
          }),
        );
        return true;
      } catch (error) {
        if (cancellationReasons(error)?.includes('ConditionalCheckFailed')) return false;
        throw error;
      }
    },
  };
  return store;
}
