import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { App, RemovalPolicy } from 'aws-cdk-lib';
import {
  ENVIRONMENTS,
  ENVIRONMENT_NAMES,
  InvalidEnvironmentError,
  UnknownEnvironmentError,
  accountConcurrencyNeeded,
  environmentConfig,
  peakApiConcurrency,
  routeKeys,
} from '../../infra/config';
import { QUEUES } from '../../shared/catalogue/job-types';
import { addSwitchboardStage } from '../../infra/stages/switchboard-app';

describe('environmentConfig', () => {
  it('knows exactly dev, staging and prod', () => {
    expect([...ENVIRONMENT_NAMES]).toEqual(['dev', 'staging', 'prod']);
    expect(Object.keys(ENVIRONMENTS).sort()).toEqual(['dev', 'prod', 'staging']);
  });

  it.each([undefined, '', 'production', 'Dev', 42])('rejects %p with a message naming the valid environments', (name) => {
    expect(() => environmentConfig(name)).toThrow(UnknownEnvironmentError);
    expect(() => environmentConfig(name)).toThrow(/-c env=NAME with NAME one of dev, staging, prod/);
  });

  it('pins every environment to its own account and a region, whoever runs the CLI', () => {
    const pinned = Object.fromEntries(ENVIRONMENT_NAMES.map((name) => [name, environmentConfig(name)])) as Record<
      string,
      ReturnType<typeof environmentConfig>
    >;
    expect(Object.fromEntries(ENVIRONMENT_NAMES.map((name) => [name, [pinned[name]!.account, pinned[name]!.region]]))).toEqual({
      dev: ['111111111111', 'eu-west-1'],
      staging: ['222222222222', 'eu-west-1'],
      prod: ['333333333333', 'eu-west-1'],
    });
    expect(pinned.prod).toMatchObject({ accountSource: 'config', regionSource: 'config' });
  });

  it('takes account and region overrides, and says so', () => {
    expect(environmentConfig('prod', { account: '123456789012', region: 'eu-central-1' })).toMatchObject({
      account: '123456789012',
      accountSource: 'context',
      region: 'eu-central-1',
      regionSource: 'context',
    });
    expect(environmentConfig('prod', { region: 'us-east-2' })).toMatchObject({
      account: '333333333333',
      accountSource: 'config',
      regionSource: 'context',
    });
  });

  it.each([
    [{ account: '12345' }, /account must be 12 digits, got "12345"/],
    [{ account: 'prod' }, /account must be 12 digits/],
    [{ region: 'Europe' }, /region must look like eu-west-1, got "Europe"/],
    [{ alarmEmails: ['oncall'] }, /alarm e-mail "oncall" is not an e-mail address/],
  ])('rejects the override %p', (overrides, message) => {
    expect(() => environmentConfig('dev', overrides)).toThrow(InvalidEnvironmentError);
    expect(() => environmentConfig('dev', overrides)).toThrow(message);
  });

  it('retains data and protects the table in prod only', () => {
    expect(environmentConfig('prod')).toMatchObject({ removalPolicy: RemovalPolicy.RETAIN, tableDeletionProtection: true });
    expect(environmentConfig('staging')).toMatchObject({ removalPolicy: RemovalPolicy.DESTROY, tableDeletionProtection: false });
    expect(environmentConfig('dev')).toMatchObject({ removalPolicy: RemovalPolicy.DESTROY, tableDeletionProtection: false });
  });

  it('subscribes e-mail addresses per environment, replaced by -c alarmEmail', () => {
    expect(ENVIRONMENT_NAMES.map((name) => environmentConfig(name).alarmSubscriptions)).toEqual([
      { emails: [] },
      { emails: ['switchboard-staging-alarms@example.com'] },
      { emails: ['switchboard-oncall@example.com'] },
    ]);
    expect(environmentConfig('prod', { alarmEmails: ['a@example.org', 'b@example.org'] }).alarmSubscriptions).toEqual({
      emails: ['a@example.org', 'b@example.org'],
    });
  });

  it('expects provider keys (and alarms on offline copy) in staging and prod, not in dev', () => {
    expect(ENVIRONMENT_NAMES.map((name) => environmentConfig(name).providersConfigured)).toEqual([false, true, true]);
  });

  it('never reserves less concurrency for a worker than its event source may use', () => {
    for (const name of ENVIRONMENT_NAMES) {
      const { reservedConcurrency } = environmentConfig(name);
      for (const queue of QUEUES) {
        const reserved = reservedConcurrency[queue.workerFunction];
        if (reserved !== undefined) expect(reserved).toBeGreaterThanOrEqual(queue.maxConcurrency);
      }
    }
  });

  it('runs without source maps everywhere unless -c sourceMaps says so', () => {
    for (const name of ENVIRONMENT_NAMES) expect(environmentConfig(name).sourceMaps ?? false).toBe(false);
    expect(environmentConfig('prod', { sourceMaps: true }).sourceMaps).toBe(true);
    expect(environmentConfig('dev', { sourceMaps: false }).sourceMaps).toBe(false);
  });

  it('sets the Twilio caller id and REST root per environment, -c twilioFromNumber overriding the number', () => {
    for (const name of ENVIRONMENT_NAMES) {
      expect(environmentConfig(name).providerSettings).toEqual({
        TWILIO_FROM_NUMBER: expect.stringMatching(/^\+\d{8,15}$/),
        TWILIO_API_BASE_URL: 'https://api.twilio.com',
      });
    }
    expect(environmentConfig('prod', { twilioFromNumber: '+442071838750' }).providerSettings.TWILIO_FROM_NUMBER).toBe('+442071838750');
    expect(() => environmentConfig('prod', { twilioFromNumber: '+1555' })).toThrow(/TWILIO_FROM_NUMBER must be an E.164 number/);
    expect(() => environmentConfig('prod', { twilioFromNumber: '4155550100' })).toThrow(InvalidEnvironmentError);
  });

  it('refuses a provider setting no function reads', () => {
    const environments = {
      ...ENVIRONMENTS,
      dev: { ...ENVIRONMENTS.dev, providerSettings: { ...ENVIRONMENTS.dev.providerSettings, TWILIO_API_KEY: 'x' } },
    };
    expect(() => environmentConfig('dev', {}, environments)).toThrow(/providerSettings names TWILIO_API_KEY, which no function reads/);
  });

  it('accepts an https public base URL override and rejects anything else', () => {
    expect(environmentConfig('dev', { publicBaseUrl: 'https://hooks.example.com' }).publicBaseUrl).toBe('https://hooks.example.com');
    expect(() => environmentConfig('dev', { publicBaseUrl: 'http://hooks.example.com' })).toThrow(InvalidEnvironmentError);
    expect(() => environmentConfig('dev', { publicBaseUrl: 'https://hooks.example.com/' })).toThrow(/trailing slash/);
  });
});

