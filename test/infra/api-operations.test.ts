import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Function as LambdaFunction, Code, Runtime } from 'aws-cdk-lib/aws-lambda';
import { ENVIRONMENTS, ENVIRONMENT_NAMES, environmentConfig, type EnvironmentName } from '../../infra/config';
import { Operations } from '../../infra/constructs/operations';
import { DEFAULT_ROUTE_FUNCTION, ROUTES } from '../../shared/catalogue/routes';
import { FUNCTIONS, isRouted } from '../../shared/catalogue/functions';
import { QUEUES } from '../../shared/catalogue/job-types';
import { canonical, logicalId, synthesize, type SynthesizedEnvironment } from './synthesize';
import { testApp } from './test-app';

const envs = {} as Record<EnvironmentName, SynthesizedEnvironment>;
beforeAll(() => {
  for (const name of ENVIRONMENT_NAMES) envs[name] = synthesize(name);
});

function resourcesOf(env: SynthesizedEnvironment, type: string) {
  return Object.values(env.json.service.Resources)
    .filter((r) => r.Type === type)
    .map((r) => r.Properties ?? {});
}

/** The resources of `type` that belong to one API (the HTTP API, or the relay's WebSocket API), by its logical id. */
function apiResources(env: SynthesizedEnvironment, type: string, api: 'http' | 'relay') {
  const apiId = logicalId(api === 'http' ? env.stage.service.api.httpApi : env.stage.service.relay.webSocketApi);
  return Object.entries(env.json.service.Resources).filter(
    ([, r]) => r.Type === type && JSON.stringify(r.Properties?.ApiId) === JSON.stringify({ Ref: apiId }),
  );
}

/** The function a route's integration invokes, as a FunctionId. */
function routeTargets(env: SynthesizedEnvironment, api: 'http' | 'relay' = 'http'): Record<string, string> {
  const functionByLogicalId = new Map(FUNCTIONS.map((fn) => [logicalId(env.stage.service.functions.get(fn.id)!.function), fn.id]));
  const targets: Record<string, string> = {};
  for (const route of apiResources(env, 'AWS::ApiGatewayV2::Route', api).map(([, r]) => r.Properties ?? {})) {
    const routeTarget = route.Target as { 'Fn::Join': [string, unknown[]] };
    const integrationId = (routeTarget['Fn::Join'][1][1] as { Ref: string }).Ref;
    // An HTTP API integration names the function's ARN; a WebSocket one its invocation URI, which holds that ARN.
    const uri = JSON.stringify(env.json.service.Resources[integrationId]?.Properties?.IntegrationUri);
    const target = [...functionByLogicalId].find(([id]) => uri.includes(`"Fn::GetAtt":["${id}","Arn"]`));
    targets[String(route.RouteKey)] = target?.[1] ?? '?';
  }
  return targets;
}

