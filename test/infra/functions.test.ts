import { ENVIRONMENTS, ENVIRONMENT_NAMES, environmentConfig, type EnvironmentName } from '../../infra/config';
import { FUNCTIONS, isRouted, type FunctionDefinition } from '../../shared/catalogue/functions';
import { MAX_WAIT_SECONDS } from '../../shared/catalogue/limits';
import { JOB_TYPES, QUEUES, queueById } from '../../shared/catalogue/job-types';
import { ROUTES } from '../../shared/catalogue/routes';
import { SECRETS } from '../../shared/catalogue/secrets';
import { TABLE } from '../../shared/catalogue/table';
import { canonical, logicalId, synthesize, type SynthesizedEnvironment } from './synthesize';

interface FunctionProperties {
  Runtime?: string;
  Architectures?: string[];
  TracingConfig?: unknown;
  Timeout?: number;
  MemorySize?: number;
  Handler?: string;
  LoggingConfig?: unknown;
  ReservedConcurrentExecutions?: number;
  Environment: { Variables: Record<string, unknown> };
}

const RETENTION_DAYS: Record<EnvironmentName, number> = { dev: 7, staging: 14, prod: 90 };

const envs = {} as Record<EnvironmentName, SynthesizedEnvironment>;
beforeAll(() => {
  for (const name of ENVIRONMENT_NAMES) envs[name] = synthesize(name);
});

function functionOf(env: SynthesizedEnvironment, definition: FunctionDefinition) {
  const built = env.stage.service.functions.get(definition.id);
  if (!built) throw new Error(`function ${definition.id} not built`);
  const id = logicalId(built.function);
  const properties = env.json.service.Resources[id]?.Properties ?? {};
  return { built, id, properties: properties as unknown as FunctionProperties };
}

/** The environment variables a function must have, computed from its definition, with their targets. */
function expectedEnvironment(env: SynthesizedEnvironment, definition: FunctionDefinition, name: EnvironmentName) {
  const { stateful } = env.stage;
  const expected: Record<string, string> = {
    // No NODE_OPTIONS: source maps are off unless -c sourceMaps=true (docs/performance.md).
    POWERTOOLS_SERVICE_NAME: 'switchboard',
    LOG_LEVEL: ENVIRONMENTS[name].logLevel,
    ALLOW_OFFLINE_PROVIDERS: String(!ENVIRONMENTS[name].providersConfigured),
    PUBLIC_BASE_URL: env.stage.service.frontDoor?.url ?? `Service:${logicalId(env.stage.service.api.httpApi)}.ApiEndpoint`,
  };
  if (definition.access.table.length > 0) expected[TABLE.envVar] = `Stateful:${logicalId(stateful.table)}`;
  for (const id of definition.access.sendsTo) {
    expected[queueById(id).urlEnvVar] = `Stateful:${logicalId(stateful.queues.get(id)!.queue)}`;
  }
  for (const id of definition.access.sendsToDeadLetterOf) {
    expected[queueById(id).dlqUrlEnvVar] = `Stateful:${logicalId(stateful.queues.get(id)!.deadLetterQueue)}`;
  }
  for (const id of definition.access.secrets) {
    const secret = SECRETS.find((s) => s.id === id)!;
    expected[secret.arnEnvVar] = `Stateful:${logicalId(stateful.secrets.get(id)!.secret)}`;
  }
  // The socket function answers through its WebSocket stage's @connections API.
  if (definition.id === 'conversationRelayWebhook') {
    const { relay } = env.stage.service;
    expected.RELAY_CONNECTIONS_URL = `https://Service:${logicalId(relay.webSocketApi)}.execute-api.${env.stage.service.region}.Service:AWS::URLSuffix/relay`;
  }
  // A function behind a route that requests a call's summary (its worker and the janitor only queue its job again) holds it back,
  // and keeps the transcript open, as long as a turn in flight can still write: the socket function's timeout, and 1 s.
  if (definition.access.sendsTo.includes('summary') && (definition.kind === 'webhook' || definition.kind === 'api')) {
    expected.TRANSCRIPT_GRACE_SECONDS = String(FUNCTIONS.find((fn) => fn.id === 'conversationRelayWebhook')!.timeoutSeconds + 1);
  }
  // The functions a caller waits on (API routes, webhooks) start without in-process tracing unless the environment's apiTracing is on
  // (never the phone path's): Lambda's own trace of each invocation stays (active tracing), the in-process tracer is off.
  if (definition.kind === 'api' || definition.kind === 'webhook') {
    expected.POWERTOOLS_TRACE_ENABLED = 'false';
  }
  // A file carried in the bundle is found where Lambda unpacks it.
  for (const file of definition.bundledFiles ?? []) expected[file.setting] = `/var/task/${file.source}`;
  for (const setting of definition.settings ?? []) {
    const value = ENVIRONMENTS[name].providerSettings[setting];
    if (value !== undefined) expected[setting] = value;
  }
  return expected;
}