describe('API throttles and concurrency caps', () => {
  it('throttle every route on its own, with the numbers of the config', () => {
    // In catalogue order: the kernel's routes, then each feature's (shared/catalogue/features.ts).
    expect(routeKeys()).toEqual([
      'GET /api/commands/{id}',
      'DELETE /api/commands/{id}',
      'GET /health',
      'HEAD /health',
      'GET /openapi.json',
      'GET /docs',
      'GET /docs/redoc.standalone.js',
      'POST /api/agents/sales/leadFollowUp',
      'GET /api/leads/{leadId}/follow-ups',
      'PATCH /api/follow-ups/{id}',
      'POST /api/leads/{leadId}/events',
      'POST /api/agents/cmo/stakeholder-coordination',
      'POST /webhooks/twilio/call-status',
      'POST /api/deepResearch/operation',
      'POST /api/webhooks',
      'GET /api/webhooks',
      'DELETE /api/webhooks/{id}',
      'POST /api/webhooks/{id}/rotate-secret',
      'GET /api/webhooks/{id}/deliveries',
      'POST /api/webhooks/{id}/deliveries/{event_id}/redeliver',
    ]);
    for (const name of ENVIRONMENT_NAMES)
      expect(Object.keys(ENVIRONMENTS[name].apiThrottle.routes).sort()).toEqual([...routeKeys()].sort());
  });

  it('cap every api function at exactly what its routes admit at once (burst + rate x timeout), rounded up', () => {
    const caps = Object.fromEntries(
      ENVIRONMENT_NAMES.map((name) => [
        name,
        Object.fromEntries(
          (
            [
              'leadFollowUpApi',
              'getCommandApi',
              'healthApi',
              'notFoundApi',
              'stakeholderCoordinationApi',
              'twilioCallStatusWebhook',
              'deepResearchApi',
              'listFollowUpsApi',
              'updateFollowUpApi',
              'leadEventsApi',
              'apiDocsApi',
              'webhooksApi',
            ] as const
          ).map((id) => [id, [peakApiConcurrency(ENVIRONMENTS[name].apiThrottle, id), ENVIRONMENTS[name].reservedConcurrency[id]]]),
        ),
      ]),
    );
    expect(caps).toEqual({
      dev: {
        leadFollowUpApi: [34, 35],
        getCommandApi: [63, 65],
        healthApi: [14, 15],
        notFoundApi: [25, 25],
        stakeholderCoordinationApi: [31, 31],
        twilioCallStatusWebhook: [15, 15],
        deepResearchApi: [34, 35],
        listFollowUpsApi: [12, 12],
        updateFollowUpApi: [12, 12],
        leadEventsApi: [31, 31],
        apiDocsApi: [15, 15],
        webhooksApi: [42, 42],
      },
      staging: {
        leadFollowUpApi: [68, 70],
        getCommandApi: [155, 155],
        healthApi: [30, 30],
        notFoundApi: [60, 60],
        stakeholderCoordinationApi: [34, 34],
        twilioCallStatusWebhook: [35, 35],
        deepResearchApi: [34, 35],
        listFollowUpsApi: [25, 25],
        updateFollowUpApi: [25, 25],
        leadEventsApi: [63, 63],
        apiDocsApi: [15, 15],
        webhooksApi: [72, 72],
      },
      prod: {
        leadFollowUpApi: [155, 155],
        getCommandApi: [310, 310],
        healthApi: [70, 70],
        notFoundApi: [120, 120],
        stakeholderCoordinationApi: [68, 68],
        twilioCallStatusWebhook: [70, 70],
        deepResearchApi: [68, 70],
        listFollowUpsApi: [60, 60],
        updateFollowUpApi: [60, 60],
        leadEventsApi: [155, 155],
        apiDocsApi: [15, 15],
        webhooksApi: [98, 98],
      },
    });
  });

  it('need this much Lambda concurrency in the account (reservations + the 100 AWS keeps unreserved)', () => {
    expect(ENVIRONMENT_NAMES.map((name) => accountConcurrencyNeeded(ENVIRONMENTS[name]))).toEqual([479, 812, 1631]);
  });

  it.each([
    [
      'a cap below what the route throttles admit',
      { reservedConcurrency: { ...ENVIRONMENTS.prod.reservedConcurrency, getCommandApi: 309 } },
      /reservedConcurrency.getCommandApi \(309\) is below what its route throttles admit at once \(310: burst \+ rate x 29 s\)/,
    ],
    [
      'an api function without a cap',
      { reservedConcurrency: { ...ENVIRONMENTS.prod.reservedConcurrency, notFoundApi: undefined } },
      /reservedConcurrency.notFoundApi is missing: every api function is capped \(its routes can hold 120\)/,
    ],
    [
      'a throttle for no route',
      {
        apiThrottle: {
          ...ENVIRONMENTS.prod.apiThrottle,
          routes: { ...ENVIRONMENTS.prod.apiThrottle.routes, 'GET /nope': { rateLimit: 1, burstLimit: 1 } },
        },
      },
      /apiThrottle.routes names "GET \/nope", which is no route/,
    ],
    [
      'a zero rate',
      { apiThrottle: { ...ENVIRONMENTS.prod.apiThrottle, default: { rateLimit: 0, burstLimit: 5 } } },
      /apiThrottle default: rateLimit must be above 0/,
    ],
  ])('refuse %s', (_, changes, message) => {
    const environments = { ...ENVIRONMENTS, prod: { ...ENVIRONMENTS.prod, ...changes } };
    expect(() => environmentConfig('prod', {}, environments)).toThrow(message);
  });
});

