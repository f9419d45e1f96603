import { ENVIRONMENT_NAMES, type EnvironmentName } from '../../infra/config';
import { FUNCTIONS, type FunctionDefinition } from '../../shared/catalogue/functions';
import { QUEUES } from '../../shared/catalogue/job-types';
import { canonical, logicalId, synthesize, type SynthesizedEnvironment } from './synthesize';

/** The exact DynamoDB actions per access level (issue 7), written out here, not imported. */
const TABLE_READ = ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchGetItem'];
const TABLE_WRITE = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
const SQS_CONSUME = [
  'sqs:ReceiveMessage',
  'sqs:ChangeMessageVisibility',
  'sqs:GetQueueUrl',
  'sqs:DeleteMessage',
  'sqs:GetQueueAttributes',
];

type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown };

const envs = {} as Record<EnvironmentName, SynthesizedEnvironment>;
beforeAll(() => {
  for (const name of ENVIRONMENT_NAMES) envs[name] = synthesize(name);
});

function grants(actions: string[], resources: string[]): string[] {
  return actions.flatMap((action) => resources.map((resource) => `${action} on ${resource}`));
}

/** Every (action, resource) pair the role of `definition` must have, derived from its definition alone. */
function expectedGrants(env: SynthesizedEnvironment, definition: FunctionDefinition): string[] {
  const { stateful, service } = env.stage;
  const built = service.functions.get(definition.id)!;
  const expected = [
    ...grants(['logs:CreateLogStream', 'logs:PutLogEvents'], [`Service:${logicalId(built.logGroup)}.Arn`]),
    ...grants(['xray:PutTraceSegments', 'xray:PutTelemetryRecords'], ['*']),
  ];
  const tableArn = `Stateful:${logicalId(stateful.table)}.Arn`;
  const { access } = definition;
  if (access.table === 'read') expected.push(...grants(TABLE_READ, [tableArn]));
  if (access.table === 'readwrite') expected.push(...grants([...TABLE_READ, ...TABLE_WRITE], [tableArn]));
  for (const index of access.indexes ?? []) expected.push(...grants(['dynamodb:Query'], [`${tableArn}/index/${index}`]));
  for (const id of access.sendsTo) {
    expected.push(...grants(['sqs:SendMessage'], [`Stateful:${logicalId(stateful.queues.get(id)!.queue)}.Arn`]));
  }
  for (const id of access.sendsToDeadLetterOf) {
    expected.push(...grants(['sqs:SendMessage'], [`Stateful:${logicalId(stateful.queues.get(id)!.deadLetterQueue)}.Arn`]));
  }
  for (const id of access.secrets) {
    expected.push(...grants(['secretsmanager:GetSecretValue'], [`Stateful:${logicalId(stateful.secrets.get(id)!.secret)}`]));
  }
  for (const queue of QUEUES.filter((q) => q.workerFunction === definition.id)) {
    expected.push(...grants(SQS_CONSUME, [`Stateful:${logicalId(stateful.queues.get(queue.id)!.queue)}.Arn`]));
  }
  return [...new Set(expected)].sort();
}

/** Every (action, resource) pair the role of `definition` has in the template, from every policy attached to it. */
function actualGrants(env: SynthesizedEnvironment, definition: FunctionDefinition): { grants: string[]; statements: Statement[] } {
  const roleId = logicalId(env.stage.service.functions.get(definition.id)!.role);
  const policies = Object.values(env.json.service.Resources).filter(
    (r) =>
      r.Type === 'AWS::IAM::Policy' &&
      (r.Properties?.Roles as unknown[] | undefined)?.some((role) => JSON.stringify(role) === JSON.stringify({ Ref: roleId })),
  );
  const statements = policies.flatMap((p) => (p.Properties?.PolicyDocument as { Statement: Statement[] }).Statement);
  const pairs = statements.flatMap((statement) => {
    const actions = [statement.Action].flat();
    const resources = [statement.Resource].flat().map((resource) => canonical(resource, env));
    return grants(actions, resources);
  });
  return { grants: [...new Set(pairs)].sort(), statements };
}

describe.each(ENVIRONMENT_NAMES)('least privilege (%s)', (name) => {
  it.each(FUNCTIONS.map((fn) => [fn.id, fn] as const))('%s: has exactly the grants its definition implies', (_, definition) => {
    const env = envs[name];
    expect(actualGrants(env, definition).grants).toEqual(expectedGrants(env, definition));
  });

  it.each(FUNCTIONS.map((fn) => [fn.id, fn] as const))('%s: only Allow statements, no conditions, no wildcard actions', (_, definition) => {
    for (const statement of actualGrants(envs[name], definition).statements) {
      expect(statement.Effect).toBe('Allow');
      expect(statement.Condition).toBeUndefined();
      for (const action of [statement.Action].flat()) expect(action).not.toContain('*');
    }
  });

  it('uses "*" as a resource only for X-Ray, which has no resource-level permissions', () => {
    for (const definition of FUNCTIONS) {
      for (const pair of actualGrants(envs[name], definition).grants) {
        if (pair.endsWith(' on *')) expect(pair).toMatch(/^xray:(PutTraceSegments|PutTelemetryRecords) on \*$/);
      }
    }
  });

  it('attaches no managed policies and gives every function its own role', () => {
    const env = envs[name];
    const roles = Object.values(env.json.service.Resources).filter((r) => r.Type === 'AWS::IAM::Role');
    expect(roles).toHaveLength(FUNCTIONS.length);
    for (const role of roles) {
      expect(role.Properties?.ManagedPolicyArns).toBeUndefined();
      expect(role.Properties?.Policies).toBeUndefined();
    }
    env.service.resourceCountIs('AWS::IAM::ManagedPolicy', 0);
    env.stateful.resourceCountIs('AWS::IAM::Role', 0);
  });
});