describe.each(ENVIRONMENT_NAMES)('HTTP API (%s)', (name) => {
  it('routes every ROUTES entry to its function and everything else to the default function', () => {
    const expected = Object.fromEntries([
      ...ROUTES.map((route) => [`${route.method} ${route.path}`, route.function]),
      ['$default', DEFAULT_ROUTE_FUNCTION],
    ]);
    expect(routeTargets(envs[name])).toEqual(expected);
  });

  it('routes HEAD /health to the health function (HEAD, DELETE and PATCH are API Gateway methods too)', () => {
    expect(routeTargets(envs[name])).toMatchObject({ 'GET /health': 'healthApi', 'HEAD /health': 'healthApi' });
  });

  it('uses payload format 2.0 Lambda proxy integrations', () => {
    for (const integration of apiResources(envs[name], 'AWS::ApiGatewayV2::Integration', 'http').map(([, r]) => r.Properties ?? {})) {
      expect(integration).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
    }
  });

  it('throttles each route on its own and everything else by the default, and logs access to a log group', () => {
    const env = envs[name];
    const { apiThrottle } = ENVIRONMENTS[name];
    const logGroupId = logicalId(env.stage.service.api.accessLogGroup);
    expect(apiResources(env, 'AWS::ApiGatewayV2::Stage', 'http')).toHaveLength(1);
    env.service.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: apiThrottle.default.rateLimit, ThrottlingBurstLimit: apiThrottle.default.burstLimit },
      RouteSettings: Object.fromEntries(
        ROUTES.map((route) => {
          const throttle = apiThrottle.routes[`${route.method} ${route.path}`]!;
          return [`${route.method} ${route.path}`, { ThrottlingRateLimit: throttle.rateLimit, ThrottlingBurstLimit: throttle.burstLimit }];
        }),
      ),
      AccessLogSettings: { DestinationArn: { 'Fn::GetAtt': [logGroupId, 'Arn'] }, Format: Match.stringLikeRegexp('\\$context.requestId') },
    });
  });

  it('creates the stage after every route its settings name', () => {
    const env = envs[name];
    const [, stage] = apiResources(env, 'AWS::ApiGatewayV2::Stage', 'http')[0]!;
    const routeIds = apiResources(env, 'AWS::ApiGatewayV2::Route', 'http')
      .filter(([, r]) => r.Properties?.RouteKey !== '$default')
      .map(([id]) => id);
    expect(routeIds).toHaveLength(ROUTES.length);
    expect(stage?.DependsOn).toEqual(expect.arrayContaining(routeIds));
  });

  it('caps the concurrency of every function behind a route (api functions and webhooks)', () => {
    const env = envs[name];
    for (const fn of FUNCTIONS.filter(isRouted)) {
      const id = logicalId(env.stage.service.functions.get(fn.id)!.function);
      const reserved = environmentConfig(name, { allowPlaceholders: true }).reservedConcurrency[fn.id];
      expect(env.json.service.Resources[id]?.Properties?.ReservedConcurrentExecutions).toBe(reserved);
      expect(reserved).toBeGreaterThan(0);
    }
  });

  it('outputs what a team uses: API URL, public base URL and alarm topic; table, queue URLs and secrets from the stateful stack', () => {
    const env = envs[name];
    const { stateful, service } = env.stage;
    const values = (stack: 'stateful' | 'service') =>
      Object.fromEntries(
        Object.entries(env.json[stack].Outputs ?? {})
          .filter(([key]) => !key.startsWith('PublishOutput'))
          .map(([key, output]) => [key, canonical(output.Value, env, stack === 'stateful' ? 'Stateful' : 'Service')]),
      );
    const { publicHost } = ENVIRONMENTS[name];
    expect(values('service')).toEqual({
      ApiUrl: `Service:${logicalId(service.api.httpApi)}.ApiEndpoint`,
      // Where the environment has a public host, Twilio and clients use the front door (test/infra/front-door.test.ts).
      ...(publicHost === 'none'
        ? { PublicBaseUrl: `Service:${logicalId(service.api.httpApi)}.ApiEndpoint` }
        : {
            PublicBaseUrl: `https://${publicHost.domainName}`,
            PublicHostTarget: `Service:${logicalId(service.frontDoor!.distribution)}.DomainName`,
          }),
      RelaySocketUrl: `wss://Service:${logicalId(service.relay.webSocketApi)}.execute-api.${service.region}.Service:AWS::URLSuffix/relay`,
      AlarmTopicArn: `Service:${logicalId(service.operations.alarmTopic)}`,
    });
    expect(values('stateful')).toEqual({
      TableName: `Stateful:${logicalId(stateful.table)}`,
      SalesQueueUrl: `Stateful:${logicalId(stateful.queues.get('sales')!.queue)}`,
      WebhooksQueueUrl: `Stateful:${logicalId(stateful.queues.get('webhooks')!.queue)}`,
      WebhooksDeadLetterQueueUrl: `Stateful:${logicalId(stateful.queues.get('webhooks')!.deadLetterQueue)}`,
      SalesDeadLetterQueueUrl: `Stateful:${logicalId(stateful.queues.get('sales')!.deadLetterQueue)}`,
      CopywriterQueueUrl: `Stateful:${logicalId(stateful.queues.get('copywriter')!.queue)}`,
      CopywriterDeadLetterQueueUrl: `Stateful:${logicalId(stateful.queues.get('copywriter')!.deadLetterQueue)}`,
      CallQueueUrl: `Stateful:${logicalId(stateful.queues.get('call')!.queue)}`,
      CallDeadLetterQueueUrl: `Stateful:${logicalId(stateful.queues.get('call')!.deadLetterQueue)}`,
      SalesProducerPolicyArn: `Stateful:${logicalId(stateful.producerPolicies.get('sales')!)}`,
      ResearchQueueUrl: `Stateful:${logicalId(stateful.queues.get('research')!.queue)}`,
      ResearchDeadLetterQueueUrl: `Stateful:${logicalId(stateful.queues.get('research')!.deadLetterQueue)}`,
      ResearchProducerPolicyArn: `Stateful:${logicalId(stateful.producerPolicies.get('research')!)}`,
      SummaryQueueUrl: `Stateful:${logicalId(stateful.queues.get('summary')!.queue)}`,
      SummaryDeadLetterQueueUrl: `Stateful:${logicalId(stateful.queues.get('summary')!.deadLetterQueue)}`,
      CrmQueueUrl: `Stateful:${logicalId(stateful.queues.get('crm')!.queue)}`,
      CrmDeadLetterQueueUrl: `Stateful:${logicalId(stateful.queues.get('crm')!.deadLetterQueue)}`,
      CrmsyncQueueUrl: `Stateful:${logicalId(stateful.queues.get('crmsync')!.queue)}`,
      CrmsyncDeadLetterQueueUrl: `Stateful:${logicalId(stateful.queues.get('crmsync')!.deadLetterQueue)}`,
      OpenaiSecretArn: `Stateful:${logicalId(stateful.secrets.get('openai')!.secret)}`,
      SearchSecretArn: `Stateful:${logicalId(stateful.secrets.get('search')!.secret)}`,
      TwilioSecretArn: `Stateful:${logicalId(stateful.secrets.get('twilio')!.secret)}`,
      CrmSecretArn: `Stateful:${logicalId(stateful.secrets.get('crm')!.secret)}`,
    });
  });
});

