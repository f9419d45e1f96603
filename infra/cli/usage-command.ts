import { parseArgs } from 'node:util';
import { isValidTenantId } from '../../shared/access/tenant-id';
import {
  USAGE_GROUPINGS,
  usageReport,
  type UsageGroup,
  type UsageGrouping,
  type UsageReport,
  type UsageTotal,
} from '../../shared/api/usage-report';
import type { UsageTotals } from '../../shared/usage/dynamo-usage-totals';

export const USAGE_USAGE = `Usage:
  npm run usage -- --tenant TENANT [--month YYYY-MM] [--group-by day|type|site] [--json]

Prints a tenant's usage totals of one UTC month (default: the current one),
as GET /api/usage answers them for that month's days: commands that ended,
model tokens, search requests and cache hits, call seconds, webhook
deliveries, CRM writes. --group-by also splits them per day, command type
or site. --json prints the \`data\` of the API's answer instead of a table.`;

/** Where the usage command writes: the report on stdout, mistakes on stderr. */
export interface UsageCommandOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** What the usage command reads, and when "now" is (the default month). */
export interface UsageCommandPorts {
  totals: UsageTotals;
  now(): number;
}

class UsageArgumentError extends Error {}

/**
 * `npm run usage -- …`: a tenant's usage totals of a month, for operators.
 * Returns the exit status (0 done, 2 bad arguments); throws only on
 * infrastructure faults.
 */
export async function runUsageCommand(args: string[], ports: UsageCommandPorts, out: UsageCommandOutput): Promise<number> {
  let options: { tenant: string; month: string; groupBy?: UsageGrouping; json: boolean } | 'help';
  try {
    options = parseOptions(args, ports.now());
  } catch (error) {
    if (!(error instanceof UsageArgumentError)) throw error;
    out.stderr(`${error.message}\n\n${USAGE_USAGE}\n`);
    return 2;
  }
  if (options === 'help') {
    out.stdout(`${USAGE_USAGE}\n`);
    return 0;
  }
  const from = `${options.month}-01`;
  const to = lastDayOf(options.month);
  const report = usageReport(await ports.totals.days(options.tenant, from, to), from, to, options.groupBy);
  out.stdout(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatUsageReport(options.tenant, report));
  return 0;
}

function parseOptions(args: string[], now: number) {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        tenant: { type: 'string' },
        month: { type: 'string' },
        'group-by': { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageArgumentError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return 'help' as const;
  if (values.tenant === undefined) throw new UsageArgumentError('--tenant is required.');
  if (!isValidTenantId(values.tenant)) throw new UsageArgumentError(`--tenant: "${values.tenant}" is not a tenant id.`);
  const month = values.month ?? new Date(now).toISOString().slice(0, 7);
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw new UsageArgumentError(`--month: "${month}" is not a month (YYYY-MM, e.g. 2026-11).`);
  const groupBy = values['group-by'];
  if (groupBy !== undefined && !(USAGE_GROUPINGS as readonly string[]).includes(groupBy)) {
    throw new UsageArgumentError(`--group-by: "${groupBy}" is not one of ${USAGE_GROUPINGS.join(', ')}.`);
  }
  return {
    tenant: values.tenant,
    month,
    ...(groupBy === undefined ? {} : { groupBy: groupBy as UsageGrouping }),
    json: values.json ?? false,
  };
}

/** The last day of a month (YYYY-MM-DD). */
function lastDayOf(month: string): string {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, monthNumber, 0)).toISOString().slice(0, 10);
}

const COLUMNS: readonly [string, (total: UsageTotal) => number][] = [
  ['COMMANDS', (total) => total.commands],
  ['TOKENS IN', (total) => total.model_tokens.input],
  ['TOKENS OUT', (total) => total.model_tokens.output],
  ['SEARCHES', (total) => total.searches.requests],
  ['CACHE HITS', (total) => total.searches.cache_hits],
  ['CALL SECONDS', (total) => total.call_seconds],
  ['WEBHOOKS', (total) => total.webhook_deliveries],
  ['CRM WRITES', (total) => total.crm_writes],
];

/**
 * The report as a table: one row per group (when grouped; no site is `(none)`), then the total; then tokens per model and searches
 * per provider.
 */
export function formatUsageReport(tenant: string, report: UsageReport): string {
  const label = report.group_by === undefined ? '' : report.group_by.toUpperCase();
  const rows: string[][] = [[label, ...COLUMNS.map(([name]) => name)]];
  for (const group of report.groups ?? []) rows.push([groupName(group), ...COLUMNS.map(([, value]) => String(value(group)))]);
  rows.push(['TOTAL', ...COLUMNS.map(([, value]) => String(value(report.totals)))]);
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const lines = [`Usage of tenant ${tenant}, ${report.from} to ${report.to} (UTC)`, ''];
  for (const row of rows) {
    lines.push(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  '));
  }
  const models = Object.entries(report.totals.model_tokens.by_model);
  const providers = Object.entries(report.totals.searches.by_provider);
  lines.push('');
  lines.push(
    `Tokens by model: ${models.length === 0 ? 'none' : models.map(([model, t]) => `${model} ${t.input} in, ${t.output} out`).join('; ')}`,
  );
  lines.push(`Searches by provider: ${providers.length === 0 ? 'none' : providers.map(([provider, n]) => `${provider} ${n}`).join('; ')}`);
  return `${lines.join('\n')}\n`;
}

function groupName(group: UsageGroup): string {
  if ('day' in group) return group.day;
  if ('type' in group) return group.type;
  return group.site_id ?? '(none)';
}
