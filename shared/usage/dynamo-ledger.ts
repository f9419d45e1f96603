import type { TransactionItem } from '../platform/dynamodb';
import { epochSeconds } from '../platform/clock';
import { sha256Hex } from '../platform/hashing';
import type { UsageTarget } from './meter';
import { addUsage, ONE_COMMAND, type UsageCounters } from './usage';

/*
 * Where usage is counted in the table, as transaction items that ride on
 * the write that makes the usage final (a command's progress, its terminal
 * state, a delivery's success): the write's own condition then decides,
 * once, whether the usage counts.
 *
 * - `CMD#<id>` / `USAGE`: one command's usage (a command's includes its
 *   phases'), shown by GET /api/commands/{id}, expiring with the command.
 * - `USAGE#<tenant>` / `DAY#<yyyy-mm-dd>#<type>#<site or ->#<shard>`: the
 *   tenant's daily totals per command type and site, for GET /api/usage.
 * - `USAGE#<tenant>` / `MONTH#<yyyy-mm>#<shard>`: the tenant's monthly
 *   totals, for its monthly caps.
 * - `USAGE#<tenant>` / `IN_PROGRESS`: the tenant's commands not yet ended.
 *
 * Totals are spread over USAGE_SHARDS items by command, so a tenant's many
 * commands ending at once do not all write (and conflict on) one item;
 * readers add the shards up.
 */

/** Items each of a tenant's daily and monthly totals is spread over. */
export const USAGE_SHARDS = 4;

/** How long the tenant's daily and monthly totals are kept (13 months: a year back from any month). */
export const USAGE_RETENTION_DAYS = 400;

const DAY_MS = 86_400_000;

/** A command's usage item. */
export function commandUsageKey(commandId: string): { pk: string; sk: string } {
  return { pk: `CMD#${commandId}`, sk: 'USAGE' };
}

/** The partition of a tenant's totals. */
export function tenantUsagePartition(tenantId: string): string {
  return `USAGE#${tenantId}`;
}

/** The tenant's in-progress counter. */
export function inProgressKey(tenantId: string): { pk: string; sk: string } {
  return { pk: tenantUsagePartition(tenantId), sk: 'IN_PROGRESS' };
}

/** The attribute of the in-progress counter. */
export const IN_PROGRESS_ATTRIBUTE = 'in_progress';

/** The shard a command's usage is added to. */
export function usageShardOf(commandId: string): number {
  return parseInt(sha256Hex(commandId).slice(0, 4), 16) % USAGE_SHARDS;
}

/** UTC day, YYYY-MM-DD. */
export const usageDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
/** UTC month, YYYY-MM. */
export const usageMonth = (ms: number): string => new Date(ms).toISOString().slice(0, 7);

/** Sort key of a daily total. */
export function dayTotalSortKey(day: string, type: string, siteId: string | undefined, shard: number): string {
  return `DAY#${day}#${type}#${siteId ?? '-'}#${shard}`;
}

/** Sort key of a monthly total. */
export function monthTotalSortKey(month: string, shard: number): string {
  return `MONTH#${month}#${shard}`;
}

/** What a usage write is: for which command, when, and whether the command ends with it. */
export interface UsageEntry {
  target: UsageTarget;
  usage: UsageCounters;
  /** Epoch ms: the day and month the usage counts in. */
  at: number;
  /** True on the terminal write of a command its tenant started (not a phase): its totals count one more command. */
  ended?: boolean;
}

/**
 * The transaction items that count a usage entry: the command's usage (and
 * its parent's), the tenant's day and month. Nothing when there is nothing
 * to count.
 */
export function usageItems(tableName: string, entry: UsageEntry): TransactionItem[] {
  const { target, at } = entry;
  const totals = entry.ended ? addUsage(entry.usage, ONE_COMMAND) : entry.usage;
  if (Object.keys(totals).length === 0) return [];
  const items: TransactionItem[] = [];
  const commandExpiresAt = target.expiresAt ?? epochSeconds(at + 90 * DAY_MS);
  if (Object.keys(entry.usage).length > 0) {
    items.push(counting(tableName, commandUsageKey(target.commandId), entry.usage, { tenant_id: target.tenantId }, commandExpiresAt));
    if (target.parentId) {
      items.push(counting(tableName, commandUsageKey(target.parentId), entry.usage, { tenant_id: target.tenantId }, commandExpiresAt));
    }
  }
  const shard = usageShardOf(target.commandId);
  const totalsExpireAt = epochSeconds(at + USAGE_RETENTION_DAYS * DAY_MS);
  const day = usageDay(at);
  items.push(
    counting(
      tableName,
      { pk: tenantUsagePartition(target.tenantId), sk: dayTotalSortKey(day, target.type, target.siteId, shard) },
      totals,
      { day, type: target.type, site_id: target.siteId ?? null },
      totalsExpireAt,
    ),
    counting(
      tableName,
      { pk: tenantUsagePartition(target.tenantId), sk: monthTotalSortKey(usageMonth(at), shard) },
      totals,
      { month: usageMonth(at) },
      totalsExpireAt,
    ),
  );
  return items;
}

/** An Update that adds `counters` to an item, setting `labels` and (once) its expiry. */
function counting(
  tableName: string,
  key: { pk: string; sk: string },
  counters: UsageCounters,
  labels: Record<string, unknown>,
  expiresAt: number,
): TransactionItem {
  const names: Record<string, string> = { '#expires': 'expires_at' };
  const values: Record<string, unknown> = { ':expires': expiresAt };
  const adds: string[] = [];
  const sets: string[] = ['#expires = if_not_exists(#expires, :expires)'];
  Object.entries(counters).forEach(([name, amount], index) => {
    names[`#c${index}`] = name;
    values[`:c${index}`] = amount;
    adds.push(`#c${index} :c${index}`);
  });
  Object.entries(labels).forEach(([name, value], index) => {
    names[`#l${index}`] = name;
    values[`:l${index}`] = value;
    sets.push(`#l${index} = :l${index}`);
  });
  return {
    Update: {
      TableName: tableName,
      Key: key,
      UpdateExpression: `SET ${sets.join(', ')}${adds.length ? ` ADD ${adds.join(', ')}` : ''}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * The item that takes one of a tenant's in-progress places with a new
 * command: refused (the transaction with it) when `cap` are taken.
 */
export function takeInProgressPlace(tableName: string, tenantId: string, cap: number | undefined): TransactionItem {
  return {
    Update: {
      TableName: tableName,
      Key: inProgressKey(tenantId),
      UpdateExpression: 'ADD #n :one',
      ...(cap === undefined ? {} : { ConditionExpression: 'attribute_not_exists(#n) OR #n < :cap' }),
      ExpressionAttributeNames: { '#n': IN_PROGRESS_ATTRIBUTE },
      ExpressionAttributeValues: { ':one': 1, ...(cap === undefined ? {} : { ':cap': cap }) },
      ...(cap === undefined ? {} : { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const }),
    },
  };
}

/** The item that gives a command's in-progress place back, with its terminal write (or its erasure). */
export function giveBackInProgressPlace(tableName: string, tenantId: string): TransactionItem {
  return {
    Update: {
      TableName: tableName,
      Key: inProgressKey(tenantId),
      UpdateExpression: 'ADD #n :minus',
      ExpressionAttributeNames: { '#n': IN_PROGRESS_ATTRIBUTE },
      ExpressionAttributeValues: { ':minus': -1 },
    },
  };
}