describe.each(ENVIRONMENT_NAMES)('relay socket (%s)', (name) => {
  it('routes $connect, $default and $disconnect of the WebSocket API to the socket function, through Lambda proxy integrations', () => {
    expect(routeTargets(envs[name], 'relay')).toEqual({
      $connect: 'conversationRelayWebhook',
      $default: 'conversationRelayWebhook',
      $disconnect: 'conversationRelayWebhook',
    });
    for (const [, integration] of apiResources(envs[name], 'AWS::ApiGatewayV2::Integration', 'relay')) {
      expect(integration.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY' });
    }
  });

  it('has one auto-deployed `relay` stage, throttled by relayThrottle, logging access', () => {
    const env = envs[name];
    const stages = apiResources(env, 'AWS::ApiGatewayV2::Stage', 'relay');
    expect(stages).toHaveLength(1);
    const { relayThrottle } = ENVIRONMENTS[name];
    expect(stages[0]![1].Properties).toMatchObject({
      StageName: 'relay',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: relayThrottle.rateLimit, ThrottlingBurstLimit: relayThrottle.burstLimit },
      AccessLogSettings: { DestinationArn: { 'Fn::GetAtt': [logicalId(env.stage.service.relay.accessLogGroup), 'Arn'] } },
    });
  });

  it('caps the socket function at what its throttle admits (burst + rate x timeout)', () => {
    const { relayThrottle, reservedConcurrency } = environmentConfig(name, { allowPlaceholders: true });
    const timeout = FUNCTIONS.find((fn) => fn.id === 'conversationRelayWebhook')!.timeoutSeconds;
    expect(reservedConcurrency.conversationRelayWebhook).toBeGreaterThanOrEqual(
      relayThrottle.burstLimit + Math.ceil(relayThrottle.rateLimit * timeout),
    );
  });
});