describe.each(ENVIRONMENT_NAMES)('functions (%s)', (name) => {
  it('builds exactly one Lambda function per FUNCTIONS entry', () => {
    envs[name].service.resourceCountIs('AWS::Lambda::Function', FUNCTIONS.length);
  });

  it.each(FUNCTIONS.map((fn) => [fn.id, fn] as const))('%s: nodejs22.x, arm64, traced, sized from its definition', (_, definition) => {
    const { properties } = functionOf(envs[name], definition);
    expect(properties.Runtime).toBe('nodejs22.x');
    expect(properties.Architectures).toEqual(['arm64']);
    expect(properties.TracingConfig).toEqual({ Mode: 'Active' });
    expect(properties.Timeout).toBe(definition.timeoutSeconds);
    expect(properties.MemorySize).toBe(definition.memoryMb);
    expect(properties.Handler).toBe('index.handler');
  });

  it.each(FUNCTIONS.map((fn) => [fn.id, fn] as const))('%s: logs to its own log group with the environment retention', (_, definition) => {
    const env = envs[name];
    const { built, properties } = functionOf(env, definition);
    const logGroupId = logicalId(built.logGroup);
    expect(properties.LoggingConfig).toEqual({ LogGroup: { Ref: logGroupId } });
    expect(env.json.service.Resources[logGroupId]?.Properties?.RetentionInDays).toBe(RETENTION_DAYS[name]);
  });

  it.each(FUNCTIONS.map((fn) => [fn.id, fn] as const))('%s: gets exactly the environment variables its access implies', (_, definition) => {
    const env = envs[name];
    const { properties } = functionOf(env, definition);
    const variables = properties.Environment.Variables;
    const actual = Object.fromEntries(Object.entries(variables).map(([key, value]) => [key, canonical(value, env)]));
    expect(actual).toEqual(expectedEnvironment(env, definition, name));
  });

  it.each(FUNCTIONS.map((fn) => [fn.id, fn] as const))('%s: reserves the concurrency of the environment config', (_, definition) => {
    const { properties } = functionOf(envs[name], definition);
    expect(properties.ReservedConcurrentExecutions).toBe(
      environmentConfig(name, { allowPlaceholders: true }).reservedConcurrency[definition.id],
    );
  });
});

describe.each(ENVIRONMENT_NAMES)('event sources (%s)', (name) => {
  it('has one SQS event source per queue, on its worker, reporting batch item failures', () => {
    const env = envs[name];
    const mappings = Object.values(env.json.service.Resources).filter((r) => r.Type === 'AWS::Lambda::EventSourceMapping');
    expect(mappings).toHaveLength(QUEUES.length);
    for (const definition of QUEUES) {
      const queueArn = `Stateful:${logicalId(env.stage.stateful.queues.get(definition.id)!.queue)}.Arn`;
      const worker = functionOf(
        env,
        FUNCTIONS.find((fn) => fn.id === definition.workerFunction)!,
      );
      const matching = mappings.filter((m) => canonical(m.Properties?.EventSourceArn, env) === queueArn);
      expect(matching).toHaveLength(1);
      expect(matching[0]?.Properties).toMatchObject({
        FunctionName: { Ref: worker.id },
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        BatchSize: definition.batchSize,
        MaximumBatchingWindowInSeconds: definition.maxBatchingWindowSeconds,
        ScalingConfig: { MaximumConcurrency: definition.maxConcurrency },
      });
    }
  });

  it('feeds workers only from queues that have a dead-letter queue', () => {
    const env = envs[name];
    for (const mapping of Object.values(env.json.service.Resources).filter((r) => r.Type === 'AWS::Lambda::EventSourceMapping')) {
      const [stack, arn] = canonical(mapping.Properties?.EventSourceArn, env).split(':');
      expect(stack).toBe('Stateful');
      const queueId = arn!.replace(/\.Arn$/, '');
      const redrive = env.json.stateful.Resources[queueId]?.Properties?.RedrivePolicy as { deadLetterTargetArn?: unknown } | undefined;
      expect(redrive?.deadLetterTargetArn).toBeDefined();
    }
  });
});

