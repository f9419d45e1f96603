import { spawn } from 'node:child_process';
import { runUsageCommand } from '../../../infra/cli/usage-command';
import { sendTransaction } from '../../../shared/platform/dynamodb';
import { newId } from '../../../shared/platform/ids';
import { usageItems } from '../../../shared/usage/dynamo-ledger';
import { dynamoUsageTotals } from '../../../shared/usage/dynamo-usage-totals';
import { addUsage, callSeconds, modelTokens, searchRequests, type UsageCounters } from '../../../shared/usage/usage';
import { startEmbeddedServices, type EmbeddedServices } from '../../support/embedded';

/** `npm run usage` against the embedded DynamoDB: a tenant's month, as a table or as the API's JSON; bad arguments exit 2. */
const SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const NOW = Date.parse('2026-11-23T10:00:00.000Z');

let services: EmbeddedServices;

async function count(tenantId: string, day: string, type: string, siteId: string | undefined, usage: UsageCounters): Promise<void> {
  const items = usageItems(services.aws.tableName, {
    target: { commandId: newId(), tenantId, type, ...(siteId ? { siteId } : {}) },
    usage,
    at: Date.parse(`${day}T08:00:00.000Z`),
    ended: true,
  });
  await sendTransaction(services.db, items);
}

beforeAll(async () => {
  services = await startEmbeddedServices();
  await count('cli-usage', '2026-11-02', 'lead_follow_up', SITE, modelTokens('gpt-4o-mini', 1200, 300));
  await count(
    'cli-usage',
    '2026-11-30',
    'deep_research',
    undefined,
    addUsage(modelTokens('gpt-4o-mini', 800, 100), searchRequests('google', 5)),
  );
  await count('cli-usage', '2026-11-15', 'stakeholder_coordination', SITE, callSeconds(61));
  await count('cli-usage', '2026-10-31', 'lead_follow_up', SITE, modelTokens('gpt-4o-mini', 9999, 9999));
  await count('cli-usage-other', '2026-11-02', 'lead_follow_up', SITE, modelTokens('gpt-4o-mini', 7777, 7777));
});
afterAll(() => services.stop());

/** Runs `npm run usage -- …args` in this process; its exit status and what it wrote. */
async function usageCli(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const written = { stdout: '', stderr: '' };
  const status = await runUsageCommand(
    args,
    { totals: dynamoUsageTotals(services.db, services.aws.tableName), now: () => NOW },
    { stdout: (text) => (written.stdout += text), stderr: (text) => (written.stderr += text) },
  );
  return { status, ...written };
}

describe('npm run usage', () => {
  it("prints a tenant's month as a table: the whole month (its last day too), that tenant only", async () => {
    const { status, stdout, stderr } = await usageCli('--tenant', 'cli-usage', '--month', '2026-11');
    expect([status, stderr]).toEqual([0, '']);
    expect(stdout.split('\n')).toEqual([
      'Usage of tenant cli-usage, 2026-11-01 to 2026-11-30 (UTC)',
      '',
      '       COMMANDS  TOKENS IN  TOKENS OUT  SEARCHES  CACHE HITS  CALL SECONDS  WEBHOOKS  CRM WRITES',
      'TOTAL         3       2000         400         5           0            61         0           0',
      '',
      'Tokens by model: gpt-4o-mini 2000 in, 400 out',
      'Searches by provider: google 5',
      '',
    ]);
  });

  it('groups per day, type or site, and defaults to the current UTC month', async () => {
    const byType = await usageCli('--tenant', 'cli-usage', '--group-by', 'type');
    expect(byType.status).toBe(0);
    const rows = byType.stdout.split('\n').slice(2, 7);
    expect(rows.map((row) => row.split(/\s+/).slice(0, 3))).toEqual([
      ['TYPE', 'COMMANDS', 'TOKENS'],
      ['deep_research', '1', '800'],
      ['lead_follow_up', '1', '1200'],
      ['stakeholder_coordination', '1', '0'],
      ['TOTAL', '3', '2000'],
    ]);
    const bySite = await usageCli('--tenant', 'cli-usage', '--month', '2026-11', '--group-by', 'site');
    expect(
      bySite.stdout
        .split('\n')
        .slice(3, 5)
        .map((row) => row.split(/\s+/).slice(0, 2)),
    ).toEqual([
      [SITE, '2'],
      ['(none)', '1'],
    ]);
  });

  it("prints the API's report with --json", async () => {
    const { status, stdout } = await usageCli('--tenant', 'cli-usage', '--month', '2026-10', '--group-by', 'day', '--json');
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      from: '2026-10-01',
      to: '2026-10-31',
      group_by: 'day',
      totals: expect.objectContaining({
        commands: 1,
        model_tokens: { input: 9999, output: 9999, by_model: { 'gpt-4o-mini': { input: 9999, output: 9999 } } },
      }),
      groups: [expect.objectContaining({ day: '2026-10-31', commands: 1 })],
    });
  });

  it.each([
    [[], '--tenant is required.'],
    [['--tenant', 'Not A Tenant'], '--tenant: "Not A Tenant" is not a tenant id.'],
    [['--tenant', 'cli-usage', '--month', '2026-13'], '--month: "2026-13" is not a month'],
    [['--tenant', 'cli-usage', '--month', '2026-1'], '--month: "2026-1" is not a month'],
    [['--tenant', 'cli-usage', '--group-by', 'week'], '--group-by: "week" is not one of day, type, site.'],
    [['--tenant', 'cli-usage', '--from', '2026-11-01'], "Unknown option '--from'"],
    [['--tenant', 'cli-usage', 'extra'], "Unexpected argument 'extra'"],
  ])('%j: says what is wrong, then how to use it, and exits 2 printing nothing on stdout', async (args, message) => {
    const { status, stdout, stderr } = await usageCli(...args);
    expect([status, stdout]).toEqual([2, '']);
    expect(stderr).toContain(message);
    expect(stderr).toContain('npm run usage -- --tenant TENANT');
  });

  it('runs as `npm run usage` does, against the table of TABLE_NAME', async () => {
    const run = async (...args: string[]) => {
      const child = spawn(process.execPath, ['infra/cli/run.mjs', 'infra/cli/usage.ts', ...args], {
        env: {
          ...process.env,
          AWS_ENDPOINT_URL_DYNAMODB: services.aws.dynamodbEndpoint,
          TABLE_NAME: services.aws.tableName,
          NODE_OPTIONS: '',
        },
      });
      const output = { stdout: '', stderr: '' };
      child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
      const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
      return { status, ...output };
    };
    const json = await run('--tenant', 'cli-usage', '--month', '2026-11', '--json');
    expect(json.status).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ from: '2026-11-01', to: '2026-11-30', totals: { commands: 3, call_seconds: 61 } });
    const bad = await run('--tenant', 'cli-usage', '--month', 'november');
    expect([bad.status, bad.stdout]).toEqual([2, '']);
    expect(bad.stderr).toContain('--month: "november" is not a month');
  });
});
