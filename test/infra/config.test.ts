import { App, RemovalPolicy } from 'aws-cdk-lib';
import {
  ENVIRONMENTS,
  ENVIRONMENT_NAMES,
  InvalidEnvironmentError,
  UnknownEnvironmentError,
  accountConcurrencyNeeded,
  environmentConfig,
  routeKeys,
  type EnvironmentName,
} from '../../infra/config';
import { FUNCTIONS, functionById, isRouted, type FunctionId } from '../../shared/catalogue/functions';
import { QUEUES } from '../../shared/catalogue/job-types';
import { DEFAULT_ROUTE_FUNCTION, ROUTES } from '../../shared/catalogue/routes';
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

  it('reserve for every api function and webhook what its throttles admit at once (burst + rate x timeout) plus 10%, computed', () => {
    const throttlesOf = (name: EnvironmentName, id: FunctionId) =>
      id === 'conversationRelayWebhook'
        ? [ENVIRONMENTS[name].relayThrottle]
        : [
            ...ROUTES.filter((route) => route.function === id).map(
              (route) => ENVIRONMENTS[name].apiThrottle.routes[`${route.method} ${route.path}`]!,
            ),
            ...(id === DEFAULT_ROUTE_FUNCTION ? [ENVIRONMENTS[name].apiThrottle.default] : []),
          ];
    for (const name of ENVIRONMENT_NAMES) {
      const { reservedConcurrency } = environmentConfig(name);
      for (const fn of FUNCTIONS.filter(isRouted)) {
        const peak = throttlesOf(name, fn.id).reduce((sum, t) => sum + t.burstLimit + Math.ceil(t.rateLimit * fn.timeoutSeconds), 0);
        expect(peak).toBeGreaterThan(0);
        expect([fn.id, reservedConcurrency[fn.id]]).toEqual([fn.id, peak + Math.ceil(peak / 10)]);
      }
    }
    // Spelled out: GET /api/commands/{id} in prod, 20 + 10/s x 29 s = 310, + 31; the relay socket, 10 + 5/s x 29 s = 155, + 16.
    expect(environmentConfig('prod').reservedConcurrency).toMatchObject({
      getCommandApi: 341,
      conversationRelayWebhook: 171,
      healthApi: 55,
    });
    // No hand-typed cap is left for a routed function: the table holds only the workers' (prod).
    for (const name of ENVIRONMENT_NAMES) {
      expect(Object.keys(ENVIRONMENTS[name].reservedConcurrency).filter((id) => isRouted(functionById(id as FunctionId)))).toEqual([]);
    }
  });

  it('a raise in the table wins over the computed cap', () => {
    const environments = { ...ENVIRONMENTS, prod: { ...ENVIRONMENTS.prod, reservedConcurrency: { healthApi: 80 } } };
    expect(environmentConfig('prod', {}, environments).reservedConcurrency.healthApi).toBe(80);
    expect(accountConcurrencyNeeded(environments.prod)).toBe(accountConcurrencyNeeded(ENVIRONMENTS.prod) - 60 + 25);
  });

  it('need this much Lambda concurrency in the account (reservations + the 100 AWS keeps unreserved)', () => {
    expect(ENVIRONMENT_NAMES.map((name) => accountConcurrencyNeeded(ENVIRONMENTS[name]))).toEqual([449, 747, 1480]);
    for (const name of ENVIRONMENT_NAMES) {
      const reserved = Object.values(environmentConfig(name).reservedConcurrency).reduce<number>((sum, value) => sum + (value ?? 0), 0);
      expect(accountConcurrencyNeeded(ENVIRONMENTS[name])).toBe(reserved + 100);
      expect(accountConcurrencyNeeded(environmentConfig(name))).toBe(reserved + 100);
    }
  });

  it.each([
    [
      'a cap in the table below what the route throttles admit with headroom',
      { reservedConcurrency: { ...ENVIRONMENTS.prod.reservedConcurrency, getCommandApi: 340 } },
      /reservedConcurrency.getCommandApi \(340\) is below what its route throttles admit at once with headroom \(341: burst \+ rate x 29 s, \+ 10%\)/,
    ],
    [
      'a cap in the table below what the relay socket admits with headroom',
      { reservedConcurrency: { ...ENVIRONMENTS.prod.reservedConcurrency, conversationRelayWebhook: 155 } },
      /reservedConcurrency.conversationRelayWebhook \(155\) is below what the relay socket's throttle admits at once with headroom \(171/,
    ],
    [
      'a worker below its queue maxConcurrency',
      { reservedConcurrency: { ...ENVIRONMENTS.prod.reservedConcurrency, salesWorker: 9 } },
      /reservedConcurrency.salesWorker \(9\) is below its queue's maxConcurrency \(10\)/,
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

  it('reads -c account, -c region and -c alarmEmail', () => {
    const app = new App({
      context: {
        env: 'prod',
        account: '123456789012',
        region: 'us-east-2',
        alarmEmail: 'a@example.org, b@example.org',
        'aws:cdk:bundling-stacks': [],
      },
    });
    const stage = addSwitchboardStage(app);
    expect(stage.service.environment).toBe('aws://123456789012/us-east-2');
    expect(stage.config.alarmSubscriptions.emails).toEqual(['a@example.org', 'b@example.org']);
  });
});
