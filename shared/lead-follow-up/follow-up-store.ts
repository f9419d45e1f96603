import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TABLE } from '../catalogue/table';
import { CommandGoneError } from '../commands/store';
import { commandInProgressCheck } from '../commands/dynamo-store';
import { queryUpTo, type TransactionItem } from '../platform/dynamodb';
import { cancellationReasons } from '../platform/dynamodb-errors';
import type { FollowUpItem } from './sequence';

/** A follow-up as stored: the response item plus its owner and origin. */
export interface StoredFollowUp extends FollowUpItem {
  tenant_id: string;
  command_id: string;
  created_at: string;
  updated_at?: string;
  /** Epoch seconds after which the table deletes it (TTL): its schedule plus COMMAND_RETENTION_DAYS. */
  expires_at?: number;
}

/**
 * Port: where scheduled follow-ups live. Saving is idempotent per item id
 * (ids are derived from the command and the position), so a sequence saved
 * twice is stored once; a scheduler reads what is due by time. Items are
 * saved only while their command is in progress (each write carries that
 * condition): a command erased meanwhile gets none (CommandGoneError).
 */
export interface FollowUpStore {
  /**
   * Writes the items that do not exist yet, each in a transaction with the
   * check that their command is in progress; returns how many were new.
   * For an attempt after one that may have saved some of them.
   */
  saveSequence(items: readonly StoredFollowUp[]): Promise<{ created: number; existing: number }>;
  /**
   * The items as table writes for the caller's own transaction, the
   * completion of their command, when the caller knows none can exist yet
   * (the first attempt at their command: their ids derive from it, and the
   * kernel's claim counted no earlier attempt). The completion's condition
   * that the command is in progress stands for the check `saveSequence`
   * adds, so they cost one transaction's puts, with no existence check and
   * no read of the command.
   */
  firstSaveItems(items: readonly StoredFollowUp[]): TransactionItem[];
  /** Scheduled follow-ups due at or before `before` (ISO 8601 UTC, as `toISOString` writes it), earliest first. */
  listDueFollowUps(before: string, limit: number): Promise<StoredFollowUp[]>;
}

const GSI = TABLE.indexes[0];
/** The due-time partition of gsi1: scheduled follow-ups, by `<scheduled_for>#<id>`. */
export const SCHEDULED_PARTITION = 'FOLLOWUP#scheduled';

export function followUpKey(id: string): { pk: string; sk: string } {
  return { pk: `FOLLOWUP#${id}`, sk: 'FOLLOWUP' };
}

/** The due-time index entry of a scheduled follow-up. */
export function dueIndexKey(item: Pick<FollowUpItem, 'id' | 'scheduled_for'>): { gsi1pk: string; gsi1sk: string } {
  return { gsi1pk: SCHEDULED_PARTITION, gsi1sk: `${item.scheduled_for}#${item.id}` };
}

/** The partition of gsi2 that holds one tenant's follow-ups of one lead. */
export function leadPartition(owner: { siteId: string; leadId: string; tenantId: string }): string {
  // Site and lead ids of a sequence are UUIDs (no '#'), so the tenant id, last, cannot make two owners meet.
  return `FOLLOWUP#LEAD#${owner.siteId}#${owner.leadId}#${owner.tenantId}`;
}

/** The lead-index entry of a follow-up: its lead's partition, in schedule order. */
export function leadIndexKey(item: Pick<StoredFollowUp, 'id' | 'scheduled_for' | 'site_id' | 'lead_id' | 'tenant_id'>): {
  gsi2pk: string;
  gsi2sk: string;
} {
  return { gsi2pk: leadPartition({ siteId: item.site_id, leadId: item.lead_id, tenantId: item.tenant_id }), gsi2sk: leadSortKey(item) };
}

/** The partition of gsi3 that holds one tenant's follow-ups across one site's leads. */
export function sitePartition(owner: { siteId: string; tenantId: string }): string {
  // Site ids of a sequence are UUIDs (no '#'), so the tenant id, last, cannot make two owners meet.
  return `FOLLOWUP#SITE#${owner.siteId}#${owner.tenantId}`;
}

/** The site-index entry of a follow-up: its site's partition, in schedule order (the same sort key as its lead's). */
export function siteIndexKey(item: Pick<StoredFollowUp, 'id' | 'scheduled_for' | 'site_id' | 'tenant_id'>): {
  gsi3pk: string;
  gsi3sk: string;
} {
  return { gsi3pk: sitePartition({ siteId: item.site_id, tenantId: item.tenant_id }), gsi3sk: leadSortKey(item) };
}

/** Sort key of a follow-up in its lead's partition. */
export function leadSortKey(item: Pick<FollowUpItem, 'id' | 'scheduled_for'>): string {
  return `${item.scheduled_for}#${item.id}`;
}

/** A follow-up's put with its index entries; `onlyNew` refuses it when the follow-up exists. */
function put(tableName: string, item: StoredFollowUp, onlyNew: boolean): TransactionItem {
  return {
    Put: {
      TableName: tableName,
      Item: { ...followUpKey(item.id), ...dueIndexKey(item), ...leadIndexKey(item), ...siteIndexKey(item), ...item },
      ...(onlyNew ? { ConditionExpression: 'attribute_not_exists(pk)' } : {}),
    },
  };
}

/**
 * FollowUpStore on the single table; the due-time query uses `gsi1`, a lead's follow-ups are listed through `gsi2`, a site's
 * through `gsi3`.
 */
export function dynamoFollowUpStore(db: DynamoDBDocumentClient, tableName: string): FollowUpStore {
  return {
    async saveSequence(items) {
      const commandId = items[0]?.command_id;
      if (commandId === undefined) return { created: 0, existing: 0 };
      if (items.some((item) => item.command_id !== commandId)) throw new Error('A sequence is saved for one command at a time');
      const commandCheck = commandInProgressCheck(tableName, commandId);
      /** Writes `writes` with the command's check last; false when the first write's own condition failed (it exists). */
      const transact = async (writes: TransactionItem[]): Promise<boolean> => {
        try {
          await db.send(new TransactWriteCommand({ TransactItems: [...writes, commandCheck] }));
          return true;
        } catch (error) {
          const reasons = cancellationReasons(error);
          if (reasons?.at(-1) === 'ConditionalCheckFailed') throw new CommandGoneError(commandId);
          if (reasons?.[0] === 'ConditionalCheckFailed') return false;
          throw error;
        }
      };
      let created = 0;
      for (const item of items) if (await transact([put(tableName, item, true)])) created += 1;
      return { created, existing: items.length - created };
    },

    firstSaveItems(items) {
      return items.map((item) => put(tableName, item, false));
    },

    async listDueFollowUps(before, limit) {
      const items = await queryUpTo(
        db,
        {
          TableName: tableName,
          IndexName: GSI.name,
          KeyConditionExpression: '#pk = :pk AND #sk < :upper',
          ExpressionAttributeNames: { '#pk': GSI.partitionKey, '#sk': GSI.sortKey },
          // Sort keys are "<iso>#<id>" and "$" sorts right after "#": everything due at `before` is included.
          ExpressionAttributeValues: { ':pk': SCHEDULED_PARTITION, ':upper': `${before}$` },
        },
        limit,
      );
      return items.map(stripKeys);
    },
  };
}

function stripKeys(item: Record<string, unknown>): StoredFollowUp {
  const { pk: _pk, sk: _sk, gsi1pk: _gpk, gsi1sk: _gsk, gsi2pk: _lpk, gsi2sk: _lsk, gsi3pk: _spk, gsi3sk: _ssk, ...rest } = item;
  return rest as unknown as StoredFollowUp;
}
