import * as z from 'zod/mini';
import '../platform/zod-messages';
import type { Principal } from '../access/api-keys';
import type { Clock } from '../platform/clock';
import { AppError, type IssueDetail } from '../platform/errors';
import { jsonResponse } from '../platform/http/responses';
import type { HttpResult } from '../platform/http/types';
import { toIssueDetails } from '../platform/validation';
import type { UsageTotals } from '../usage/dynamo-usage-totals';
import { USAGE_GROUPINGS, usageReport } from './usage-report';

/** The longest range one request reads, in days (both ends included): a leap year. */
export const MAX_USAGE_DAYS = 366;

const DAY_MS = 86_400_000;

const utcDay = (description: string, example: string) =>
  z.optional(z.iso.date()).register(z.globalRegistry, { description: `${description} (UTC day, YYYY-MM-DD).`, example });

/** The query of `GET /api/usage`; unknown parameters are refused, as GET /api/commands refuses them. */
export const usageQuerySchema = z.strictObject({
  from: utcDay('The first day counted; default: the first day of the month of `to`', '2026-11-01'),
  to: utcDay('The last day counted, included; default: today', '2026-11-23'),
  group_by: z.optional(z.enum(USAGE_GROUPINGS)).register(z.globalRegistry, {
    description: 'Also split the totals into `groups`: per `day`, per command `type`, or per `site`.',
  }),
});

export interface UsageDependencies {
  totals: UsageTotals;
  clock: Clock;
}

/**
 * Use case: `GET /api/usage[?from=&to=&group_by=]`. The caller's tenant's
 * usage totals over a range of UTC days (default: this month so far), from
 * its daily totals (one Query of its own partition, never a scan of its
 * commands), optionally split per day, command type or site.
 */
export async function answerUsage(
  deps: UsageDependencies,
  principal: Principal,
  query: Readonly<Record<string, string | undefined>> | undefined,
): Promise<HttpResult> {
  const parsed = usageQuerySchema.safeParse(query ?? {});
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    const named = first.code === 'unrecognized_keys' ? first.keys.join(', ') : first.path.map(String).join('.');
    const message = first.code === 'unrecognized_keys' ? 'unknown query parameter' : first.message;
    throw new AppError('VALIDATION_ERROR', `${named}: ${message}`, toIssueDetails(parsed.error.issues));
  }
  const to = parsed.data.to ?? new Date(deps.clock.now()).toISOString().slice(0, 10);
  const from = parsed.data.from ?? `${to.slice(0, 7)}-01`;
  const span = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
  // The parameter the caller gave is the one to fix (`from` after today, when `to` was left to its default).
  if (span < 1) throw refusal(parsed.data.to === undefined ? 'from' : 'to', `to (${to}) is before from (${from})`);
  if (span > MAX_USAGE_DAYS) throw refusal('from', `from ${from} to ${to} is ${span} days; at most ${MAX_USAGE_DAYS} are read at once`);
  const days = await deps.totals.days(principal.tenantId, from, to);
  return jsonResponse(200, { success: true, data: usageReport(days, from, to, parsed.data.group_by) });
}

function refusal(parameter: string, message: string): AppError {
  const details: IssueDetail[] = [{ code: 'custom', message, path: [parameter] }];
  return new AppError('VALIDATION_ERROR', `${parameter}: ${message}`, details);
}
