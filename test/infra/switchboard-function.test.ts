import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { ServiceTable } from '../../infra/constructs/service-table';
import { SwitchboardFunction } from '../../infra/constructs/switchboard-function';
import type { FunctionDefinition } from '../../shared/catalogue/functions';

const definition = (overrides: Partial<FunctionDefinition['access']>): FunctionDefinition => ({
  id: 'getCommandApi',
  kind: 'api',
  entry: 'functions/api/does-not-exist.ts',
  description: 'test function',
  timeoutSeconds: 5,
  memoryMb: 128,
  access: { table: 'read', sendsTo: [], sendsToDeadLetterOf: [], secrets: [], ...overrides },
});

function stack(bundling: boolean): Stack {
  const app = new App({ context: bundling ? {} : { 'aws:cdk:bundling-stacks': [] } });
  return new Stack(app, 'Test');
}

describe('SwitchboardFunction', () => {
  it('grants Query on exactly the declared indexes, beside the table actions', () => {
    const scope = stack(false);
    const { table } = new ServiceTable(scope, 'Data');
    const fn = new SwitchboardFunction(scope, 'Fn', { definition: definition({ indexes: ['gsi1'] }) });
    fn.bindDeclaredAccess({ table, queues: new Map(), secrets: new Map() });
    const tableId = scope.resolve((table.node.defaultChild as unknown as { logicalId: string }).logicalId) as string;
    const statements = Object.values(Template.fromStack(scope).findResources('AWS::IAM::Policy')).flatMap(
      (policy) => (policy as { Properties: { PolicyDocument: { Statement: unknown[] } } }).Properties.PolicyDocument.Statement,
    );
    expect(statements).toContainEqual({
      Effect: 'Allow',
      Action: 'dynamodb:Query',
      Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [tableId, 'Arn'] }, '/index/gsi1']] },
    });
  });

  it('refuses index access without table access', () => {
    const scope = stack(false);
    const { table } = new ServiceTable(scope, 'Data');
    const fn = new SwitchboardFunction(scope, 'Fn', { definition: definition({ table: 'none', indexes: ['gsi1'] }) });
    expect(() => fn.bindDeclaredAccess({ table, queues: new Map(), secrets: new Map() })).toThrow(/access.indexes needs access.table/);
  });

  it('names the missing queue when a definition sends to a queue that was not built', () => {
    const scope = stack(false);
    const { table } = new ServiceTable(scope, 'Data');
    const fn = new SwitchboardFunction(scope, 'Fn', { definition: definition({ sendsTo: ['sales'] }) });
    expect(() => fn.bindDeclaredAccess({ table, queues: new Map(), secrets: new Map() })).toThrow(/No queue "sales"/);
  });

  it('sets the queue URL variable and SendMessage on that queue only', () => {
    const scope = stack(false);
    const { table } = new ServiceTable(scope, 'Data');
    const queue = new Queue(scope, 'Q');
    const fn = new SwitchboardFunction(scope, 'Fn', { definition: definition({ sendsTo: ['sales'] }) });
    fn.bindDeclaredAccess({ table, queues: new Map([['sales', { queue, deadLetterQueue: queue }]]), secrets: new Map() });
    const template = Template.fromStack(scope);
    const queueId = scope.resolve((queue.node.defaultChild as unknown as { logicalId: string }).logicalId) as string;
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: { SALES_QUEUE_URL: { Ref: queueId } } },
    });
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: [
          { Action: ['logs:CreateLogStream', 'logs:PutLogEvents'] },
          { Action: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'], Resource: '*' },
          { Action: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchGetItem'] },
          { Action: 'sqs:SendMessage', Resource: { 'Fn::GetAtt': [queueId, 'Arn'] } },
        ].map((statement) => ({ Effect: 'Allow', ...statement, Resource: statement.Resource ?? Match.anyValue() })),
      },
    });
  });

  it('fails synth on a missing entry when the stack is bundled', () => {
    expect(() => new SwitchboardFunction(stack(true), 'Fn', { definition: definition({}) })).toThrow(/Cannot find entry file/);
  });
});