describe.each(ENVIRONMENT_NAMES)('operations (%s)', (name) => {
  const alarms = (env: SynthesizedEnvironment) => resourcesOf(env, 'AWS::CloudWatch::Alarm');
  const metricAlarm = (env: SynthesizedEnvironment, metricName: string, dimension: string, value: string) =>
    alarms(env).filter(
      (a) =>
        a.MetricName === metricName &&
        (a.Dimensions as { Name: string; Value: unknown }[] | undefined)?.some(
          (d) => d.Name === dimension && canonical(d.Value, env) === value,
        ),
    );

  it('alarms while any dead-letter queue holds a message, before its oldest job is lost, and on the oldest message of each queue', () => {
    const env = envs[name];
    for (const queue of QUEUES) {
      const built = env.stage.stateful.queues.get(queue.id)!;
      const dlq = `Stateful:${logicalId(built.deadLetterQueue)}.QueueName`;
      const [dlqAlarm, ...moreDlq] = metricAlarm(env, 'ApproximateNumberOfMessagesVisible', 'QueueName', dlq);
      expect(moreDlq).toHaveLength(0);
      // A 5-minute maximum above 0, 1 of 1, and no recovery while the queue sends no data: it stays in alarm until emptied.
      expect(dlqAlarm).toMatchObject({
        Threshold: 0,
        ComparisonOperator: 'GreaterThanThreshold',
        Statistic: 'Maximum',
        Period: 300,
        EvaluationPeriods: 1,
        DatapointsToAlarm: 1,
        TreatMissingData: 'ignore',
      });
      const [dlqAge, ...moreAge] = metricAlarm(env, 'ApproximateAgeOfOldestMessage', 'QueueName', dlq);
      expect(moreAge).toHaveLength(0);
      expect(dlqAge).toMatchObject({
        Threshold: 10 * 24 * 3600,
        ComparisonOperator: 'GreaterThanThreshold',
        Statistic: 'Maximum',
        EvaluationPeriods: 1,
        TreatMissingData: 'ignore',
      });
      expect(ENVIRONMENTS[name].alarms.deadLetterAgeSeconds).toBeLessThan(14 * 24 * 3600);
      const [ageAlarm] = metricAlarm(env, 'ApproximateAgeOfOldestMessage', 'QueueName', `Stateful:${logicalId(built.queue)}.QueueName`);
      expect(ageAlarm).toMatchObject({ Threshold: ENVIRONMENTS[name].alarms.queueOldestMessageAgeSeconds });
    }
  });

  it('alarms while the schedules’ dead-letter queue holds an event', () => {
    const env = envs[name];
    const queue = `Service:${logicalId(env.stage.service.schedules.deadLetterQueue)}.QueueName`;
    const found = metricAlarm(env, 'ApproximateNumberOfMessagesVisible', 'QueueName', queue);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      Statistic: 'Maximum',
      TreatMissingData: 'ignore',
    });
  });

  it('alarms on errors and duration near the timeout of every function not behind the HTTP API, throttles of every function', () => {
    const env = envs[name];
    const { alarms: thresholds } = ENVIRONMENTS[name];
    const watched = FUNCTIONS.filter((fn) => !ROUTES.some((route) => route.function === fn.id) && fn.id !== DEFAULT_ROUTE_FUNCTION);
    // The workers, the schedules, and the relay socket (a webhook without an HTTP route, which the 5xx rate never sees).
    expect(watched.map((fn) => fn.id)).toEqual(expect.arrayContaining(['conversationRelayWebhook', 'commandJanitor', 'researchWorker']));
    for (const fn of FUNCTIONS) {
      const fnRef = `Service:${logicalId(env.stage.service.functions.get(fn.id)!.function)}`;
      const isWatched = watched.includes(fn);
      expect(metricAlarm(env, 'Throttles', 'FunctionName', fnRef)).toHaveLength(1);
      expect(metricAlarm(env, 'Errors', 'FunctionName', fnRef)).toHaveLength(isWatched ? 1 : 0);
      const duration = metricAlarm(env, 'Duration', 'FunctionName', fnRef);
      expect(duration).toHaveLength(isWatched ? 1 : 0);
      if (isWatched) {
        expect(duration[0]).toMatchObject({
          ExtendedStatistic: 'p99',
          Threshold: fn.timeoutSeconds * 1000 * (thresholds.durationNearTimeoutPercent / 100),
          ComparisonOperator: 'GreaterThanOrEqualToThreshold',
          EvaluationPeriods: 3,
          DatapointsToAlarm: 2,
        });
      }
    }
    expect(thresholds.durationNearTimeoutPercent).toBe(80);
  });

  it('alarms on the concurrency of every function with a reservation, at 80% of it, 2 of 3 periods', () => {
    const env = envs[name];
    const { reservedConcurrency } = environmentConfig(name, { allowPlaceholders: true });
    for (const fn of FUNCTIONS) {
      const fnRef = `Service:${logicalId(env.stage.service.functions.get(fn.id)!.function)}`;
      const found = metricAlarm(env, 'ConcurrentExecutions', 'FunctionName', fnRef);
      const reserved = reservedConcurrency[fn.id];
      if (reserved === undefined) {
        expect([fn.id, found]).toEqual([fn.id, []]);
        continue;
      }
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({
        Namespace: 'AWS/Lambda',
        Statistic: 'Maximum',
        Period: 300,
        Threshold: Math.ceil(reserved * 0.8),
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 3,
        DatapointsToAlarm: 2,
      });
    }
    expect(alarms(env).filter((a) => a.MetricName === 'ConcurrentExecutions')).toHaveLength(Object.keys(reservedConcurrency).length);
    // Every routed function has a reservation everywhere; the workers too in prod.
    expect(Object.keys(reservedConcurrency).length).toBe(FUNCTIONS.filter(isRouted).length + (name === 'prod' ? QUEUES.length : 0));
  });

  it('alarms on relay socket errors, refused $connects and client errors, 2 of 3 periods', () => {
    const env = envs[name];
    const { alarms: thresholds } = ENVIRONMENTS[name];
    const api = `Service:${logicalId(env.stage.service.relay.webSocketApi)}`;
    const dimensions = (metric: { MetricStat?: { Metric: { Dimensions: { Name: string; Value: unknown }[] } } }) =>
      Object.fromEntries((metric.MetricStat?.Metric.Dimensions ?? []).map((d) => [d.Name, canonical(d.Value, env)]));
    const apiRef = JSON.stringify({ Ref: logicalId(env.stage.service.relay.webSocketApi) });
    const socketAlarms = alarms(env).filter((a) => JSON.stringify(a).includes('"AWS/ApiGateway"') && JSON.stringify(a).includes(apiRef));
    expect(socketAlarms).toHaveLength(3);
    const errors = socketAlarms.find((a) => Array.isArray(a.Metrics))!;
    expect(errors).toMatchObject({ Threshold: thresholds.relaySocketErrors, EvaluationPeriods: 3, DatapointsToAlarm: 2 });
    const metrics = errors.Metrics as { Id: string; Expression?: string; MetricStat?: { Metric: { MetricName: string } } }[];
    expect(metrics.map((m) => m.Expression ?? m.MetricStat?.Metric.MetricName)).toEqual([
      'FILL(execution, 0) + FILL(integration, 0)',
      'ExecutionError',
      'IntegrationError',
    ]);
    for (const metric of metrics.slice(1)) expect(dimensions(metric as never)).toEqual({ ApiId: api, Stage: 'relay' });
    const single = (metricName: string) => socketAlarms.filter((a) => a.MetricName === metricName);
    const [refusals] = single('IntegrationError');
    expect(refusals).toMatchObject({
      Threshold: thresholds.relayConnectRefusals,
      Statistic: 'Sum',
      EvaluationPeriods: 3,
      DatapointsToAlarm: 2,
    });
    expect(
      Object.fromEntries((refusals!.Dimensions as { Name: string; Value: unknown }[]).map((d) => [d.Name, canonical(d.Value, env)])),
    ).toEqual({ ApiId: api, Stage: 'relay', Route: '$connect' });
    const [clientErrors] = single('ClientError');
    expect(clientErrors).toMatchObject({ Threshold: thresholds.relaySocketClientErrors, EvaluationPeriods: 3, DatapointsToAlarm: 2 });
    // Per-route metrics ($connect alone) exist only with detailed metrics on the stage.
    const [, stage] = apiResources(env, 'AWS::ApiGatewayV2::Stage', 'relay')[0]!;
    expect(stage.Properties).toMatchObject({ DefaultRouteSettings: { DetailedMetricsEnabled: true } });
  });

  it('alarms on the table’s throttled requests and system errors, summed over the operations the functions use, 2 of 3', () => {
    const env = envs[name];
    const { alarms: thresholds } = ENVIRONMENTS[name];
    const table = `Stateful:${logicalId(env.stage.stateful.table)}`;
    for (const [metricName, threshold] of [
      ['ThrottledRequests', thresholds.tableThrottledRequests],
      ['SystemErrors', thresholds.tableSystemErrors],
    ] as const) {
      const found = alarms(env).filter((a) => JSON.stringify(a.Metrics ?? []).includes(`"MetricName":"${metricName}"`));
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ Threshold: threshold, EvaluationPeriods: 3, DatapointsToAlarm: 2 });
      const metrics = (found[0]!.Metrics as { MetricStat?: { Metric: { Dimensions: { Name: string; Value: unknown }[] } } }[]).filter(
        (m) => m.MetricStat,
      );
      const operations = metrics.map((m) => {
        const dims = Object.fromEntries(m.MetricStat!.Metric.Dimensions.map((d) => [d.Name, canonical(d.Value, env)]));
        expect(dims.TableName).toBe(table);
        return dims.Operation;
      });
      expect(operations.sort()).toEqual(['DeleteItem', 'GetItem', 'PutItem', 'Query', 'TransactWriteItems', 'UpdateItem']);
    }
  });

  it('alarms when the alarm topic fails to deliver a notification', () => {
    const env = envs[name];
    const topic = `Service:${logicalId(env.stage.service.operations.alarmTopic)}.TopicName`;
    const found = metricAlarm(env, 'NumberOfNotificationsFailed', 'TopicName', topic);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ Threshold: 1, Statistic: 'Sum', ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
  });

  it('alarms on the API 5xx rate (from a minimum of requests) and p99 latency, 2 of 3 periods', () => {
    const env = envs[name];
    const { alarms: thresholds } = ENVIRONMENTS[name];
    const apiRef = `Service:${logicalId(env.stage.service.api.httpApi)}`;
    const latency = metricAlarm(env, 'Latency', 'ApiId', apiRef);
    expect(latency).toHaveLength(1);
    expect(latency[0]).toMatchObject({
      ExtendedStatistic: 'p99',
      Threshold: thresholds.apiP99LatencyMs,
      EvaluationPeriods: 3,
      DatapointsToAlarm: 2,
    });
    const rate = alarms(env).filter((a) => JSON.stringify(a.Metrics ?? []).includes('"MetricName":"5xx"'));
    expect(rate).toHaveLength(1);
    expect(rate[0]).toMatchObject({ Threshold: thresholds.apiServerErrorRatePercent, EvaluationPeriods: 3, DatapointsToAlarm: 2 });
    expect(JSON.stringify(rate[0]?.Metrics)).toContain('"MetricName":"Count"');
    const [expression] = rate[0]!.Metrics as { Expression: string }[];
    expect(expression!.Expression).toBe(`IF(requests >= ${thresholds.apiServerErrorMinimumRequests}, 100 * errors / requests, 0)`);
    expect(thresholds.apiServerErrorMinimumRequests).toBeGreaterThanOrEqual(10);
  });

  it('alarms on the failure rate of each command type from its command_type-only metrics (two metrics, however many functions end commands)', () => {
    const env = envs[name];
    const { alarms: thresholds } = ENVIRONMENTS[name];
    const rateAlarms = alarms(env).filter((a) => String(a.AlarmDescription).includes('commands failing'));
    expect(rateAlarms).toHaveLength(6);
    for (const [commandType, prefix] of [
      ['lead_follow_up', 'leadFollowUp'],
      ['copywriter', 'copywriter'],
      ['stakeholder_coordination', 'stakeholderCoordination'],
      ['deep_research', 'deepResearch'],
      ['post_call_summary', 'postCallSummary'],
      ['crm_import', 'crmImport'],
    ] as const) {
      const alarm = rateAlarms.find((a) => String(a.AlarmDescription).startsWith(`${commandType} `))!;
      const metric = (metricName: string, id: string) => ({
        Id: id,
        MetricStat: {
          Metric: { Namespace: 'Switchboard', MetricName: metricName, Dimensions: [{ Name: 'command_type', Value: commandType }] },
          Period: 900,
          Stat: 'Sum',
        },
        ReturnData: false,
      });
      const ended = `(FILL(${prefix}Failed, 0) + FILL(${prefix}Completed, 0))`;
      expect(alarm).toMatchObject({
        ComparisonOperator: 'GreaterThanThreshold',
        Threshold: thresholds.commandFailureRatePercent,
        EvaluationPeriods: 1,
        TreatMissingData: 'notBreaching',
        Metrics: [
          {
            Id: 'expr_1',
            Expression: `IF(${ended} >= ${thresholds.commandFailureMinimumEnded}, 100 * FILL(${prefix}Failed, 0) / ${ended}, 0)`,
            ReturnData: true,
          },
          metric('CommandFailed', `${prefix}Failed`),
          metric('CommandCompleted', `${prefix}Completed`),
        ],
      });
      expect(alarm.Metrics).toHaveLength(3);
    }
  });

  it(`alarms on offline generation only where provider keys are configured (${name}: ${String(ENVIRONMENTS[name].providersConfigured)})`, () => {
    const offline = alarms(envs[name]).filter((a) => JSON.stringify(a.Metrics ?? []).includes('OfflineGeneration'));
    expect(offline).toEqual(
      ENVIRONMENTS[name].providersConfigured
        ? [
            expect.objectContaining({
              Metrics: [
                {
                  Id: 'expr_1',
                  Label: 'Offline generation',
                  Expression: 'SELECT SUM(OfflineGeneration) FROM SCHEMA("Switchboard", command_type)',
                  Period: 300,
                  ReturnData: true,
                },
              ],
              Threshold: 1,
              ComparisonOperator: 'GreaterThanOrEqualToThreshold',
              TreatMissingData: 'notBreaching',
            }),
          ]
        : [],
    );
  });

  it('sends every alarm and its recovery to the one alarm topic, and has a dashboard', () => {
    const env = envs[name];
    env.service.resourceCountIs('AWS::SNS::Topic', 1);
    env.service.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    const topic = `Service:${logicalId(env.stage.service.operations.alarmTopic)}`;
    const all = alarms(env);
    const commandTypes = 6;
    const offline = ENVIRONMENTS[name].providersConfigured ? 1 : 0;
    const providerNotConfigured = 1;
    const notBehindHttpApi = FUNCTIONS.filter((f) => !ROUTES.some((r) => r.function === f.id) && f.id !== DEFAULT_ROUTE_FUNCTION).length;
    const reservations = Object.keys(environmentConfig(name, { allowPlaceholders: true }).reservedConcurrency).length;
    expect(all.length).toBe(
      2 + // API 5xx rate and p99 latency
        3 * QUEUES.length + // dead letters, dead-letter age, oldest message
        1 + // the schedules' dead letters
        FUNCTIONS.length + // throttles
        2 * notBehindHttpApi + // errors, duration near the timeout
        reservations + // concurrency near the reservation
        3 + // relay socket errors, refused connects, client errors
        2 + // table throttles and system errors
        1 + // failed alarm notifications
        commandTypes +
        offline +
        providerNotConfigured,
    );
    expect(all.some((alarm) => String(alarm.AlarmDescription).startsWith('A job needed a provider whose key is not set'))).toBe(true);
    for (const alarm of all) {
      expect((alarm.AlarmActions as unknown[]).map((a) => canonical(a, env))).toEqual([topic]);
      expect((alarm.OKActions as unknown[]).map((a) => canonical(a, env))).toEqual([topic]);
    }
  });

  it('subscribes the configured e-mail addresses to the alarm topic, and nothing else', () => {
    const env = envs[name];
    const topic = `Service:${logicalId(env.stage.service.operations.alarmTopic)}`;
    const subscriptions = resourcesOf(env, 'AWS::SNS::Subscription').map((sub) => ({ ...sub, TopicArn: canonical(sub.TopicArn, env) }));
    expect(subscriptions).toEqual(
      ENVIRONMENTS[name].alarmSubscriptions.emails.map((email) => ({ Protocol: 'email', Endpoint: email, TopicArn: topic })),
    );
    env.service.resourceCountIs('AWS::Chatbot::SlackChannelConfiguration', 0);
  });
});

