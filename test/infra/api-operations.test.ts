import { Match } from 'aws-cdk-lib/assertions';
import { ENVIRONMENTS, ENVIRONMENT_NAMES, type EnvironmentName } from '../../infra/config';
import { DEFAULT_ROUTE_FUNCTION, ROUTES } from '../../shared/catalogue/routes';
import { FUNCTIONS } from '../../shared/catalogue/functions';
import { QUEUES } from '../../shared/catalogue/job-types';
import { canonical, logicalId, synthesize, type SynthesizedEnvironment } from './synthesize';

const envs = {} as Record<EnvironmentName, SynthesizedEnvironment>;
beforeAll(() => {
  for (const name of ENVIRONMENT_NAMES) envs[name] = synthesize(name);
});

function resourcesOf(env: SynthesizedEnvironment, type: string) {
  return Object.values(env.json.service.Resources)
    .filter((r) => r.Type === type)
    .map((r) => r.Properties ?? {});
}

/** The function a route's integration invokes, as a FunctionId. */
function routeTargets(env: SynthesizedEnvironment): Record<string, string> {
  const functionByLogicalId = new Map(
    FUNCTIONS.map((fn) => [logicalId(env.stage.service.functions.get(fn.id)!.function), fn.id]),
  );
  const targets: Record<string, string> = {};
  for (const route of resourcesOf(env, 'AWS::ApiGatewayV2::Route')) {
    const target = route.Target as { 'Fn::Join': [string, unknown[]] };
    const integrationId = (target['Fn::Join'][1][1] as { Ref: string }).Ref;
    const uri = env.json.service.Resources[integrationId]?.Properties?.IntegrationUri as { 'Fn::GetAtt': [string, string] };
    targets[String(route.RouteKey)] = functionByLogicalId.get(uri['Fn::GetAtt'][0]) ?? '?';
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
    for (const integration of resourcesOf(envs[name], 'AWS::ApiGatewayV2::Integration')) {
      expect(integration).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
    }
  });

  it('throttles the $default stage by default and logs access to a log group', () => {
    const env = envs[name];
    const logGroupId = logicalId(env.stage.service.api.accessLogGroup);
    env.service.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
    env.service.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: {
        ThrottlingRateLimit: ENVIRONMENTS[name].apiThrottle.rateLimit,
        ThrottlingBurstLimit: ENVIRONMENTS[name].apiThrottle.burstLimit,
      },
      AccessLogSettings: { DestinationArn: { 'Fn::GetAtt': [logGroupId, 'Arn'] }, Format: Match.stringLikeRegexp('\\$context.requestId') },
    });
  });

  it('outputs the API URL and every queue and dead-letter queue URL', () => {
    const env = envs[name];
    const outputs = env.json.service.Outputs ?? {};
    const values = Object.values(outputs).map((output) => canonical(output.Value, env));
    expect(values).toContain(`Service:${logicalId(env.stage.service.api.httpApi)}.ApiEndpoint`);
    for (const queue of QUEUES) {
      const built = env.stage.stateful.queues.get(queue.id)!;
      expect(values).toContain(`Stateful:${logicalId(built.queue)}`);
      expect(values).toContain(`Stateful:${logicalId(built.deadLetterQueue)}`);
    }
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

  it('alarms when any dead-letter queue holds a message, and on the oldest message of each queue', () => {
    const env = envs[name];
    for (const queue of QUEUES) {
      const built = env.stage.stateful.queues.get(queue.id)!;
      const [dlqAlarm, ...moreDlq] = metricAlarm(
        env,
        'ApproximateNumberOfMessagesVisible',
        'QueueName',
        `Stateful:${logicalId(built.deadLetterQueue)}.QueueName`,
      );
      expect(moreDlq).toHaveLength(0);
      expect(dlqAlarm).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
      const [ageAlarm] = metricAlarm(env, 'ApproximateAgeOfOldestMessage', 'QueueName', `Stateful:${logicalId(built.queue)}.QueueName`);
      expect(ageAlarm).toMatchObject({ Threshold: ENVIRONMENTS[name].alarms.queueOldestMessageAgeSeconds });
    }
  });

  it('alarms on errors of every worker and scheduled function and throttles of every function', () => {
    const env = envs[name];
    for (const fn of FUNCTIONS) {
      const fnRef = `Service:${logicalId(env.stage.service.functions.get(fn.id)!.function)}`;
      expect(metricAlarm(env, 'Throttles', 'FunctionName', fnRef)).toHaveLength(1);
      expect(metricAlarm(env, 'Errors', 'FunctionName', fnRef)).toHaveLength(fn.kind === 'api' ? 0 : 1);
    }
  });

  it('alarms on the API 5xx rate and p99 latency', () => {
    const env = envs[name];
    const apiRef = `Service:${logicalId(env.stage.service.api.httpApi)}`;
    const latency = metricAlarm(env, 'Latency', 'ApiId', apiRef);
    expect(latency).toHaveLength(1);
    expect(latency[0]).toMatchObject({ ExtendedStatistic: 'p99', Threshold: ENVIRONMENTS[name].alarms.apiP99LatencyMs });
    const rate = alarms(env).filter((a) => JSON.stringify(a.Metrics ?? []).includes('"MetricName":"5xx"'));
    expect(rate).toHaveLength(1);
    expect(rate[0]).toMatchObject({ Threshold: ENVIRONMENTS[name].alarms.apiServerErrorRatePercent });
    expect(JSON.stringify(rate[0]?.Metrics)).toContain('"MetricName":"Count"');
  });

  it('sends every alarm and its recovery to the one alarm topic, and has a dashboard', () => {
    const env = envs[name];
    env.service.resourceCountIs('AWS::SNS::Topic', 1);
    env.service.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    const topic = `Service:${logicalId(env.stage.service.operations.alarmTopic)}`;
    const all = alarms(env);
    expect(all.length).toBe(2 + 2 * QUEUES.length + FUNCTIONS.length + FUNCTIONS.filter((f) => f.kind !== 'api').length);
    for (const alarm of all) {
      expect((alarm.AlarmActions as unknown[]).map((a) => canonical(a, env))).toEqual([topic]);
      expect((alarm.OKActions as unknown[]).map((a) => canonical(a, env))).toEqual([topic]);
    }
  });
});

describe('PUBLIC_BASE_URL', () => {
  it('can be set with -c publicBaseUrl and reaches every function', () => {
    const env = synthesize('dev', {}, { publicBaseUrl: 'https://hooks.example.com' });
    for (const fn of resourcesOf(env, 'AWS::Lambda::Function')) {
      expect((fn.Environment as { Variables: Record<string, unknown> }).Variables.PUBLIC_BASE_URL).toBe('https://hooks.example.com');
    }
  });
});