describe('addSwitchboardStage', () => {
  it('fails clearly when -c env is missing or unknown', () => {
    expect(() => addSwitchboardStage(new App())).toThrow(/no environment given: pass -c env=NAME/);
    expect(() => addSwitchboardStage(new App({ context: { env: 'qa' } }))).toThrow(/unknown environment "qa"/);
  });

  it('builds exactly one stage, named after the environment, in its pinned account and region', () => {
    const app = new App({ context: { env: 'staging', 'aws:cdk:bundling-stacks': [] } });
    const stage = addSwitchboardStage(app);
    expect(app.node.children.map((child) => child.node.id)).toEqual(['Switchboard-staging']);
    expect(stage.stateful.stackName).toBe('Switchboard-staging-Stateful');
    expect(stage.service.stackName).toBe('Switchboard-staging-Service');
    for (const stack of [stage.stateful, stage.service]) expect(stack.environment).toBe('aws://222222222222/eu-west-1');
  });

  it('reads -c account, -c region, -c alarmEmail and -c sourceMaps', () => {
    const app = new App({
      context: {
        env: 'prod',
        account: '123456789012',
        region: 'us-east-2',
        alarmEmail: 'a@example.org, b@example.org',
        sourceMaps: 'true',
        'aws:cdk:bundling-stacks': [],
      },
    });
    const stage = addSwitchboardStage(app);
    expect(stage.service.environment).toBe('aws://123456789012/us-east-2');
    expect(stage.config.alarmSubscriptions.emails).toEqual(['a@example.org', 'b@example.org']);
    expect(stage.config.sourceMaps).toBe(true);
    const health = stage.service.functions.get('healthApi')!.function;
    expect(stage.service.resolve((health.node.defaultChild as CfnFunction).environment)).toMatchObject({
      variables: { NODE_OPTIONS: '--enable-source-maps' },
    });
  });

  it('refuses a -c sourceMaps that is not true or false', () => {
    expect(() => addSwitchboardStage(new App({ context: { env: 'dev', sourceMaps: 'yes' } }))).toThrow(
      /-c sourceMaps must be true or false, got "yes"/,
    );
  });
});