describe('alarm subscriptions', () => {
  it('-c alarmEmail replaces the e-mail subscribers', () => {
    const env = synthesize('prod', { alarmEmail: 'a@example.org,b@example.org' });
    expect(resourcesOf(env, 'AWS::SNS::Subscription').map((sub) => sub.Endpoint)).toEqual(['a@example.org', 'b@example.org']);
  });

  it('tells a Slack channel through AWS Chatbot when one is configured', () => {
    const stack = new Stack(testApp(), 'Ops');
    const fn = new LambdaFunction(stack, 'Fn', {
      runtime: Runtime.NODEJS_22_X,
      handler: 'index.handler',
      code: Code.fromInline('exports.handler = 1'),
    });
    const operations = new Operations(stack, 'Operations', {
      functions: [{ definition: FUNCTIONS[0]!, function: fn }],
      queues: [],
      httpApi: new HttpApi(stack, 'Api'),
      thresholds: ENVIRONMENTS.prod.alarms,
      dashboardName: 'Switchboard-test',
      subscriptions: { emails: ['oncall@example.org'], slack: { workspaceId: 'T0123ABCD', channelId: 'C0456EFGH' } },
    });
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::Chatbot::SlackChannelConfiguration', {
      ConfigurationName: 'Switchboard-test-alarms',
      SlackWorkspaceId: 'T0123ABCD',
      SlackChannelId: 'C0456EFGH',
      SnsTopicArns: [{ Ref: stack.resolve((operations.alarmTopic.node.defaultChild as unknown as { logicalId: string }).logicalId) }],
    });
    template.resourceCountIs('AWS::SNS::Subscription', 1);
  });
});

describe('PUBLIC_BASE_URL', () => {
  it('can be set with -c publicBaseUrl and reaches every function', () => {
    const env = synthesize('dev', { publicBaseUrl: 'https://hooks.example.com' });
    for (const fn of resourcesOf(env, 'AWS::Lambda::Function')) {
      expect((fn.Environment as { Variables: Record<string, unknown> }).Variables.PUBLIC_BASE_URL).toBe('https://hooks.example.com');
    }
  });
});
