import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { queryUpTo } from '../platform/dynamodb';
import { IN_PROGRESS_ATTRIBUTE, IN_PROGRESS_SHARDS, USAGE_SHARDS, tenantUsagePartition } from './dynamo-ledger';
import { addUsage, countersOf, NO_USAGE, type UsageCounters } from './usage';

/** One daily total: a command type's usage on one site (or none) on one UTC day. */
export interface DailyUsage {
  day: string;
  type: string;
  siteId?: string;
  counters: UsageCounters;
}

/** Most daily totals one read gathers: 366 days × every command type × many sites, each over its shards. */
export const MAX_DAILY_ITEMS = 50_000;

/** Port: a tenant's usage totals, as the ledger (dynamo-ledger.ts) keeps them. */
export interface UsageTotals {
  /** The tenant's totals of one UTC month (YYYY-MM), its shards added up. */
  month(tenantId: string, month: string): Promise<UsageCounters>;
  /** The tenant's daily totals from `fromDay` to `toDay` (YYYY-MM-DD, both included), shards added up per day, type and site. */
  days(tenantId: string, fromDay: string, toDay: string): Promise<DailyUsage[]>;
  /** The tenant's commands holding in-progress places now (its shards added up). */
  inProgress(tenantId: string): Promise<number>;
}

/** UsageTotals on the single table: one Query per read (a month is USAGE_SHARDS items; days are a sort-key range). */
export function dynamoUsageTotals(db: DynamoDBDocumentClient, tableName: string): UsageTotals {
  return {
    async month(tenantId, month) {
      const items = await queryUpTo(
        db,
        {
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': tenantUsagePartition(tenantId), ':prefix': `MONTH#${month}#` },
          ConsistentRead: true,
        },
        USAGE_SHARDS,
      );
      return items.length === 0 ? NO_USAGE : addUsage(...items.map((item) => countersOf(item)));
    },

    async days(tenantId, fromDay, toDay) {
      const items = await queryUpTo(
        db,
        {
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          // `~` sorts after every character a day's sort key continues with.
          ExpressionAttributeValues: { ':pk': tenantUsagePartition(tenantId), ':from': `DAY#${fromDay}#`, ':to': `DAY#${toDay}#~` },
        },
        MAX_DAILY_ITEMS,
      );
      const merged = new Map<string, DailyUsage>();
      for (const item of items) {
        const day = String(item.day);
        const type = String(item.type);
        const siteId = typeof item.site_id === 'string' ? item.site_id : undefined;
        const key = JSON.stringify([day, type, siteId ?? null]);
        const known = merged.get(key);
        const counters = countersOf(item);
        merged.set(key, {
          day,
          type,
          ...(siteId === undefined ? {} : { siteId }),
          counters: known ? addUsage(known.counters, counters) : counters,
        });
      }
      return [...merged.values()];
    },

    async inProgress(tenantId) {
      const items = await queryUpTo(
        db,
        {
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': tenantUsagePartition(tenantId), ':prefix': 'IN_PROGRESS#' },
          ConsistentRead: true,
        },
        IN_PROGRESS_SHARDS,
      );
      return items.reduce((sum, item) => sum + (typeof item[IN_PROGRESS_ATTRIBUTE] === 'number' ? item[IN_PROGRESS_ATTRIBUTE] : 0), 0);
    },
  };
}
