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
 * - `USAGE#CMD#<id>` / `USAGE`: one command's usage (a command's includes
 *   its phases'), shown by GET /api/commands/{id}, expiring with the
 *   command, labelled with its tenant, type and site (so usage made final
 *   outside its jobs, a delivery of its events, finds them). Tenant ids are
 *   lower-case and never `CMD#…`, so it never meets a tenant's partition.
 * - `USAGE#<tenant>` / `DAY#<yyyy-mm-dd>#<type>#<site or ->#<shard>`: the
 *   tenant's daily totals per command type and site, for GET /api/usage.
 * - `USAGE#<tenant>` / `MONTH#<yyyy-mm>#<shard>`: the tenant's monthly
 *   totals, for its monthly caps.
 * - `USAGE#<tenant>` / `IN_PROGRESS#<shard>`: the tenant's commands not yet
 *   ended, its in-progress limit split over the shards.
 *
 * Totals are spread over USAGE_SHARDS items by command, so a tenant's many
 * commands ending at once do not all write (and conflict on) one item;
 * readers add the shards up. In-progress places are spread the same way: a
 * new command tries a shard picked at random and, when that one is full,
 * the others in turn, so the limit stays exact and a burst of one tenant's
 * requests does not queue on one item.
 */

/** Items each of a tenant's daily and monthly totals is spread over. */
export const USAGE_SHARDS = 4;

/** How long the tenant's daily and monthly totals are kept (13 months: a year back from any month). */
export const USAGE_RETENTION_DAYS = 400;

const DAY_MS = 86_400_000;

/** A command's usage item. */
export function commandUsageKey(commandId: string): { pk: string; sk: string } {
  return { pk: `USAGE#CMD#${commandId}`, sk: 'USAGE' };
}

/** The partition of a tenant's totals. */
export function tenantUsagePartition(tenantId: string): string {
  return `USAGE#${tenantId}`;
}

/** Most items a tenant's in-progress places are spread over. */
export const IN_PROGRESS_SHARDS = 4;

/** One of the tenant's in-progress counters. */
export function inProgressKey(tenantId: string, shard: number): { pk: string; sk: string } {
  return { pk: tenantUsagePartition(tenantId), sk: `IN_PROGRESS#${shard}` };
}

/**
 * How an in-progress limit is split: up to IN_PROGRESS_SHARDS shards (never more than the limit), whose places add up to it
 * exactly. Each entry is a shard's number and its places.
 */
export function inProgressShardsOf(cap: number): { shard: number; places: number }[] {
  const shards = Math.max(1, Math.min(IN_PROGRESS_SHARDS, cap));
  return Array.from({ length: shards }, (_, shard) => ({
    shard,
    places: Math.floor(cap / shards) + (shard < cap % shards ? 1 : 0),
  }));
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
  return usageItemsOf(tableName, [entry]);
}

/**
 * The transaction items that count several usage entries in one write (a
 * phase's usage riding on its parent's terminal write): entries that reach
 * the same item (the parent's usage, a month shard) are added up into one
 * update, as a transaction may name an item only once.
 */
export function usageItemsOf(tableName: string, entries: readonly UsageEntry[]): TransactionItem[] {
  const counts = new Map<string, Count>();
  const add = (count: Count) => {
    const id = `${count.key.pk}|${count.key.sk}`;
    const earlier = counts.get(id);
    if (!earlier) counts.set(id, count);
    else
      counts.set(id, { ...earlier, counters: addUsage(earlier.counters, count.counters), labels: { ...earlier.labels, ...count.labels } });
  };
  for (const entry of entries) countsOf(entry).forEach(add);
  return [...counts.values()].map((count) => counting(tableName, count));
}

/** What one write adds to one item: its counters, the labels it sets, and the expiry it gets if it has none. */
interface Count {
  key: { pk: string; sk: string };
  counters: UsageCounters;
  labels: Record<string, unknown>;
  expiresAt: number;
}

function countsOf(entry: UsageEntry): Count[] {
  const { target, at } = entry;
  const totals = entry.ended ? addUsage(entry.usage, ONE_COMMAND) : entry.usage;
  if (Object.keys(totals).length === 0) return [];
  const counts: Count[] = [];
  const commandExpiresAt = target.expiresAt ?? epochSeconds(at + 90 * DAY_MS);
  // A command's terminal write labels its usage item even when it used nothing: what counts on it later (its events'
  // deliveries, its call's seconds) finds its tenant, type and site there.
  if (Object.keys(entry.usage).length > 0 || entry.ended) {
    const labels = { tenant_id: target.tenantId, type: target.type, site_id: target.siteId ?? null };
    counts.push({ key: commandUsageKey(target.commandId), counters: entry.usage, labels, expiresAt: commandExpiresAt });
    if (target.parentId && Object.keys(entry.usage).length > 0) {
      // The parent's own labels are its own: only its counters grow here.
      const parent = { tenant_id: target.tenantId };
      counts.push({ key: commandUsageKey(target.parentId), counters: entry.usage, labels: parent, expiresAt: commandExpiresAt });
    }
  }
  const shard = usageShardOf(target.commandId);
  const totalsExpireAt = epochSeconds(at + USAGE_RETENTION_DAYS * DAY_MS);
  const day = usageDay(at);
  counts.push(
    {
      key: { pk: tenantUsagePartition(target.tenantId), sk: dayTotalSortKey(day, target.type, target.siteId, shard) },
      counters: totals,
      labels: { day, type: target.type, site_id: target.siteId ?? null },
      expiresAt: totalsExpireAt,
    },
    {
      key: { pk: tenantUsagePartition(target.tenantId), sk: monthTotalSortKey(usageMonth(at), shard) },
      counters: totals,
      labels: { month: usageMonth(at) },
      expiresAt: totalsExpireAt,
    },
  );
  return counts;
}

/** An Update that adds a count's counters to its item, setting its labels and (once) its expiry. */
function counting(tableName: string, { key, counters, labels, expiresAt }: Count): TransactionItem {
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
 * The item that takes one of a shard's in-progress places with a new
 * command: refused (the transaction with it) when its `places` are taken.
 */
export function takeInProgressPlace(tableName: string, tenantId: string, shard: number, places: number): TransactionItem {
  return {
    Update: {
      TableName: tableName,
      Key: inProgressKey(tenantId, shard),
      UpdateExpression: 'ADD #n :one',
      ConditionExpression: 'attribute_not_exists(#n) OR #n < :places',
      ExpressionAttributeNames: { '#n': IN_PROGRESS_ATTRIBUTE },
      ExpressionAttributeValues: { ':one': 1, ':places': places },
    },
  };
}

/** The item that gives a command's in-progress place back to its shard, with its terminal write (or its erasure). */
export function giveBackInProgressPlace(tableName: string, tenantId: string, shard: number): TransactionItem {
  return {
    Update: {
      TableName: tableName,
      Key: inProgressKey(tenantId, shard),
      UpdateExpression: 'ADD #n :minus',
      ExpressionAttributeNames: { '#n': IN_PROGRESS_ATTRIBUTE },
      ExpressionAttributeValues: { ':minus': -1 },
    },
  };
}