describe('definitions the infrastructure relies on', () => {
  it('lets functions behind routes answer before API Gateway gives up (30 s), POST api ones that start commands after the longest Prefer wait', () => {
    for (const fn of FUNCTIONS.filter(isRouted)) expect(fn.timeoutSeconds).toBeLessThan(30);
    for (const route of ROUTES.filter((r) => r.method === 'POST')) {
      const fn = FUNCTIONS.find((f) => f.id === route.function)!;
      // Prefer: wait concerns a command; routes that start none (webhook administration, lead events) need not outlast it.
      const startsCommands = fn.access.sendsTo.some((queue) => JOB_TYPES.some((job) => job.queue.id === queue && job.startsCommand));
      // A lead event starts a reply's lead follow-up but answers with its command_id at once (no Prefer: wait).
      const waitsForCommand = startsCommands && fn.id !== 'leadEventsApi';
      // Webhooks are called by providers, which never send Prefer: wait; they answer at once.
      if (fn.kind === 'api' && waitsForCommand) expect(fn.timeoutSeconds).toBeGreaterThan(MAX_WAIT_SECONDS);
      else if (fn.kind !== 'api') expect(fn.kind).toBe('webhook');
    }
  });

  it('gives functions behind routes that never honour Prefer: wait a timeout of a few seconds (their caps grow with it)', () => {
    // Prefer: wait is honoured by GET /api/commands/{id} and by the POSTs that start a command.
    const waiting = new Set(['getCommandApi', 'leadFollowUpApi', 'stakeholderCoordinationApi', 'deepResearchApi', 'crmConnectionApi']);
    const short = FUNCTIONS.filter(
      (fn) => isRouted(fn) && !waiting.has(fn.id) && fn.id !== 'conversationRelayWebhook' && fn.id !== 'webhookTestApi',
    );
    expect(short.map((fn) => fn.id).sort()).toEqual(
      [
        'apiDocsApi',
        'crmSyncsApi',
        'deleteCommandApi',
        'hubspotWebhook',
        'healthApi',
        'leadEventsApi',
        'listCommandsApi',
        'listFollowUpsApi',
        'listSiteFollowUpsApi',
        'notFoundApi',
        'pauseFollowUpsApi',
        'twilioCallStatusWebhook',
        'updateFollowUpApi',
        'usageApi',
        'webhooksApi',
      ].sort(),
    );
    for (const fn of short) expect([fn.id, fn.timeoutSeconds <= 8]).toEqual([fn.id, true]);
    // A webhook test holds one delivery attempt: the URL's lookup (3 s) and the POST (10 s), no more.
    expect(FUNCTIONS.find((fn) => fn.id === 'webhookTestApi')!.timeoutSeconds).toBe(16);
    // The relay socket holds a caller turn: one model call bounded by an 18 s deadline.
    for (const id of waiting) expect(FUNCTIONS.find((fn) => fn.id === id)!.timeoutSeconds).toBeGreaterThan(MAX_WAIT_SECONDS);
  });

  it('sets each plain provider setting only on the functions that declare it', () => {
    // Every function that authenticates API keys, or starts producers' commands held to limits, reads the tenants' default limits.
    const limitSettings = [
      'TENANT_REQUESTS_PER_SECOND',
      'TENANT_BURST',
      'TENANT_MAX_IN_PROGRESS',
      'TENANT_MONTHLY_TOKENS',
      'TENANT_MONTHLY_SEARCHES',
    ];
    for (const fn of FUNCTIONS) {
      const authenticates = fn.access.table.some((grant) => !grant.index && grant.keyPrefixes.includes('APIKEY#'));
      const admits = fn.access.table.some(
        (grant) => !grant.index && grant.keyPrefixes.includes('IDEM#') && grant.actions.includes('DeleteItem'),
      );
      expect([fn.id, (fn.settings ?? []).filter((name) => name.startsWith('TENANT_'))]).toEqual([
        fn.id,
        authenticates || admits ? limitSettings : [],
      ]);
    }
    expect(FUNCTIONS.filter((fn) => fn.kind === 'worker' && fn.settings?.includes('TENANT_MAX_IN_PROGRESS')).map((fn) => fn.id)).toEqual([
      'salesWorker',
      'researchWorker',
    ]);
    const declared = FUNCTIONS.map((fn) => [fn.id, (fn.settings ?? []).filter((name) => !name.startsWith('TENANT_'))] as const).filter(
      ([, settings]) => settings.length > 0,
    );
    expect(declared).toEqual([
      ['crmConnectionApi', ['HUBSPOT_API_BASE_URL']],
      [
        'callWorker',
        [
          'TWILIO_FROM_NUMBER',
          'TWILIO_API_BASE_URL',
          'RELAY_LANGUAGE',
          'RELAY_TTS_PROVIDER',
          'RELAY_VOICE',
          'RELAY_TRANSCRIPTION_PROVIDER',
          'RELAY_SPEECH_MODEL',
          'RELAY_INTERRUPTIBLE',
          'RELAY_WELCOME_GREETING_INTERRUPTIBLE',
        ],
      ],
      [
        'researchWorker',
        [
          'SEARCH_PROVIDERS',
          'SEARCH_CACHE_TTL',
          'GOOGLE_CSE_DAILY_QUOTA',
          'GOOGLE_CSE_BASE_URL',
          'BRAVE_BASE_URL',
          'PERPLEXITY_BASE_URL',
          'PERPLEXITY_MODEL',
        ],
      ],
      ['webhookDeliveryWorker', ['WEBHOOK_RETRY_DELAYS', 'WEBHOOK_DISABLE_AFTER']],
      ['crmImportWorker', ['HUBSPOT_API_BASE_URL']],
      ['crmSyncWorker', ['HUBSPOT_API_BASE_URL']],
    ]);
  });

  it('makes every worker consume a queue and no api function consume one', () => {
    for (const fn of FUNCTIONS) {
      const consumes = QUEUES.some((queue) => queue.workerFunction === fn.id);
      expect(consumes).toBe(fn.kind === 'worker');
    }
  });

  it.each(ENVIRONMENT_NAMES)('runs every scheduled function on its schedule, and nothing else on one (%s)', (name) => {
    const env = envs[name];
    const rules = Object.values(env.json.service.Resources).filter((resource) => resource.Type === 'AWS::Events::Rule');
    const scheduled = FUNCTIONS.filter((fn) => fn.kind === 'scheduled');
    expect(rules).toHaveLength(scheduled.length);
    for (const definition of scheduled) {
      const { id } = functionOf(env, definition);
      const rule = rules.find((candidate) => JSON.stringify(candidate.Properties?.Targets ?? []).includes(`"${id}"`));
      expect(rule?.Properties).toMatchObject({ ScheduleExpression: `rate(${definition.scheduleMinutes} minutes)`, State: 'ENABLED' });
    }
  });

  it.each(ENVIRONMENT_NAMES)(
    'retries each schedule’s delivery for at most its interval, then parks the event in the schedules’ dead-letter queue (%s)',
    (name) => {
      const env = envs[name];
      const deadLetters = logicalId(env.stage.service.schedules.deadLetterQueue);
      const queue = env.json.service.Resources[deadLetters]!;
      expect(queue.Type).toBe('AWS::SQS::Queue');
      expect(queue.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
      for (const definition of FUNCTIONS.filter((fn) => fn.kind === 'scheduled')) {
        const { id } = functionOf(env, definition);
        const rule = Object.values(env.json.service.Resources).find(
          (resource) => resource.Type === 'AWS::Events::Rule' && JSON.stringify(resource.Properties?.Targets).includes(`"${id}"`),
        );
        const [target, ...others] = rule!.Properties!.Targets as Record<string, unknown>[];
        expect(others).toEqual([]);
        expect(target).toMatchObject({
          RetryPolicy: { MaximumRetryAttempts: 3, MaximumEventAgeInSeconds: definition.scheduleMinutes! * 60 },
          DeadLetterConfig: { Arn: { 'Fn::GetAtt': [deadLetters, 'Arn'] } },
        });
      }
      // EventBridge may send to it, only for these rules.
      const policies = Object.values(env.json.service.Resources).filter((resource) => resource.Type === 'AWS::SQS::QueuePolicy');
      const statements = policies
        .filter((policy) => JSON.stringify(policy.Properties?.Queues) === JSON.stringify([{ Ref: deadLetters }]))
        .flatMap((policy) => (policy.Properties?.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement);
      const allows = statements.filter((statement) => statement.Effect === 'Allow');
      expect(allows).toHaveLength(FUNCTIONS.filter((fn) => fn.kind === 'scheduled').length);
      for (const statement of allows) {
        expect(statement).toMatchObject({ Action: 'sqs:SendMessage', Principal: { Service: 'events.amazonaws.com' } });
        expect(statement.Condition).toHaveProperty(['ArnEquals', 'aws:SourceArn']);
      }
    },
  );
});
