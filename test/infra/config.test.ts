import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { RemovalPolicy } from 'aws-cdk-lib';
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
import { isExampleHost, isFictionalNumber, isPlaceholderAccount, notDeployableWarning } from '../../infra/placeholders';
import { DEFAULT_ROUTE_FUNCTION, ROUTES } from '../../shared/catalogue/routes';
import { addSwitchboardStage } from '../../infra/stages/switchboard-app';
import { testApp } from './test-app';

/** Prod's placeholders let through, as `-c allowPlaceholders=true` does: these tests are about other settings. */
const ALLOW = { allowPlaceholders: true } as const;

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
    const pinned = Object.fromEntries(ENVIRONMENT_NAMES.map((name) => [name, environmentConfig(name, ALLOW)])) as Record<
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
    expect(environmentConfig('prod', { ...ALLOW, account: '123456789012', region: 'eu-central-1' })).toMatchObject({
      account: '123456789012',
      accountSource: 'context',
      region: 'eu-central-1',
      regionSource: 'context',
    });
    expect(environmentConfig('prod', { ...ALLOW, region: 'us-east-2' })).toMatchObject({
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
    expect(environmentConfig('prod', ALLOW)).toMatchObject({ removalPolicy: RemovalPolicy.RETAIN, tableDeletionProtection: true });
    expect(environmentConfig('staging')).toMatchObject({ removalPolicy: RemovalPolicy.DESTROY, tableDeletionProtection: false });
    expect(environmentConfig('dev')).toMatchObject({ removalPolicy: RemovalPolicy.DESTROY, tableDeletionProtection: false });
  });

  it('subscribes e-mail addresses per environment, replaced by -c alarmEmail', () => {
    expect(ENVIRONMENT_NAMES.map((name) => environmentConfig(name, ALLOW).alarmSubscriptions)).toEqual([
      { emails: [] },
      { emails: ['switchboard-staging-alarms@example.com'] },
      { emails: ['switchboard-oncall@example.com'] },
    ]);
    expect(environmentConfig('prod', { ...ALLOW, alarmEmails: ['a@example.org', 'b@example.org'] }).alarmSubscriptions).toEqual({
      emails: ['a@example.org', 'b@example.org'],
    });
  });

  it('refuses a production environment whose alarms would reach nobody', () => {
    expect(() => environmentConfig('prod', { ...ALLOW, alarmEmails: [] })).toThrow(
      /prod's alarms would reach nobody: set alarmSubscriptions.emails \(-c alarmEmail=<on-call address>/,
    );
    expect(environmentConfig('dev', { alarmEmails: [] }).alarmSubscriptions).toEqual({ emails: [] });
  });

  it('expects provider keys (and alarms on offline copy) in staging and prod, not in dev', () => {
    expect(ENVIRONMENT_NAMES.map((name) => environmentConfig(name, ALLOW).providersConfigured)).toEqual([false, true, true]);
  });

  it('never reserves less concurrency for a worker than its event source may use', () => {
    for (const name of ENVIRONMENT_NAMES) {
      const { reservedConcurrency } = environmentConfig(name, ALLOW);
      for (const queue of QUEUES) {
        const reserved = reservedConcurrency[queue.workerFunction];
        if (reserved !== undefined) expect(reserved).toBeGreaterThanOrEqual(queue.maxConcurrency);
      }
    }
  });

  it('runs without source maps everywhere unless -c sourceMaps says so', () => {
    for (const name of ENVIRONMENT_NAMES) expect(environmentConfig(name, ALLOW).sourceMaps ?? false).toBe(false);
    expect(environmentConfig('prod', { ...ALLOW, sourceMaps: true }).sourceMaps).toBe(true);
    expect(environmentConfig('dev', { sourceMaps: false }).sourceMaps).toBe(false);
  });

  it('sets the Twilio caller id and REST root per environment, -c twilioFromNumber overriding the number', () => {
    for (const name of ENVIRONMENT_NAMES) {
      expect(environmentConfig(name, ALLOW).providerSettings).toEqual({
        TWILIO_FROM_NUMBER: expect.stringMatching(/^\+\d{8,15}$/),
        TWILIO_API_BASE_URL: 'https://api.twilio.com',
      });
    }
    expect(environmentConfig('prod', { ...ALLOW, twilioFromNumber: '+442071838750' }).providerSettings.TWILIO_FROM_NUMBER).toBe(
      '+442071838750',
    );
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

  it('refuses relay settings the call worker would refuse, naming them, and passes valid ones to it', () => {
    const withRelay = (settings: Record<string, string>) => ({
      ...ENVIRONMENTS,
      dev: { ...ENVIRONMENTS.dev, providerSettings: { ...ENVIRONMENTS.dev.providerSettings, ...settings } },
    });
    expect(() => environmentConfig('dev', {}, withRelay({ RELAY_INTERRUPTIBLE: 'always' }))).toThrow(
      /providerSettings: RELAY_INTERRUPTIBLE: /,
    );
    expect(() => environmentConfig('dev', {}, withRelay({ RELAY_VOICE: 'Joanna-Neural' }))).toThrow(/RELAY_VOICE needs RELAY_TTS_PROVIDER/);
    const valid = { RELAY_LANGUAGE: 'es-ES', RELAY_TTS_PROVIDER: 'Amazon', RELAY_VOICE: 'Lucia-Neural' };
    expect(environmentConfig('dev', {}, withRelay(valid)).providerSettings).toMatchObject(valid);
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
      'GET /api/commands',
      'GET /api/commands/{id}',
      'DELETE /api/commands/{id}',
      'GET /api/usage',
      'GET /health',
      'HEAD /health',
      'GET /openapi.json',
      'GET /docs',
      'GET /docs/redoc.standalone.js',
      'POST /api/agents/sales/leadFollowUp',
      'GET /api/leads/{leadId}/follow-ups',
      'GET /api/follow-ups',
      'PATCH /api/follow-ups/{id}',
      'POST /api/leads/{leadId}/events',
      'POST /api/leads/{leadId}/follow-ups/pause',
      'POST /api/leads/{leadId}/follow-ups/resume',
      'POST /api/agents/cmo/stakeholder-coordination',
      'POST /webhooks/twilio/call-status',
      'POST /webhooks/twilio/relay-ended',
      'POST /api/deepResearch/operation',
      'POST /api/webhooks',
      'GET /api/webhooks',
      'GET /api/webhooks/{id}',
      'PATCH /api/webhooks/{id}',
      'DELETE /api/webhooks/{id}',
      'POST /api/webhooks/{id}/rotate-secret',
      'GET /api/webhooks/{id}/deliveries',
      'POST /api/webhooks/{id}/deliveries/{event_id}/redeliver',
      'POST /api/webhooks/{id}/test',
      'GET /api/events',
      'POST /api/events/{id}/redeliver',
      'GET /api/leads/{leadId}/crm-syncs',
      'PUT /api/integrations/hubspot',
      'GET /api/integrations/hubspot',
      'DELETE /api/integrations/hubspot',
      'POST /api/integrations/hubspot/import',
      'POST /webhooks/hubspot',
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
      const { reservedConcurrency } = environmentConfig(name, ALLOW);
      for (const fn of FUNCTIONS.filter(isRouted)) {
        const peak = throttlesOf(name, fn.id).reduce((sum, t) => sum + t.burstLimit + Math.ceil(t.rateLimit * fn.timeoutSeconds), 0);
        expect(peak).toBeGreaterThan(0);
        expect([fn.id, reservedConcurrency[fn.id]]).toEqual([fn.id, peak + Math.ceil(peak / 10)]);
      }
    }
    // Spelled out: GET /api/commands/{id} in prod, 20 + 10/s x 29 s = 310, + 31; the relay socket, 10 + 5/s x 29 s = 155, + 16.
    expect(environmentConfig('prod', { allowPlaceholders: true }).reservedConcurrency).toMatchObject({
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
    expect(environmentConfig('prod', ALLOW, environments).reservedConcurrency.healthApi).toBe(80);
    // The table replaced: the workers' reservations go, and healthApi's computed 55 becomes 80.
    const workers = Object.values(ENVIRONMENTS.prod.reservedConcurrency).reduce<number>((sum, value) => sum + (value ?? 0), 0);
    expect(accountConcurrencyNeeded(environments.prod)).toBe(accountConcurrencyNeeded(ENVIRONMENTS.prod) - workers - 55 + 80);
  });

  it('need this much Lambda concurrency in the account (reservations + the 100 AWS keeps unreserved)', () => {
    expect(ENVIRONMENT_NAMES.map((name) => accountConcurrencyNeeded(ENVIRONMENTS[name]))).toEqual([647, 1109, 1977]);
    for (const name of ENVIRONMENT_NAMES) {
      const reserved = Object.values(environmentConfig(name, ALLOW).reservedConcurrency).reduce<number>(
        (sum, value) => sum + (value ?? 0),
        0,
      );
      expect(accountConcurrencyNeeded(ENVIRONMENTS[name])).toBe(reserved + 100);
      expect(accountConcurrencyNeeded(environmentConfig(name, { allowPlaceholders: true }))).toBe(reserved + 100);
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
    expect(() => addSwitchboardStage(testApp())).toThrow(/no environment given: pass -c env=NAME/);
    expect(() => addSwitchboardStage(testApp({ context: { env: 'qa' } }))).toThrow(/unknown environment "qa"/);
  });

  it('builds exactly one stage, named after the environment, in its pinned account and region', () => {
    const app = testApp({ context: { env: 'staging', 'aws:cdk:bundling-stacks': [] } });
    const stage = addSwitchboardStage(app);
    expect(app.node.children.map((child) => child.node.id)).toEqual(['Switchboard-staging']);
    expect(stage.stateful.stackName).toBe('Switchboard-staging-Stateful');
    expect(stage.service.stackName).toBe('Switchboard-staging-Service');
    for (const stack of [stage.stateful, stage.service]) expect(stack.environment).toBe('aws://222222222222/eu-west-1');
  });

  it('reads -c account, -c region, -c alarmEmail, -c sourceMaps and -c apiTracing', () => {
    const app = testApp({
      context: {
        env: 'prod',
        allowPlaceholders: 'true',
        account: '123456789012',
        region: 'us-east-2',
        alarmEmail: 'a@example.org, b@example.org',
        sourceMaps: 'true',
        apiTracing: 'true',
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
    // API functions traced in-process (no setting turns it off); the phone path stays off whatever the environment says.
    const variablesOf = (id: FunctionId) =>
      (
        stage.service.resolve((stage.service.functions.get(id)!.function.node.defaultChild as CfnFunction).environment) as {
          variables: Record<string, string>;
        }
      ).variables;
    expect(stage.config.apiTracing).toBe(true);
    expect(variablesOf('getCommandApi')).not.toHaveProperty('POWERTOOLS_TRACE_ENABLED');
    expect(variablesOf('conversationRelayWebhook')).toMatchObject({ POWERTOOLS_TRACE_ENABLED: 'false' });
  });

  it('refuses a -c sourceMaps or -c apiTracing that is not true or false', () => {
    expect(() => addSwitchboardStage(testApp({ context: { env: 'dev', sourceMaps: 'yes' } }))).toThrow(
      /-c sourceMaps must be true or false, got "yes"/,
    );
    expect(() => addSwitchboardStage(testApp({ context: { env: 'dev', apiTracing: 'on' } }))).toThrow(
      /-c apiTracing must be true or false, got "on"/,
    );
  });
});

/** Real-looking values for every placeholder of prod, as a team passes them. */
const REAL_PROD = {
  account: '444455556666',
  alarmEmails: ['oncall@acme-corp.io'],
  twilioFromNumber: '+442071838750',
  publicDomain: 'switchboard.acme-corp.io',
  publicCertificateArn: 'arn:aws:acm:us-east-1:444455556666:certificate/3f1c2b7a-9d4e-4c1a-8b2f-6e5d4c3b2a19',
} as const;

describe('placeholders', () => {
  it('refuse a prod synth with one message naming every placeholder and the -c flag that sets it', () => {
    let message = '';
    try {
      environmentConfig('prod');
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidEnvironmentError);
      message = (error as Error).message;
    }
    expect(message.split('\n')).toEqual([
      'Environment prod still has placeholder values; set each in infra/config.ts (ENVIRONMENTS.prod) or pass its flag to every cdk command:',
      '  - account "333333333333": -c account=<your 12-digit AWS account id>',
      '  - alarmSubscriptions.emails "switchboard-oncall@example.com": -c alarmEmail=<on-call address>[,<another>]',
      '  - providerSettings.TWILIO_FROM_NUMBER "+14155550100": -c twilioFromNumber=<a number of your Twilio account, E.164>',
      '  - publicHost.domainName "switchboard.example.com": -c publicDomain=<your host name>',
      '  - publicHost.certificateArn "arn:aws:acm:us-east-1:333333333333:certificate/00000000-0000-0000-0000-000000000000": ' +
        '-c publicCertificateArn=<ARN of your ACM certificate in us-east-1>',
      '(-c allowPlaceholders=true synthesizes anyway, for CI and tests: that template is not deployable)',
    ]);
  });

  it('refuse each placeholder on its own, and take prod once every flag is given', () => {
    expect(environmentConfig('prod', REAL_PROD).placeholders).toEqual([]);
    const { account, ...withoutAccount } = REAL_PROD;
    expect(account).toBe('444455556666');
    for (const placeholder of ['111111111111', '222222222222', '123456789012', '999999999999']) {
      expect(() => environmentConfig('prod', { ...withoutAccount, account: placeholder })).toThrow(
        new RegExp(`\\n  - account "${placeholder}": -c account=`),
      );
    }
    for (const email of ['oncall@example.org', 'a@ops.example.net', 'b@pager.test', 'c@corp.example', 'd@x.invalid', 'e@mail.localhost']) {
      expect(() => environmentConfig('prod', { ...REAL_PROD, alarmEmails: ['ok@acme-corp.io', email] })).toThrow(
        `alarmSubscriptions.emails "${email}": -c alarmEmail=`,
      );
    }
    for (const number of ['+12125550199', '+15005550006']) {
      expect(() => environmentConfig('prod', { ...REAL_PROD, twilioFromNumber: number })).toThrow(
        `providerSettings.TWILIO_FROM_NUMBER "${number}": -c twilioFromNumber=`,
      );
    }
    expect(() => environmentConfig('prod', { ...REAL_PROD, publicDomain: 'voice.example.org' })).toThrow(
      'publicHost.domainName "voice.example.org": -c publicDomain=',
    );
    expect(() =>
      environmentConfig('prod', {
        ...REAL_PROD,
        publicCertificateArn: 'arn:aws:acm:us-east-1:444455556666:certificate/00000000-0000-0000-0000-000000000000',
      }),
    ).toThrow('publicHost.certificateArn');
  });

  it('also name placeholders only infra/config.ts can set', () => {
    const environments = {
      ...ENVIRONMENTS,
      prod: {
        ...ENVIRONMENTS.prod,
        providerSettings: { ...ENVIRONMENTS.prod.providerSettings, TWILIO_API_BASE_URL: 'https://twilio.example.com' },
      },
    };
    expect(() => environmentConfig('prod', REAL_PROD, environments)).toThrow(
      /- providerSettings.TWILIO_API_BASE_URL "https:\/\/twilio.example.com": set it in infra\/config.ts\n/,
    );
  });

  it('pass only with -c allowPlaceholders=true, and the config says which are left', () => {
    const config = environmentConfig('prod', { allowPlaceholders: true });
    expect(config.placeholders.map((placeholder) => placeholder.setting)).toEqual([
      'account',
      'alarmSubscriptions.emails',
      'providerSettings.TWILIO_FROM_NUMBER',
      'publicHost.domainName',
      'publicHost.certificateArn',
    ]);
    expect(() => environmentConfig('prod', { allowPlaceholders: false })).toThrow(/still has placeholder values/);
    const warning = notDeployableWarning('Switchboard-prod', config.placeholders);
    expect(warning).toBe(
      'Switchboard-prod: NOT DEPLOYABLE: -c allowPlaceholders=true let 5 placeholder value(s) through (account, ' +
        'alarmSubscriptions.emails, providerSettings.TWILIO_FROM_NUMBER, publicHost.domainName, publicHost.certificateArn); ' +
        'do not deploy this template',
    );
    // CI fails a synth whose output looks like a CDK warning or error; this line must not.
    expect(warning).not.toMatch(/\[(warning|error)( at |\])/i);
  });

  it('are accepted in dev and staging, which are not production', () => {
    expect(ENVIRONMENT_NAMES.map((name) => ENVIRONMENTS[name].production)).toEqual([false, false, true]);
    expect(environmentConfig('dev').placeholders.map((placeholder) => placeholder.setting)).toEqual([
      'account',
      'providerSettings.TWILIO_FROM_NUMBER',
    ]);
    expect(environmentConfig('staging').placeholders.map((placeholder) => placeholder.setting)).toEqual([
      'account',
      'alarmSubscriptions.emails',
      'providerSettings.TWILIO_FROM_NUMBER',
    ]);
  });

  it('are read from -c allowPlaceholders as the CLI passes it', () => {
    const stage = (allowPlaceholders: unknown) =>
      addSwitchboardStage(testApp({ context: { env: 'prod', allowPlaceholders, 'aws:cdk:bundling-stacks': [] } }));
    expect(() => stage('false')).toThrow(/still has placeholder values/);
    expect(() => stage('yes')).toThrow(/-c allowPlaceholders must be true or false, got "yes"/);
    expect(() => addSwitchboardStage(testApp({ context: { env: 'prod' } }))).toThrow(/\n {2}- account "333333333333"/);
  });

  it.each([
    ['switchboard.example.com', true],
    ['example.net', true],
    ['api.test', true],
    ['LOCALHOST', true],
    ['switchboard.acme.com', false],
    ['example.com.acme.io', false],
    ['myexample.com', false],
  ])('know %s as an example host: %p', (host, example) => {
    expect(isExampleHost(host)).toBe(example);
  });

  it('know fictional numbers and placeholder accounts', () => {
    expect(['+14155550100', '+12125550199', '+15005550006', '+15005550009'].map(isFictionalNumber)).toEqual([true, true, true, true]);
    expect(['+14155552671', '+14155550200', '+442071838750', '+15005551234'].map(isFictionalNumber)).toEqual([false, false, false, false]);
    expect(['111111111111', '000000000000', '123456789012', '333333333333'].map(isPlaceholderAccount)).toEqual([true, true, true, true]);
    expect(['444455556666', '123456789013'].map(isPlaceholderAccount)).toEqual([false, false]);
  });
});

describe('public host', () => {
  it('is required in prod: without it the synth is refused, saying what to set, placeholders allowed or not', () => {
    for (const allowPlaceholders of [false, true]) {
      expect(() =>
        environmentConfig('prod', {
          ...REAL_PROD,
          publicDomain: undefined,
          publicCertificateArn: undefined,
          publicHost: 'none',
          allowPlaceholders,
        }),
      ).toThrow(
        'prod needs its public host, or Twilio cannot reach the voice assistant: set publicHost { domainName, certificateArn } in ' +
          'infra/config.ts, or pass -c publicDomain=<your host name> -c publicCertificateArn=<ACM certificate ARN in us-east-1>',
      );
    }
    expect(() => addSwitchboardStage(testApp({ context: { env: 'prod', publicHost: 'none', allowPlaceholders: 'true' } }))).toThrow(
      /prod needs its public host/,
    );
  });

  it('is none in dev and staging, and taken from -c publicDomain with -c publicCertificateArn', () => {
    expect(ENVIRONMENT_NAMES.map((name) => environmentConfig(name, ALLOW).publicHost === 'none')).toEqual([true, true, false]);
    const { publicDomain, publicCertificateArn } = REAL_PROD;
    expect(environmentConfig('staging', { publicDomain, publicCertificateArn }).publicHost).toEqual({
      domainName: publicDomain,
      certificateArn: publicCertificateArn,
    });
    expect(environmentConfig('prod', { ...REAL_PROD }).publicHost).toEqual({
      domainName: publicDomain,
      certificateArn: publicCertificateArn,
    });
    expect(() => environmentConfig('staging', { publicDomain })).toThrow(/pass -c publicDomain=… and -c publicCertificateArn=… together/);
  });

  it.each([
    [
      { publicCertificateArn: 'arn:aws:acm:eu-west-1:444455556666:certificate/3f1c2b7a-9d4e-4c1a-8b2f-6e5d4c3b2a19' },
      /must be an ACM certificate ARN in us-east-1/,
    ],
    [{ publicDomain: 'https://switchboard.acme-corp.io' }, /publicHost.domainName must be a lower-case host name/],
    [{ publicBaseUrl: 'https://hooks.acme-corp.io' }, /set one or the other, not both/],
  ])('refuses %p', (override, message) => {
    expect(() => environmentConfig('prod', { ...REAL_PROD, ...override })).toThrow(message);
  });

  it('takes -c apiGatewayAccountRole=existing, and nothing but create or existing', () => {
    expect(ENVIRONMENT_NAMES.map((name) => environmentConfig(name, ALLOW).apiGatewayAccountRole)).toEqual(['create', 'create', 'create']);
    expect(environmentConfig('dev', { apiGatewayAccountRole: 'existing' }).apiGatewayAccountRole).toBe('existing');
    expect(() => addSwitchboardStage(testApp({ context: { env: 'dev', apiGatewayAccountRole: 'skip' } }))).toThrow(
      /-c apiGatewayAccountRole must be create or existing, got "skip"/,
    );
    expect(() => addSwitchboardStage(testApp({ context: { env: 'dev', publicHost: 'off' } }))).toThrow(/-c publicHost takes only "none"/);
  });
});
