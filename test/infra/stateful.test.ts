import { Match } from 'aws-cdk-lib/assertions';
import { ENVIRONMENT_NAMES, type EnvironmentName } from '../../infra/config';
import { QUEUES, visibilityTimeoutSeconds } from '../../shared/catalogue/job-types';
import { SECRETS } from '../../shared/catalogue/secrets';
import { TABLE } from '../../shared/catalogue/table';
import { ENVIRONMENTS } from '../../infra/config';
import { functionById } from '../../shared/catalogue/functions';
import { logicalId, synthesize, type SynthesizedEnvironment } from './synthesize';

const FOURTEEN_DAYS = 14 * 24 * 60 * 60;

const envs = {} as Record<EnvironmentName, SynthesizedEnvironment>;
beforeAll(() => {
  for (const name of ENVIRONMENT_NAMES) envs[name] = synthesize(name);
});

describe.each(ENVIRONMENT_NAMES)('stateful stack (%s)', (name) => {
  it('is pinned to the account and region of its config, though synthesized without credentials', () => {
    const { stage } = envs[name];
    for (const stack of [stage.stateful, stage.service]) {
      expect(stack.environment).toBe(`aws://${ENVIRONMENTS[name].account}/${ENVIRONMENTS[name].region}`);
    }
  });

  it('has the one table: on-demand, PITR, encrypted, TTL and every index of TABLE', () => {
    const { stateful } = envs[name];
    stateful.resourceCountIs('AWS::DynamoDB::Table', 1);
    stateful.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
      ],
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true },
      TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
      GlobalSecondaryIndexes: [
        {
          IndexName: 'gsi1',
          KeySchema: [
            { AttributeName: 'gsi1pk', KeyType: 'HASH' },
            { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
          ],
          Projection: {
            ProjectionType: 'INCLUDE',
            NonKeyAttributes: [
              // commands in progress, for the janitor
              ...['id', 'type', 'status', 'tenant_id', 'parent_id', 'attempts', 'created_at', 'updated_at', 'requeued_at'],
              // due follow-ups, whole (the rest of their attributes)
              ...['subject', 'content', 'scheduled_for', 'site_id', 'lead_id', 'user_id', 'metadata', 'command_id'],
            ],
          },
        },
        {
          IndexName: 'gsi2',
          KeySchema: [
            { AttributeName: 'gsi2pk', KeyType: 'HASH' },
            { AttributeName: 'gsi2sk', KeyType: 'RANGE' },
          ],
          Projection: {
            ProjectionType: 'INCLUDE',
            // a lead's follow-ups, whole
            NonKeyAttributes: [
              ...[
                'id',
                'type',
                'subject',
                'content',
                'scheduled_for',
                'status',
                'site_id',
                'lead_id',
                'user_id',
                'metadata',
                'tenant_id',
                'command_id',
              ],
              ...[
                'created_at',
                'updated_at',
                'due_at',
                'announced_at',
                'sent_at',
                'skipped_at',
                'cancelled_at',
                'status_reason',
                'edited_at',
              ],
              ...['adapted_by', 'previous_scheduled_for', 'expires_at'],
            ],
          },
        },
        {
          IndexName: 'gsi3',
          KeySchema: [
            { AttributeName: 'gsi3pk', KeyType: 'HASH' },
            { AttributeName: 'gsi3sk', KeyType: 'RANGE' },
          ],
          Projection: {
            ProjectionType: 'INCLUDE',
            NonKeyAttributes: [
              // a tenant's commands, short form (the error's code alone)
              ...['id', 'type', 'status', 'site_id', 'created_at', 'updated_at', 'finished_at', 'error_code', 'expires_at'],
              // a site's follow-ups, whole (the rest of their attributes)
              ...['subject', 'content', 'scheduled_for', 'lead_id', 'user_id', 'metadata', 'tenant_id', 'command_id', 'due_at'],
              ...['announced_at', 'sent_at', 'skipped_at', 'cancelled_at', 'status_reason', 'edited_at', 'adapted_by'],
              'previous_scheduled_for',
            ],
          },
        },
      ],
    });
  });

  it("never copies a command's large attributes into an index", () => {
    const table = Object.values(envs[name].json.stateful.Resources).find((r) => r.Type === 'AWS::DynamoDB::Table');
    const projected = JSON.stringify(table?.Properties?.GlobalSecondaryIndexes);
    for (const attribute of ['request', 'result', 'context', 'targets', 'supervisors', 'progress', 'error', 'child_ids']) {
      expect(projected).not.toContain(`"${attribute}"`);
    }
  });

  it('gives every queue a dead-letter queue, SSE, TLS-only access and a 6x visibility timeout', () => {
    const env = envs[name];
    for (const definition of QUEUES) {
      const jobQueue = env.stage.stateful.queues.get(definition.id);
      if (!jobQueue) throw new Error(`queue ${definition.id} not built`);
      const queueId = logicalId(jobQueue.queue);
      const dlqId = logicalId(jobQueue.deadLetterQueue);
      const queue = env.json.stateful.Resources[queueId]?.Properties ?? {};
      const dlq = env.json.stateful.Resources[dlqId]?.Properties ?? {};

      expect(queue.RedrivePolicy).toEqual({
        deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] },
        maxReceiveCount: definition.maxReceiveCount,
      });
      expect(queue.VisibilityTimeout).toBe(visibilityTimeoutSeconds(definition));
      expect(queue.VisibilityTimeout).toBeGreaterThanOrEqual(6 * functionById(definition.workerFunction).timeoutSeconds);
      expect(queue.SqsManagedSseEnabled).toBe(true);
      expect(dlq.SqsManagedSseEnabled).toBe(true);
      expect(dlq.MessageRetentionPeriod).toBe(FOURTEEN_DAYS);

      for (const id of [queueId, dlqId]) {
        env.stateful.hasResourceProperties('AWS::SQS::QueuePolicy', {
          Queues: [{ Ref: id }],
          PolicyDocument: {
            Statement: Match.arrayWith([
              Match.objectLike({
                Effect: 'Deny',
                Action: 'sqs:*',
                Condition: { Bool: { 'aws:SecureTransport': 'false' } },
                Resource: { 'Fn::GetAtt': [id, 'Arn'] },
              }),
            ]),
          },
        });
      }
    }
    env.stateful.resourceCountIs('AWS::SQS::Queue', 2 * QUEUES.length);
  });

  it('has one secret per SECRETS entry: provider credentials created without any value, the CRM sealing key generated', () => {
    const env = envs[name];
    const secrets = Object.values(env.json.stateful.Resources).filter((r) => r.Type === 'AWS::SecretsManager::Secret');
    expect(secrets).toHaveLength(SECRETS.length);
    for (const secret of secrets) expect(secret.Properties).not.toHaveProperty('SecretString');
    for (const definition of SECRETS) {
      const built = env.stage.stateful.secrets.get(definition.id);
      if (!built) throw new Error(`secret ${definition.id} not built`);
      const properties = env.json.stateful.Resources[logicalId(built.secret)]?.Properties;
      for (const key of definition.keys) expect(String(properties?.Description)).toContain(key);
      if (definition.generated) {
        expect(properties?.GenerateSecretString).toMatchObject({ GenerateStringKey: definition.generated.key, PasswordLength: 64 });
      } else {
        expect(properties).not.toHaveProperty('GenerateSecretString');
      }
    }
    expect(SECRETS.filter((definition) => definition.generated).map((definition) => definition.id)).toEqual(['crm']);
  });
});

