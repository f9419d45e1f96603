import { ENVIRONMENT_NAMES, type EnvironmentName } from '../../infra/config';
import { FUNCTIONS, type FunctionId } from '../../shared/catalogue/functions';
import { JOB_TYPES } from '../../shared/catalogue/job-types';
import { canonical, logicalId, synthesize, type SynthesizedEnvironment } from './synthesize';

/**
 * The exact policy of every function, written out here (not derived from
 * the catalogue): [actions, resource, partition-key patterns]. Resources:
 * `table`, `index/<name>`, `queue/<id>`, `dlq/<id>`, `secret/<id>`. Every
 * role also writes its own log group and sends X-Ray traces (below).
 */
type Grant = readonly [actions: readonly string[], resource: string, leadingKeys?: readonly string[]];

const SQS_CONSUME = ['sqs:ReceiveMessage', 'sqs:ChangeMessageVisibility', 'sqs:GetQueueUrl', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'];

/** What every function that authenticates API keys reads and writes for its tenant's limits: the tenant, its rate bucket. */
const TENANT_LIMITS: readonly Grant[] = [
  [['dynamodb:GetItem'], 'table', ['TENANT#*']],
  [['dynamodb:UpdateItem'], 'table', ['RATE#*']],
];

/** What every function that writes commands adds to: usage counted with its writes (the tenant's totals, its in-progress places). */
const USAGE_LEDGER: readonly Grant[] = [[['dynamodb:UpdateItem'], 'table', ['USAGE#*']]];

/** What a function that holds the commands it starts to their tenant's in-progress limit gives back on a refusal: the key. */
const ADMISSION: readonly Grant[] = [[['dynamodb:DeleteItem'], 'table', ['IDEM#*']]];

/** What a function that starts commands spending tokens or searches reads for its tenant's monthly caps: the month's totals. */
const MONTHLY_CAPS: readonly Grant[] = [[['dynamodb:Query'], 'table', ['USAGE#*']]];

const EXPECTED: Record<FunctionId, readonly Grant[]> = {
  leadFollowUpApi: [
    [['dynamodb:GetItem'], 'table', ['APIKEY#*']],
    [['dynamodb:GetItem', 'dynamodb:Query'], 'table', ['SITE#*']],
    [['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], 'table', ['CMD#*']],
    [['dynamodb:GetItem', 'dynamodb:PutItem'], 'table', ['IDEM#*']],
    [['dynamodb:Query'], 'table', ['LEADHISTORY#*']],
    [['sqs:SendMessage'], 'queue/sales'],
    ...TENANT_LIMITS,
    ...USAGE_LEDGER,
    ...ADMISSION,
    ...MONTHLY_CAPS,
  ],
  getCommandApi: [[['dynamodb:GetItem'], 'table', ['APIKEY#*', 'CMD#*', 'USAGE#*']], ...TENANT_LIMITS],
  listCommandsApi: [[['dynamodb:GetItem'], 'table', ['APIKEY#*']], [['dynamodb:Query'], 'index/gsi3', ['CMD#TENANT#*']], ...TENANT_LIMITS],
  usageApi: [[['dynamodb:GetItem'], 'table', ['APIKEY#*']], [['dynamodb:Query'], 'table', ['USAGE#*']], ...TENANT_LIMITS],
  deleteCommandApi: [
    [['dynamodb:GetItem'], 'table', ['APIKEY#*']],
    [['dynamodb:GetItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem'], 'table', ['CMD#*']],
    [['dynamodb:DeleteItem'], 'table', ['FOLLOWUP#*']],
    [['dynamodb:Query', 'dynamodb:DeleteItem'], 'table', ['SITEWORK#*']],
    ...TENANT_LIMITS,
    [['dynamodb:UpdateItem', 'dynamodb:DeleteItem'], 'table', ['USAGE#*']],
  ],
  healthApi: [],
  apiDocsApi: [],
  notFoundApi: [[['dynamodb:GetItem'], 'table', ['APIKEY#*']], ...TENANT_LIMITS],
  commandJanitor: [
    [['dynamodb:Query'], 'index/gsi1', ['CMD#IN_PROGRESS#*']],
    [['dynamodb:Query'], 'index/gsi1', ['EVENT#PENDING#*']],
    [['dynamodb:UpdateItem'], 'table', ['CMD#*']],
    [['sqs:SendMessage'], 'queue/sales'],
    [['sqs:SendMessage'], 'queue/copywriter'],
    [['sqs:SendMessage'], 'queue/research'],
    [['sqs:SendMessage'], 'queue/call'],
    [['sqs:SendMessage'], 'queue/summary'],
    [['sqs:SendMessage'], 'queue/crm'],
    [['dynamodb:GetItem'], 'table', ['CMD#*']],
    [['dynamodb:Query'], 'table', ['WEBHOOK#*']],
    [['dynamodb:GetItem', 'dynamodb:UpdateItem'], 'table', ['EVENT#*']],
    [['dynamodb:PutItem'], 'table', ['DELIVERY#*']],
    [['sqs:SendMessage'], 'queue/webhooks'],
    ...USAGE_LEDGER,
  ],
  salesWorker: [
    // Whether the tenant has a CRM connection: a write-back is queued only then.
    [['dynamodb:GetItem'], 'table', ['CRM#*']],
    [['dynamodb:GetItem'], 'table', ['TENANT#*']],
    [['dynamodb:GetItem', 'dynamodb:PutItem'], 'table', ['IDEM#*']],
    [['dynamodb:GetItem', 'dynamodb:Query'], 'table', ['SITE#*']],
    [['dynamodb:Query'], 'table', ['LEADHISTORY#*']],
    [['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem'], 'table', ['CMD#*']],
    [['dynamodb:PutItem'], 'table', ['FOLLOWUP#*']],
    [['sqs:SendMessage'], 'queue/sales'],
    [['sqs:SendMessage'], 'queue/copywriter'],
    [['sqs:SendMessage'], 'dlq/sales'],
    [['secretsmanager:GetSecretValue'], 'secret/openai'],
    [SQS_CONSUME, 'queue/sales'],
    [['dynamodb:Query'], 'table', ['WEBHOOK#*']],
    [['dynamodb:GetItem', 'dynamodb:UpdateItem'], 'table', ['EVENT#*']],
    [['dynamodb:PutItem'], 'table', ['DELIVERY#*']],
    [['sqs:SendMessage'], 'queue/webhooks'],
    [['sqs:SendMessage'], 'queue/crmsync'],
    ...USAGE_LEDGER,
    ...ADMISSION,
    ...MONTHLY_CAPS,
  ],
  copywriterWorker: [
    // Whether the tenant has a CRM connection: a write-back is queued only then.
    [['dynamodb:GetItem'], 'table', ['CRM#*']],
    [['dynamodb:GetItem'], 'table', ['SITE#*']],
    [['dynamodb:GetItem', 'dynamodb:UpdateItem'], 'table', ['CMD#*']],
    [['sqs:SendMessage'], 'queue/copywriter'],
    [['sqs:SendMessage'], 'dlq/copywriter'],
    [['secretsmanager:GetSecretValue'], 'secret/openai'],
    [SQS_CONSUME, 'queue/copywriter'],
    [['dynamodb:Query'], 'table', ['WEBHOOK#*']],
    [['dynamodb:GetItem', 'dynamodb:UpdateItem'], 'table', ['EVENT#*']],
    [['dynamodb:PutItem'], 'table', ['DELIVERY#*']],
    [['sqs:SendMessage'], 'queue/webhooks'],
    [['sqs:SendMessage'], 'queue/crmsync'],
    ...USAGE_LEDGER,
  ],
  deepResearchApi: [
    [['dynamodb:GetItem'], 'table', ['APIKEY#*']],
    [['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], 'table', ['CMD#*']],
    [['dynamodb:GetItem', 'dynamodb:PutItem'], 'table', ['IDEM#*']],
    [['sqs:SendMessage'], 'queue/research'],
    ...TENANT_LIMITS,
    ...USAGE_LEDGER,
    ...ADMISSION,
    ...MONTHLY_CAPS,
  ],
  researchWorker: [
    [['dynamodb:GetItem'], 'table', ['TENANT#*']],
    [['dynamodb:GetItem', 'dynamodb:PutItem'], 'table', ['IDEM#*']],
    [['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], 'table', ['CMD#*']],
    [['dynamodb:UpdateItem'], 'table', ['QUOTA#*']],
    [['dynamodb:GetItem', 'dynamodb:PutItem'], 'table', ['SEARCH#*']],
    [['sqs:SendMessage'], 'queue/research'],
    [['sqs:SendMessage'], 'dlq/research'],
    [['secretsmanager:GetSecretValue'], 'secret/search'],
    [['secretsmanager:GetSecretValue'], 'secret/openai'],
    [SQS_CONSUME, 'queue/research'],
    [['dynamodb:Query'], 'table', ['WEBHOOK#*']],
    [['dynamodb:GetItem', 'dynamodb:UpdateItem'], 'table', ['EVENT#*']],
    [['dynamodb:PutItem'], 'table', ['DELIVERY#*']],
    [['sqs:SendMessage'], 'queue/webhooks'],
    ...USAGE_LEDGER,
    ...ADMISSION,
    ...MONTHLY_CAPS,
  ],
  stakeholderCoordinationApi: [
    [['dynamodb:GetItem'], 'table', ['APIKEY#*']],
    [['dynamodb:GetItem', 'dynamodb:Query'], 'table', ['SITE#*']],
    [['dynamodb:GetItem', 'dynamodb:PutItem'], 'table', ['CONV#*']],
    [['dynamodb:Query'], 'table', ['SITEWORK#*']],
    [['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], 'table', ['CMD#*']],
    [['dynamodb:GetItem', 'dynamodb:PutItem'], 'table', ['IDEM#*']],
    [['sqs:SendMessage'], 'queue/call'],
    ...TENANT_LIMITS,
    ...USAGE_LEDGER,
    ...ADMISSION,
    ...MONTHLY_CAPS,
  ],
  twilioCallStatusWebhook: [
    [['dynamodb:UpdateItem'], 'table', ['CMD#*']],
    [['secretsmanager:GetSecretValue'], 'secret/twilio'],
    [['dynamodb:GetItem'], 'table', ['CMD#*']],
    [['dynamodb:Query'], 'table', ['WEBHOOK#*']],
    [['dynamodb:GetItem', 'dynamodb:UpdateItem'], 'table', ['EVENT#*']],
    [['dynamodb:PutItem'], 'table', ['DELIVERY#*']],
    [['sqs:SendMessage'], 'queue/webhooks'],
    [['dynamodb:PutItem', 'dynamodb:ConditionCheckItem'], 'table', ['CMD#*']],
    [['sqs:SendMessage'], 'queue/summary'],
    [['dynamodb:GetItem', 'dynamodb:UpdateItem'], 'table', ['USAGE#*']],
  ],
  postCallSummaryWorker: [
    // Whether the tenant has a CRM connection: a write-back is queued only then.
    [['dynamodb:GetItem'], 'table', ['CRM#*']],
    [['dynamodb:GetItem', 'dynamodb:UpdateItem'], 'table', ['CMD#*']],
    [['dynamodb:PutItem'], 'table', ['SITEWORK#*']],
    [['sqs:SendMessage'], 'queue/summary'],
    [['sqs:SendMessage'], 'dlq/summary'],
    [['secretsmanager:GetSecretValue'], 'secret/openai'],
    [SQS_CONSUME, 'queue/summary'],
    [['dynamodb:Query'], 'table', ['WEBHOOK#*']],
    [['dynamodb:GetItem', 'dynamodb:UpdateItem'], 'table', ['EVENT#*']],
    [['dynamodb:PutItem'], 'table', ['DELIVERY#*']],
    [['sqs:SendMessage'], 'queue/webhooks'],
    [['sqs:SendMessage'], 'queue/crmsync'],
    ...USAGE_LEDGER,
  ],
  conversationRelayWebhook: [
    [['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:ConditionCheckItem'], 'table', ['CMD#*']],
    [['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], 'table', ['RELAY#*']],
    [['sqs:SendMessage'], 'queue/summary'],
    [['secretsmanager:GetSecretValue'], 'secret/twilio'],
    [['secretsmanager:GetSecretValue'], 'secret/openai'],
    [['execute-api:ManageConnections'], 'connections'],
    [['dynamodb:GetItem', 'dynamodb:UpdateItem'], 'table', ['USAGE#*']],
  ],
  callWorker: [
    [['dynamodb:GetItem', 'dynamodb:UpdateItem'], 'table', ['CMD#*']],
    [['sqs:SendMessage'], 'queue/call'],
    [['sqs:SendMessage'], 'dlq/call'],
    [['secretsmanager:GetSecretValue'], 'secret/openai'],
    [['secretsmanager:GetSecretValue'], 'secret/twilio'],
    [SQS_CONSUME, 'queue/call'],
    [['dynamodb:Query'], 'table', ['WEBHOOK#*']],
    [['dynamodb:GetItem', 'dynamodb:UpdateItem'], 'table', ['EVENT#*']],
    [['dynamodb:PutItem'], 'table', ['DELIVERY#*']],
    [['sqs:SendMessage'], 'queue/webhooks'],
    ...USAGE_LEDGER,
  ],
  listFollowUpsApi: [
    [['dynamodb:GetItem'], 'table', ['APIKEY#*']],
    [['dynamodb:GetItem'], 'table', ['SITE#*']],
    [['dynamodb:GetItem'], 'table', ['FOLLOWUP#*']],
    [['dynamodb:Query'], 'index/gsi2', ['FOLLOWUP#LEAD#*']],
    ...TENANT_LIMITS,
  ],
  pauseFollowUpsApi: [
    [['dynamodb:GetItem'], 'table', ['APIKEY#*']],
    [['dynamodb:GetItem'], 'table', ['SITE#*']],
    [['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'], 'table', ['FOLLOWUP#*']],
    [['dynamodb:Query'], 'index/gsi2', ['FOLLOWUP#LEAD#*']],
    ...TENANT_LIMITS,
  ],
  listSiteFollowUpsApi: [
    [['dynamodb:GetItem'], 'table', ['APIKEY#*']],
    [['dynamodb:GetItem'], 'table', ['SITE#*']],
    [['dynamodb:Query'], 'index/gsi3', ['FOLLOWUP#SITE#*']],
    ...TENANT_LIMITS,
  ],
  updateFollowUpApi: [
    // Whether the tenant has a CRM connection: a write-back is queued only then.
    [['dynamodb:GetItem'], 'table', ['CRM#*']],
    [['dynamodb:GetItem'], 'table', ['APIKEY#*']],
    [['dynamodb:GetItem', 'dynamodb:UpdateItem'], 'table', ['FOLLOWUP#*']],
    [['sqs:SendMessage'], 'queue/crmsync'],
    ...TENANT_LIMITS,
  ],
  leadEventsApi: [
    // Whether the tenant has a CRM connection: a write-back is queued only then.
    [['dynamodb:GetItem'], 'table', ['CRM#*']],
    [['dynamodb:GetItem'], 'table', ['APIKEY#*']],
    [['dynamodb:GetItem'], 'table', ['SITE#*']],
    [['dynamodb:PutItem', 'dynamodb:UpdateItem'], 'table', ['LEADHISTORY#*']],
    [['dynamodb:GetItem', 'dynamodb:PutItem'], 'table', ['IDEM#*']],
    [['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], 'table', ['CMD#*']],
    [['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], 'table', ['FOLLOWUP#*']],
    [['dynamodb:Query'], 'index/gsi2', ['FOLLOWUP#LEAD#*']],
    [['dynamodb:Query'], 'table', ['WEBHOOK#*']],
    [['dynamodb:GetItem', 'dynamodb:UpdateItem'], 'table', ['EVENT#*']],
    [['dynamodb:PutItem'], 'table', ['DELIVERY#*']],
    [['sqs:SendMessage'], 'queue/webhooks'],
    [['sqs:SendMessage'], 'queue/crmsync'],
    [['sqs:SendMessage'], 'queue/sales'],
    ...TENANT_LIMITS,
  ],
  followUpDispatcher: [
    [['dynamodb:Query'], 'index/gsi1', ['FOLLOWUP#scheduled*', 'FOLLOWUP#announcing*']],
    [['dynamodb:GetItem', 'dynamodb:UpdateItem'], 'table', ['FOLLOWUP#*']],
    [['dynamodb:Query'], 'table', ['WEBHOOK#*']],
    [['dynamodb:GetItem', 'dynamodb:UpdateItem'], 'table', ['EVENT#*']],
    [['dynamodb:PutItem'], 'table', ['DELIVERY#*']],
    [['sqs:SendMessage'], 'queue/webhooks'],
  ],
  webhooksApi: [
    [['dynamodb:GetItem'], 'table', ['APIKEY#*']],
    [['dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'], 'table', ['WEBHOOK#*']],
    [['dynamodb:Query', 'dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], 'table', ['DELIVERY#*']],
    [['dynamodb:Query', 'dynamodb:GetItem'], 'table', ['EVENT#*']],
    [['sqs:SendMessage'], 'queue/webhooks'],
    ...TENANT_LIMITS,
  ],
  webhookTestApi: [[['dynamodb:GetItem'], 'table', ['APIKEY#*']], [['dynamodb:Query'], 'table', ['WEBHOOK#*']], ...TENANT_LIMITS],
  crmConnectionApi: [
    [['dynamodb:GetItem'], 'table', ['APIKEY#*']],
    [['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], 'table', ['CMD#*']],
    [['dynamodb:GetItem', 'dynamodb:PutItem'], 'table', ['IDEM#*']],
    [['dynamodb:GetItem'], 'table', ['SITE#*']],
    [['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:DeleteItem'], 'table', ['CRM#*']],
    [['dynamodb:PutItem', 'dynamodb:DeleteItem'], 'table', ['CRMPORTAL#*']],
    [['sqs:SendMessage'], 'queue/crm'],
    [['secretsmanager:GetSecretValue'], 'secret/crm'],
    ...TENANT_LIMITS,
    ...USAGE_LEDGER,
    ...ADMISSION,
  ],
  hubspotWebhook: [
    [['dynamodb:Query'], 'table', ['CRMPORTAL#*']],
    [['dynamodb:GetItem'], 'table', ['CRM#*']],
    [['dynamodb:Query'], 'table', ['CRMLINK#*']],
    [['dynamodb:GetItem'], 'table', ['TENANT#*']],
    [['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], 'table', ['CMD#*']],
    [['dynamodb:GetItem', 'dynamodb:PutItem'], 'table', ['IDEM#*']],
    [['dynamodb:GetItem'], 'table', ['SITE#*']],
    [['dynamodb:PutItem', 'dynamodb:UpdateItem'], 'table', ['LEADHISTORY#*']],
    [['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], 'table', ['FOLLOWUP#*']],
    [['dynamodb:Query'], 'index/gsi2', ['FOLLOWUP#LEAD#*']],
    [['dynamodb:Query'], 'table', ['WEBHOOK#*']],
    [['dynamodb:GetItem', 'dynamodb:UpdateItem'], 'table', ['EVENT#*']],
    [['dynamodb:PutItem'], 'table', ['DELIVERY#*']],
    [['sqs:SendMessage'], 'queue/crm'],
    [['sqs:SendMessage'], 'queue/webhooks'],
    [['sqs:SendMessage'], 'queue/crmsync'],
    [['sqs:SendMessage'], 'queue/sales'],
    [['secretsmanager:GetSecretValue'], 'secret/crm'],
  ],
  crmImportWorker: [
    [['dynamodb:GetItem', 'dynamodb:UpdateItem'], 'table', ['CMD#*']],
    [['dynamodb:GetItem', 'dynamodb:UpdateItem'], 'table', ['CRM#*']],
    [['dynamodb:Query', 'dynamodb:PutItem'], 'table', ['CRMLINK#*']],
    [['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchWriteItem'], 'table', ['SITE#*']],
    [['sqs:SendMessage'], 'queue/crm'],
    [['sqs:SendMessage'], 'dlq/crm'],
    [['secretsmanager:GetSecretValue'], 'secret/crm'],
    [SQS_CONSUME, 'queue/crm'],
    [['dynamodb:Query'], 'table', ['WEBHOOK#*']],
    [['dynamodb:GetItem', 'dynamodb:UpdateItem'], 'table', ['EVENT#*']],
    [['dynamodb:PutItem'], 'table', ['DELIVERY#*']],
    [['sqs:SendMessage'], 'queue/webhooks'],
    ...USAGE_LEDGER,
  ],
  crmSyncsApi: [[['dynamodb:GetItem'], 'table', ['APIKEY#*']], [['dynamodb:Query'], 'table', ['CRMSYNC#*']], ...TENANT_LIMITS],
  crmSyncWorker: [
    [['dynamodb:GetItem', 'dynamodb:UpdateItem'], 'table', ['CRM#*']],
    [['dynamodb:GetItem'], 'table', ['CRMLINK#*']],
    [['dynamodb:GetItem', 'dynamodb:UpdateItem'], 'table', ['CRMSYNC#*']],
    [['sqs:SendMessage'], 'queue/crmsync'],
    [['sqs:SendMessage'], 'dlq/crmsync'],
    [SQS_CONSUME, 'queue/crmsync'],
    [['secretsmanager:GetSecretValue'], 'secret/crm'],
    [['dynamodb:GetItem', 'dynamodb:UpdateItem'], 'table', ['USAGE#*']],
  ],
  webhookDeliveryWorker: [
    [['dynamodb:Query', 'dynamodb:UpdateItem'], 'table', ['WEBHOOK#*']],
    [['dynamodb:GetItem', 'dynamodb:UpdateItem'], 'table', ['EVENT#*']],
    [['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], 'table', ['DELIVERY#*']],
    [['sqs:SendMessage'], 'queue/webhooks'],
    [['sqs:SendMessage'], 'dlq/webhooks'],
    [SQS_CONSUME, 'queue/webhooks'],
    [['dynamodb:GetItem', 'dynamodb:UpdateItem'], 'table', ['USAGE#*']],
  ],
};

type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: Record<string, Record<string, unknown>> };

const envs = {} as Record<EnvironmentName, SynthesizedEnvironment>;
beforeAll(() => {
  for (const name of ENVIRONMENT_NAMES) envs[name] = synthesize(name);
});

/** The canonical template value of a symbolic resource of EXPECTED. */
function resourceOf(env: SynthesizedEnvironment, symbol: string): string {
  const { stateful } = env.stage;
  const [kind, id] = symbol.split('/') as [string, string];
  const tableArn = `Stateful:${logicalId(stateful.table)}.Arn`;
  if (kind === 'table') return tableArn;
  if (kind === 'index') return `${tableArn}/index/${id}`;
  if (kind === 'queue') return `Stateful:${logicalId(stateful.queues.get(id as never)!.queue)}.Arn`;
  if (kind === 'dlq') return `Stateful:${logicalId(stateful.queues.get(id as never)!.deadLetterQueue)}.Arn`;
  if (kind === 'secret') return `Stateful:${logicalId(stateful.secrets.get(id as never)!.secret)}`;
  // The relay socket's own connections: its WebSocket API, its stage, the @connections management path.
  if (kind === 'connections') {
    const { relay, region, account } = env.stage.service;
    return `arn:aws:execute-api:${region}:${account}:Service:${logicalId(relay.webSocketApi)}/${relay.stage.stageName}/*/@connections/*`;
  }
  throw new Error(`Unknown resource ${symbol}`);
}

/** One permission as a line: `action on resource [where pk like p1|p2]`. */
function line(action: string, resource: string, leadingKeys?: readonly string[]): string {
  return `${action} on ${resource}${leadingKeys ? ` where pk like ${[...leadingKeys].sort().join('|')}` : ''}`;
}

function expectedLines(env: SynthesizedEnvironment, id: FunctionId): string[] {
  const built = env.stage.service.functions.get(id)!;
  const grants: Grant[] = [
    [['logs:CreateLogStream', 'logs:PutLogEvents'], `Service:${logicalId(built.logGroup)}.Arn`],
    [['xray:PutTraceSegments', 'xray:PutTelemetryRecords'], '*'],
    ...EXPECTED[id].map(([actions, symbol, keys]): Grant => [actions, resourceOf(env, symbol), keys]),
  ];
  return grants.flatMap(([actions, resource, keys]) => actions.map((action) => line(action, resource, keys))).sort();
}

/** Every policy document attached to the role of `id`: its inline policies and the IAM::Policy resources naming it. */
function statementsOf(env: SynthesizedEnvironment, id: FunctionId): { inline: Statement[]; attached: Statement[] } {
  const roleId = logicalId(env.stage.service.functions.get(id)!.role);
  const role = env.json.service.Resources[roleId]!;
  const inline = ((role.Properties?.Policies ?? []) as { PolicyDocument: { Statement: Statement[] } }[]).flatMap(
    (p) => p.PolicyDocument.Statement,
  );
  const attached = Object.values(env.json.service.Resources)
    .filter(
      (r) =>
        r.Type === 'AWS::IAM::Policy' &&
        (r.Properties?.Roles as unknown[] | undefined)?.some((ref) => JSON.stringify(ref) === JSON.stringify({ Ref: roleId })),
    )
    .flatMap((p) => (p.Properties?.PolicyDocument as { Statement: Statement[] }).Statement);
  return { inline, attached };
}

/** The lines of a statement; its condition must be absent or exactly the partition-key condition. */
function linesOf(env: SynthesizedEnvironment, statement: Statement): string[] {
  let keys: string[] | undefined;
  if (statement.Condition !== undefined) {
    const patterns = statement.Condition['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'] as string[];
    expect(statement.Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': patterns },
      Null: { 'dynamodb:LeadingKeys': 'false' },
    });
    keys = patterns;
  }
  const resources = [statement.Resource].flat().map((resource) => canonical(resource, env));
  return [statement.Action].flat().flatMap((action) => resources.map((resource) => line(action, resource, keys)));
}

describe('the expected policies', () => {
  it('name every function of the catalogue, and only those', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(FUNCTIONS.map((fn) => fn.id).sort());
  });
});

describe.each(ENVIRONMENT_NAMES)('least privilege (%s)', (name) => {
  it.each(FUNCTIONS.map((fn) => [fn.id] as const))('%s: has exactly its policy, table grants limited to its key prefixes', (id) => {
    const env = envs[name];
    const { inline, attached } = statementsOf(env, id);
    const actual = [...inline, ...attached].flatMap((statement) => linesOf(env, statement));
    expect([...new Set(actual)].sort()).toEqual(expectedLines(env, id));
  });

  it.each(FUNCTIONS.map((fn) => [fn.id] as const))(
    '%s: only Allow statements, no wildcard actions, every DynamoDB statement conditioned',
    (id) => {
      const { inline, attached } = statementsOf(envs[name], id);
      for (const statement of [...inline, ...attached]) {
        expect(statement.Effect).toBe('Allow');
        const actions = [statement.Action].flat();
        for (const action of actions) expect(action).not.toContain('*');
        if (actions.some((action) => action.startsWith('dynamodb:'))) expect(statement.Condition).toBeDefined();
        else expect(statement.Condition).toBeUndefined();
      }
    },
  );

  it.each(FUNCTIONS.map((fn) => [fn.id] as const))('%s: keeps "*" to the X-Ray statement of its Tracing inline policy', (id) => {
    const env = envs[name];
    const { inline, attached } = statementsOf(env, id);
    expect(inline).toEqual([{ Effect: 'Allow', Action: ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'], Resource: '*' }]);
    for (const statement of attached) expect([statement.Resource].flat()).not.toContain('*');
  });

  it('attaches no managed policy to a function and gives every function its own role', () => {
    const env = envs[name];
    const roles = Object.values(env.json.service.Resources).filter((r) => r.Type === 'AWS::IAM::Role');
    expect(roles).toHaveLength(FUNCTIONS.length);
    for (const role of roles) {
      expect(role.Properties?.ManagedPolicyArns).toBeUndefined();
      expect((role.Properties?.Policies as { PolicyName: string }[]).map((policy) => policy.PolicyName)).toEqual(['Tracing']);
    }
    env.service.resourceCountIs('AWS::IAM::ManagedPolicy', 0);
    // The stateful stack's one role is API Gateway's, for the account's CloudWatch setting (test/infra/front-door.test.ts).
    expect(Object.keys(env.json.stateful.Resources).filter((id) => env.json.stateful.Resources[id]!.Type === 'AWS::IAM::Role')).toEqual([
      logicalId(env.stage.stateful.apiGatewayAccount!.role),
    ]);
  });
});

describe.each(ENVIRONMENT_NAMES)('producer policies (%s)', (name) => {
  const producerQueues = JOB_TYPES.filter((job) => job.fromProducers).map((job) => job.queue.id);

  it('are one managed policy per producer queue (sales, research), each SendMessage on that queue only', () => {
    const env = envs[name];
    expect(producerQueues).toEqual(['sales', 'research']);
    const policies = Object.entries(env.json.stateful.Resources).filter(([, r]) => r.Type === 'AWS::IAM::ManagedPolicy');
    expect(policies.map(([id]) => id)).toEqual(producerQueues.map((queue) => logicalId(env.stage.stateful.producerPolicies.get(queue)!)));
    for (const queue of producerQueues) {
      const policy = env.json.stateful.Resources[logicalId(env.stage.stateful.producerPolicies.get(queue)!)]!;
      expect(policy.Properties?.PolicyDocument).toEqual({
        Version: '2012-10-17',
        Statement: [
          {
            Effect: 'Allow',
            Action: 'sqs:SendMessage',
            Resource: { 'Fn::GetAtt': [logicalId(env.stage.stateful.queues.get(queue)!.queue), 'Arn'] },
          },
        ],
      });
      expect(policy.Properties?.Roles).toBeUndefined();
      expect(policy.Properties?.Users).toBeUndefined();
      expect(policy.Properties?.Groups).toBeUndefined();
    }
  });

  it('are exported with their ARN and the queue URL', () => {
    const env = envs[name];
    const outputs = env.json.stateful.Outputs ?? {};
    const stack = `Switchboard-${name}-Stateful`;
    expect(outputs.SalesProducerPolicyArn).toMatchObject({
      Value: { Ref: logicalId(env.stage.stateful.producerPolicies.get('sales')!) },
      Export: { Name: `${stack}-SalesProducerPolicyArn` },
    });
    expect(outputs.SalesQueueUrl).toMatchObject({
      Value: { Ref: logicalId(env.stage.stateful.queues.get('sales')!.queue) },
      Export: { Name: `${stack}-SalesQueueUrl` },
    });
    expect(outputs.ResearchProducerPolicyArn).toMatchObject({
      Value: { Ref: logicalId(env.stage.stateful.producerPolicies.get('research')!) },
      Export: { Name: `${stack}-ResearchProducerPolicyArn` },
    });
    expect(outputs.ResearchQueueUrl).toMatchObject({
      Value: { Ref: logicalId(env.stage.stateful.queues.get('research')!.queue) },
      Export: { Name: `${stack}-ResearchQueueUrl` },
    });
  });
});
