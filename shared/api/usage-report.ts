import type { DailyUsage } from '../usage/dynamo-usage-totals';
import { addUsage, commandsCounted, NO_USAGE, usageView, type UsageCounters, type UsageView } from '../usage/usage';

/** How `GET /api/usage` (and `npm run usage`) may split its totals. */
export const USAGE_GROUPINGS = ['day', 'type', 'site'] as const;
export type UsageGrouping = (typeof USAGE_GROUPINGS)[number];

/** One total: the commands that ended, and what was used. */
export type UsageTotal = { commands: number } & UsageView;

/** One group of `groups`: its key (`day`, `type` or `site_id`), then its total. */
export type UsageGroup = ({ day: string } | { type: string } | { site_id: string | null }) & UsageTotal;

/** `data` of `GET /api/usage`: the range, its total, and its groups when asked for. */
export interface UsageReport {
  from: string;
  to: string;
  group_by?: UsageGrouping;
  totals: UsageTotal;
  groups?: UsageGroup[];
}

/**
 * The report of a tenant's daily totals from `from` to `to` (both
 * included): everything added up, and with `groupBy` added up per day
 * (ascending), per command type (by name) or per site (by id; commands
 * without a site last, as `site_id: null`). Groups with no usage are left out.
 */
export function usageReport(days: readonly DailyUsage[], from: string, to: string, groupBy?: UsageGrouping): UsageReport {
  const totals = totalOf(addUsage(NO_USAGE, ...days.map((day) => day.counters)));
  if (!groupBy) return { from, to, totals };
  const byKey = new Map<string | null, UsageCounters>();
  for (const day of days) {
    const key = groupBy === 'day' ? day.day : groupBy === 'type' ? day.type : (day.siteId ?? null);
    byKey.set(key, addUsage(byKey.get(key) ?? NO_USAGE, day.counters));
  }
  const groups = [...byKey.entries()]
    .sort(([a], [b]) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1))
    .map(([key, counters]): UsageGroup => ({ ...keyOf(groupBy, key), ...totalOf(counters) }));
  return { from, to, group_by: groupBy, totals, groups };
}

function keyOf(groupBy: UsageGrouping, key: string | null): { day: string } | { type: string } | { site_id: string | null } {
  if (groupBy === 'site') return { site_id: key };
  return groupBy === 'day' ? { day: String(key) } : { type: String(key) };
}

function totalOf(counters: UsageCounters): UsageTotal {
  return { commands: commandsCounted(counters), ...usageView(counters) };
}