describe('data protection per environment', () => {
  const table = (name: EnvironmentName) => Object.values(envs[name].json.stateful.Resources).find((r) => r.Type === 'AWS::DynamoDB::Table');

  it('retains and deletion-protects the table in prod, with termination protection on the stack', () => {
    const prod = table('prod');
    expect(prod?.Properties?.DeletionProtectionEnabled).toBe(true);
    expect(prod?.DeletionPolicy).toBe('Retain');
    expect(prod?.UpdateReplacePolicy).toBe('Retain');
    expect(envs.prod.stage.stateful.terminationProtection).toBe(true);
    for (const r of Object.values(envs.prod.json.stateful.Resources)) {
      if (r.Type === 'AWS::SecretsManager::Secret') expect(r.DeletionPolicy).toBe('Retain');
    }
  });

  it('retains every queue and dead-letter queue in prod, so a replaced stack keeps dead-lettered jobs', () => {
    const queues = Object.entries(envs.prod.json.stateful.Resources).filter(([, r]) => r.Type === 'AWS::SQS::Queue');
    const expected = QUEUES.flatMap((definition) => {
      const built = envs.prod.stage.stateful.queues.get(definition.id)!;
      return [logicalId(built.queue), logicalId(built.deadLetterQueue)];
    });
    expect(queues.map(([id]) => id).sort()).toEqual(expected.sort());
    for (const [, queue] of queues) expect([queue.DeletionPolicy, queue.UpdateReplacePolicy]).toEqual(['Retain', 'Retain']);
  });

  it.each(['dev', 'staging'] as const)('lets %s be torn down: no RETAIN, no deletion protection', (name) => {
    const t = table(name);
    expect(t?.Properties?.DeletionProtectionEnabled).toBe(false);
    expect(t?.DeletionPolicy).toBe('Delete');
    for (const r of Object.values(envs[name].json.stateful.Resources)) {
      if (r.Type === 'AWS::SQS::Queue') expect([r.DeletionPolicy, r.UpdateReplacePolicy]).toEqual(['Delete', 'Delete']);
    }
    // But API Gateway's account role: the account-wide setting keeps naming it after the stack goes (test/infra/front-door.test.ts).
    const accountRole = logicalId(envs[name].stage.stateful.apiGatewayAccount!.role);
    for (const stack of ['stateful', 'service'] as const) {
      for (const [id, r] of Object.entries(envs[name].json[stack].Resources))
        if (id !== accountRole) expect(r.DeletionPolicy).not.toBe('Retain');
    }
  });
});
