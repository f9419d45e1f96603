/**
 * The deployment environments of Switchboard and how they differ, in one
 * typed table. `infra/app.ts` picks one with `-c env=NAME`.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { FUNCTIONS, functionById, isRouted, type FunctionId } from '../shared/catalogue/functions';
import { QUEUES } from '../shared/catalogue/job-types';
import { DEFAULT_ROUTE_FUNCTION, ROUTES } from '../shared/catalogue/routes';

export const ENVIRONMENT_NAMES = ['dev', 'staging', 'prod'] as const;

export type EnvironmentName = (typeof ENVIRONMENT_NAMES)[number];

/** AWS keeps this much of an account's Lambda concurrency unreserved; reservations cannot take it. */
export const MINIMUM_UNRESERVED_CONCURRENCY = 100;

/** Thresholds of the operational alarms. */
export interface AlarmThresholds {
  /** API 5xx answers, as a percentage of requests over 5 minutes. */
  readonly apiServerErrorRatePercent: number;
  /**
   * API p99 latency in milliseconds over 5 minutes. Requests sent with
   * `Prefer: wait=N` legitimately take up to MAX_WAIT_SECONDS (25 s), so the
   * alarm watches for answers beyond that: handlers running into API
   * Gateway's 30 s integration timeout.
   */
  readonly apiP99LatencyMs: number;
  /** Age in seconds of the oldest message of any work queue. */
  readonly queueOldestMessageAgeSeconds: number;
  /** Invocation errors (crashes, timeouts) of one worker over 5 minutes. */
  readonly workerErrors: number;
  /** Throttled invocations of one function over 5 minutes. */
  readonly functionThrottles: number;
  /**
   * Failed commands of one type, as a percentage of the commands of that
   * type that ended (completed + failed) over 15 minutes.
   */
  readonly commandFailureRatePercent: number;
  /** The failure rate counts only when at least this many commands of the type ended in those 15 minutes. */
  readonly commandFailureMinimumEnded: number;
}

/** Who hears about alarms (and their recovery). */
export interface AlarmSubscriptions {
  /**
   * E-mail addresses subscribed to the alarm topic; each receives a
   * confirmation mail once. `-c alarmEmail=a@example.com,b@example.com`
   * replaces the list.
   */
  readonly emails: readonly string[];
  /**
   * A Slack channel told through AWS Chatbot. The workspace must have been
   * authorized once in the AWS Chatbot console (that gives the workspace id).
   * @default - no chat channel
   */
  readonly slack?: { readonly workspaceId: string; readonly channelId: string };
}

/** A token bucket of API Gateway: `rateLimit` requests per second on average, `burstLimit` at once. */
export interface Throttle {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

/** Throttling of the HTTP API's stage. */
export interface ApiThrottles {
  /** The not-found route (`$default`) and any route not named in `routes`. */
  readonly default: Throttle;
  /** Per route, keyed `METHOD /path` as in ROUTES (shared/catalogue/routes.ts). */
  readonly routes: Readonly<Record<string, Throttle>>;
}

/** What one environment looks like; the service itself is in the catalogue (shared/catalogue/). */
export interface EnvironmentSettings {
  /**
   * The AWS account the environment deploys to: 12 digits. Placeholders
   * until a team sets its own; `-c account=…` overrides. Deploying with
   * credentials of another account is refused by the CDK CLI.
   */
  readonly account: string;
  /** The region the environment deploys to; `-c region=…` overrides. */
  readonly region: string;
  /** Days CloudWatch keeps function and API access logs. */
  readonly logRetention: RetentionDays;
  /** Fate of the table, queues and dead-letter queues, secrets and log groups when their stack is deleted or replaced. */
  readonly removalPolicy: RemovalPolicy;
  /** DynamoDB deletion protection on the table. */
  readonly tableDeletionProtection: boolean;
  /**
   * Concurrency reserved for (and capping) each function. Every api
   * function is capped, so API traffic can neither starve the workers nor
   * take the account's pool; workers reserve their queue's maxConcurrency.
   */
  readonly reservedConcurrency: Readonly<Partial<Record<FunctionId, number>>>;
  /** LOG_LEVEL of every function. */
  readonly logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  /** Request rates of the HTTP API, per route. */
  readonly apiThrottle: ApiThrottles;
  /**
   * Messages per second (connects included) the ConversationRelay socket
   * takes across every call, and the burst. A call sends a message every
   * few seconds (each caller turn); the socket function's reserved
   * concurrency covers burst + rate x its timeout (see validate()).
   */
  readonly relayThrottle: Throttle;
  readonly alarms: AlarmThresholds;
  readonly alarmSubscriptions: AlarmSubscriptions;
  /**
   * True where the provider secrets are filled: there, copy written by the
   * offline writer means a provider failed or lost its key, and raises an
   * alarm (metric `OfflineGeneration`). False where offline copy is expected.
   */
  readonly providersConfigured: boolean;
  /**
   * Plain (not secret) provider settings by their names in docs/configuration.md
   * (TWILIO_FROM_NUMBER, TWILIO_API_BASE_URL, …): each is set on the
   * functions whose catalogue entry lists it (`FunctionDefinition.settings`),
   * and on no other. Credentials never go here: they live in the provider
   * secrets. `-c twilioFromNumber=+1…` overrides TWILIO_FROM_NUMBER.
   */
  readonly providerSettings: Readonly<Record<string, string>>;
  /**
   * Public base URL for webhooks (Twilio callbacks), `https://…`, no trailing slash.
   * Can be overridden with `-c publicBaseUrl=https://…`.
   * @default the HTTP API's own execute-api URL
   */
  readonly publicBaseUrl?: string;
  /**
   * Source maps for readable stack traces: each bundle ships its `.map` and
   * runs with `NODE_OPTIONS=--enable-source-maps`, which parses the map at
   * cold start (docs/performance.md). `-c sourceMaps=true` overrides.
   * @default false
   */
  readonly sourceMaps?: boolean;
}

/** Where a resolved value came from: the table below, or a `-c` override. */
export type SettingSource = 'config' | 'context';

/** One environment, resolved: its settings plus overrides, with where account and region came from. */
export interface EnvironmentConfig extends EnvironmentSettings {
  readonly name: EnvironmentName;
  readonly accountSource: SettingSource;
  readonly regionSource: SettingSource;
}

/**
 * Workers reserve exactly their event source's maxConcurrency: never
 * throttled by their own poller (a throttled SQS delivery counts as a
 * receive and pushes jobs towards the DLQ), never starved by API traffic.
 */
const WORKERS_AT_MAX_CONCURRENCY: Partial<Record<FunctionId, number>> = Object.fromEntries(
  QUEUES.map((queue) => [queue.workerFunction, queue.maxConcurrency]),
);

/*
 * Route throttles and API caps go together: an api function's reserved
 * concurrency covers, for each of its routes, the burst plus the rate times
 * its timeout (a `Prefer: wait` request holds an instance up to 25 s), so
 * API Gateway answers 429 before Lambda would throttle (see validate()).
 * Lead follow-ups are limited well below what the gateway could take: each
 * one is LLM work for a worker pool of 10. Deep research is limited further:
 * each operation spends search provider requests (Google's free quota is 100
 * a day) and, with analysis, LLM calls.
 * The webhook routes are administration (register, list, rotate, redeliver):
 * a request or two a second is plenty, and each is a few table calls.
 */
export const ENVIRONMENTS: Readonly<Record<EnvironmentName, EnvironmentSettings>> = {
  dev: {
    account: '111111111111',
    region: 'eu-west-1',
    logRetention: RetentionDays.ONE_WEEK,
    removalPolicy: RemovalPolicy.DESTROY,
    tableDeletionProtection: false,
    reservedConcurrency: {
      leadFollowUpApi: 35,
      getCommandApi: 65,
      deleteCommandApi: 15,
      healthApi: 15,
      notFoundApi: 25,
      stakeholderCoordinationApi: 31,
      twilioCallStatusWebhook: 15,
      conversationRelayWebhook: 31,
      deepResearchApi: 35,
      listFollowUpsApi: 12,
      updateFollowUpApi: 12,
      leadEventsApi: 31,
      apiDocsApi: 15,
      webhooksApi: 42,
    },
    logLevel: 'DEBUG',
    apiThrottle: {
      default: { rateLimit: 2, burstLimit: 5 },
      routes: {
        'POST /api/agents/sales/leadFollowUp': { rateLimit: 1, burstLimit: 5 },
        'GET /api/commands/{id}': { rateLimit: 2, burstLimit: 5 },
        'DELETE /api/commands/{id}': { rateLimit: 1, burstLimit: 2 },
        'GET /health': { rateLimit: 1, burstLimit: 2 },
        'HEAD /health': { rateLimit: 1, burstLimit: 2 },
        'POST /api/agents/cmo/stakeholder-coordination': { rateLimit: 1, burstLimit: 2 },
        'POST /webhooks/twilio/call-status': { rateLimit: 2, burstLimit: 5 },
        'POST /api/deepResearch/operation': { rateLimit: 1, burstLimit: 5 },
        'GET /api/leads/{leadId}/follow-ups': { rateLimit: 1, burstLimit: 2 },
        'PATCH /api/follow-ups/{id}': { rateLimit: 1, burstLimit: 2 },
        'POST /api/leads/{leadId}/events': { rateLimit: 1, burstLimit: 2 },
        'GET /openapi.json': { rateLimit: 1, burstLimit: 2 },
        'GET /docs': { rateLimit: 1, burstLimit: 2 },
        'GET /docs/redoc.standalone.js': { rateLimit: 1, burstLimit: 2 },
        'POST /api/webhooks': { rateLimit: 0.5, burstLimit: 2 },
        'GET /api/webhooks': { rateLimit: 0.5, burstLimit: 2 },
        'DELETE /api/webhooks/{id}': { rateLimit: 0.5, burstLimit: 2 },
        'POST /api/webhooks/{id}/rotate-secret': { rateLimit: 0.5, burstLimit: 2 },
        'GET /api/webhooks/{id}/deliveries': { rateLimit: 0.5, burstLimit: 2 },
        'POST /api/webhooks/{id}/deliveries/{event_id}/redeliver': { rateLimit: 0.5, burstLimit: 2 },
      },
    },
    relayThrottle: { rateLimit: 1, burstLimit: 2 },
    alarms: {
      apiServerErrorRatePercent: 10,
      apiP99LatencyMs: 27_000,
      queueOldestMessageAgeSeconds: 3600,
      workerErrors: 5,
      functionThrottles: 5,
      commandFailureRatePercent: 50,
      commandFailureMinimumEnded: 5,
    },
    alarmSubscriptions: { emails: [] },
    providersConfigured: false,
    // Placeholder caller id (a fictional 555-01xx number) until a team sets a number of its Twilio account.
    providerSettings: { TWILIO_FROM_NUMBER: '+14155550102', TWILIO_API_BASE_URL: 'https://api.twilio.com' },
  },
  staging: {
    account: '222222222222',
    region: 'eu-west-1',
    logRetention: RetentionDays.TWO_WEEKS,
    removalPolicy: RemovalPolicy.DESTROY,
    tableDeletionProtection: false,
    reservedConcurrency: {
      leadFollowUpApi: 70,
      getCommandApi: 155,
      deleteCommandApi: 30,
      healthApi: 30,
      notFoundApi: 60,
      stakeholderCoordinationApi: 34,
      twilioCallStatusWebhook: 35,
      conversationRelayWebhook: 63,
      deepResearchApi: 35,
      listFollowUpsApi: 25,
      updateFollowUpApi: 25,
      leadEventsApi: 63,
      apiDocsApi: 15,
      webhooksApi: 72,
    },
    logLevel: 'INFO',
    apiThrottle: {
      default: { rateLimit: 5, burstLimit: 10 },
      routes: {
        'POST /api/agents/sales/leadFollowUp': { rateLimit: 2, burstLimit: 10 },
        'GET /api/commands/{id}': { rateLimit: 5, burstLimit: 10 },
        'DELETE /api/commands/{id}': { rateLimit: 2, burstLimit: 5 },
        'GET /health': { rateLimit: 2, burstLimit: 5 },
        'HEAD /health': { rateLimit: 2, burstLimit: 5 },
        'POST /api/agents/cmo/stakeholder-coordination': { rateLimit: 1, burstLimit: 5 },
        'POST /webhooks/twilio/call-status': { rateLimit: 5, burstLimit: 10 },
        'POST /api/deepResearch/operation': { rateLimit: 1, burstLimit: 5 },
        'GET /api/leads/{leadId}/follow-ups': { rateLimit: 2, burstLimit: 5 },
        'PATCH /api/follow-ups/{id}': { rateLimit: 2, burstLimit: 5 },
        'POST /api/leads/{leadId}/events': { rateLimit: 2, burstLimit: 5 },
        'GET /openapi.json': { rateLimit: 1, burstLimit: 2 },
        'GET /docs': { rateLimit: 1, burstLimit: 2 },
        'GET /docs/redoc.standalone.js': { rateLimit: 1, burstLimit: 2 },
        'POST /api/webhooks': { rateLimit: 1, burstLimit: 2 },
        'GET /api/webhooks': { rateLimit: 1, burstLimit: 2 },
        'DELETE /api/webhooks/{id}': { rateLimit: 1, burstLimit: 2 },
        'POST /api/webhooks/{id}/rotate-secret': { rateLimit: 1, burstLimit: 2 },
        'GET /api/webhooks/{id}/deliveries': { rateLimit: 1, burstLimit: 2 },
        'POST /api/webhooks/{id}/deliveries/{event_id}/redeliver': { rateLimit: 1, burstLimit: 2 },
      },
    },
    relayThrottle: { rateLimit: 2, burstLimit: 5 },
    alarms: {
      apiServerErrorRatePercent: 5,
      apiP99LatencyMs: 27_000,
      queueOldestMessageAgeSeconds: 1800,
      workerErrors: 1,
      functionThrottles: 1,
      commandFailureRatePercent: 20,
      commandFailureMinimumEnded: 5,
    },
    alarmSubscriptions: { emails: ['switchboard-staging-alarms@example.com'] },
    providersConfigured: true,
    // Placeholder caller id (a fictional 555-01xx number) until a team sets a number of its Twilio account.
    providerSettings: { TWILIO_FROM_NUMBER: '+14155550101', TWILIO_API_BASE_URL: 'https://api.twilio.com' },
  },
  prod: {
    account: '333333333333',
    region: 'eu-west-1',
    logRetention: RetentionDays.THREE_MONTHS,
    removalPolicy: RemovalPolicy.RETAIN,
    tableDeletionProtection: true,
    reservedConcurrency: {
      ...WORKERS_AT_MAX_CONCURRENCY,
      leadFollowUpApi: 155,
      getCommandApi: 310,
      deleteCommandApi: 65,
      healthApi: 70,
      notFoundApi: 120,
      stakeholderCoordinationApi: 68,
      twilioCallStatusWebhook: 70,
      conversationRelayWebhook: 155,
      deepResearchApi: 70,
      listFollowUpsApi: 60,
      updateFollowUpApi: 60,
      leadEventsApi: 155,
      apiDocsApi: 15,
      webhooksApi: 98,
    },
    logLevel: 'INFO',
    apiThrottle: {
      default: { rateLimit: 10, burstLimit: 20 },
      routes: {
        'POST /api/agents/sales/leadFollowUp': { rateLimit: 5, burstLimit: 10 },
        'GET /api/commands/{id}': { rateLimit: 10, burstLimit: 20 },
        'DELETE /api/commands/{id}': { rateLimit: 5, burstLimit: 10 },
        'GET /health': { rateLimit: 5, burstLimit: 10 },
        'HEAD /health': { rateLimit: 5, burstLimit: 10 },
        'POST /api/agents/cmo/stakeholder-coordination': { rateLimit: 2, burstLimit: 10 },
        'POST /webhooks/twilio/call-status': { rateLimit: 10, burstLimit: 20 },
        'POST /api/deepResearch/operation': { rateLimit: 2, burstLimit: 10 },
        'GET /api/leads/{leadId}/follow-ups': { rateLimit: 5, burstLimit: 10 },
        'PATCH /api/follow-ups/{id}': { rateLimit: 5, burstLimit: 10 },
        'POST /api/leads/{leadId}/events': { rateLimit: 5, burstLimit: 10 },
        'GET /openapi.json': { rateLimit: 1, burstLimit: 2 },
        'GET /docs': { rateLimit: 1, burstLimit: 2 },
        'GET /docs/redoc.standalone.js': { rateLimit: 1, burstLimit: 2 },
        'POST /api/webhooks': { rateLimit: 1, burstLimit: 2 },
        'GET /api/webhooks': { rateLimit: 2, burstLimit: 5 },
        'DELETE /api/webhooks/{id}': { rateLimit: 1, burstLimit: 2 },
        'POST /api/webhooks/{id}/rotate-secret': { rateLimit: 1, burstLimit: 2 },
        'GET /api/webhooks/{id}/deliveries': { rateLimit: 2, burstLimit: 5 },
        'POST /api/webhooks/{id}/deliveries/{event_id}/redeliver': { rateLimit: 1, burstLimit: 2 },
      },
    },
    relayThrottle: { rateLimit: 5, burstLimit: 10 },
    alarms: {
      apiServerErrorRatePercent: 1,
      apiP99LatencyMs: 27_000,
      queueOldestMessageAgeSeconds: 900,
      workerErrors: 1,
      functionThrottles: 1,
      commandFailureRatePercent: 10,
      commandFailureMinimumEnded: 10,
    },
    alarmSubscriptions: { emails: ['switchboard-oncall@example.com'] },
    providersConfigured: true,
    // Placeholder caller id (a fictional 555-01xx number) until a team sets a number of its Twilio account.
    providerSettings: { TWILIO_FROM_NUMBER: '+14155550100', TWILIO_API_BASE_URL: 'https://api.twilio.com' },
  },
};

/** Thrown when `-c env=NAME` is missing or names no environment. */
export class UnknownEnvironmentError extends Error {
  constructor(name: unknown) {
    const shown = name === undefined ? 'no environment given' : `unknown environment "${String(name)}"`;
    super(`${shown}: pass -c env=NAME with NAME one of ${ENVIRONMENT_NAMES.join(', ')} (e.g. npx cdk synth -c env=dev)`);
    this.name = 'UnknownEnvironmentError';
  }
}

/** Thrown when an environment's settings contradict each other or the catalogue. */
export class InvalidEnvironmentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidEnvironmentError';
  }
}

export function isEnvironmentName(name: unknown): name is EnvironmentName {
  return typeof name === 'string' && (ENVIRONMENT_NAMES as readonly string[]).includes(name);
}

/** Overrides read from CDK context (`-c key=value`). */
export interface ConfigOverrides {
  readonly publicBaseUrl?: string;
  /** `-c account=123456789012` */
  readonly account?: string;
  /** `-c region=eu-central-1` */
  readonly region?: string;
  /** `-c alarmEmail=a@example.com,b@example.com`: replaces the e-mail subscriptions. */
  readonly alarmEmails?: readonly string[];
  /** `-c twilioFromNumber=+14155552671`: the environment's TWILIO_FROM_NUMBER. */
  readonly twilioFromNumber?: string;
  /** `-c sourceMaps=true` (or `false`): the environment's `sourceMaps`. */
  readonly sourceMaps?: boolean;
}

/**
 * Resolves the environment named `name`: its settings, then the overrides.
 * The account and region are the configured ones (or the overrides),
 * never those of whoever runs the CDK CLI.
 * @param environments the table to read @default ENVIRONMENTS
 * @throws UnknownEnvironmentError for a missing or unknown name
 * @throws InvalidEnvironmentError for contradictory settings
 */
export function environmentConfig(
  name: unknown,
  overrides: ConfigOverrides = {},
  environments: Readonly<Record<EnvironmentName, EnvironmentSettings>> = ENVIRONMENTS,
): EnvironmentConfig {
  if (!isEnvironmentName(name)) throw new UnknownEnvironmentError(name);
  const settings = environments[name];
  const config: EnvironmentConfig = {
    ...settings,
    ...(overrides.publicBaseUrl ? { publicBaseUrl: overrides.publicBaseUrl } : {}),
    ...(overrides.alarmEmails ? { alarmSubscriptions: { ...settings.alarmSubscriptions, emails: overrides.alarmEmails } } : {}),
    ...(overrides.twilioFromNumber
      ? { providerSettings: { ...settings.providerSettings, TWILIO_FROM_NUMBER: overrides.twilioFromNumber } }
      : {}),
    ...(overrides.sourceMaps === undefined ? {} : { sourceMaps: overrides.sourceMaps }),
    name,
    account: overrides.account ?? settings.account,
    accountSource: overrides.account === undefined ? 'config' : 'context',
    region: overrides.region ?? settings.region,
    regionSource: overrides.region === undefined ? 'config' : 'context',
  };
  validate(config);
  return config;
}

/** The route keys (`METHOD /path`) of the catalogue's routes. */
export function routeKeys(): string[] {
  return ROUTES.map((route) => `${route.method} ${route.path}`);
}

/** The throttle API Gateway applies to a route key. */
export function throttleOf(throttles: ApiThrottles, routeKey: string): Throttle {
  return throttles.routes[routeKey] ?? throttles.default;
}

/**
 * The most requests a function's routes can hold at once when every one
 * takes its whole timeout: per route, its burst plus its rate times the
 * function's timeout (the not-found function answers `$default`).
 */
export function peakApiConcurrency(throttles: ApiThrottles, functionId: FunctionId): number {
  const { timeoutSeconds } = functionById(functionId);
  const throttlesOfRoutes = [
    ...ROUTES.filter((route) => route.function === functionId).map((route) => throttleOf(throttles, `${route.method} ${route.path}`)),
    ...(functionId === DEFAULT_ROUTE_FUNCTION ? [throttles.default] : []),
  ];
  return throttlesOfRoutes.reduce((sum, throttle) => sum + throttle.burstLimit + Math.ceil(throttle.rateLimit * timeoutSeconds), 0);
}

/** The Lambda concurrency the account needs for an environment: its reservations plus the pool AWS keeps unreserved. */
export function accountConcurrencyNeeded(config: Pick<EnvironmentSettings, 'reservedConcurrency'>): number {
  const reserved = Object.values(config.reservedConcurrency).reduce<number>((sum, value) => sum + (value ?? 0), 0);
  return reserved + MINIMUM_UNRESERVED_CONCURRENCY;
}

/** A number in E.164 form that libphonenumber-js holds valid. */
function isE164(value: string): boolean {
  const parsed = parsePhoneNumberFromString(value);
  return parsed !== undefined && parsed.isValid() && parsed.number === value;
}

const ACCOUNT = /^\d{12}$/;
const REGION = /^[a-z]{2}(-[a-z]+)+-\d+$/;
const EMAIL = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;

function validate(config: EnvironmentConfig): void {
  const problems: string[] = [];
  if (!ACCOUNT.test(config.account)) problems.push(`account must be 12 digits, got "${config.account}"`);
  if (!REGION.test(config.region)) problems.push(`region must look like eu-west-1, got "${config.region}"`);
  if (config.publicBaseUrl !== undefined && !/^https:\/\/[^\s/]+(\/[^\s]*[^\s/])?$/.test(config.publicBaseUrl)) {
    problems.push(`publicBaseUrl must be an https URL without a trailing slash, got "${config.publicBaseUrl}"`);
  }
  for (const email of config.alarmSubscriptions.emails) {
    if (!EMAIL.test(email)) problems.push(`alarm e-mail "${email}" is not an e-mail address`);
  }
  const { slack } = config.alarmSubscriptions;
  if (slack && (!/^[A-Z0-9]+$/.test(slack.workspaceId) || !/^[A-Z0-9]+$/.test(slack.channelId))) {
    problems.push('alarmSubscriptions.slack needs the workspace id and channel id as Slack shows them (e.g. T0123ABCD, C0456EFGH)');
  }
  for (const [id, reserved] of Object.entries(config.reservedConcurrency)) {
    if (!FUNCTIONS.some((fn) => fn.id === id)) problems.push(`reservedConcurrency names unknown function ${id}`);
    if (reserved === undefined || !Number.isInteger(reserved) || reserved < 1) {
      problems.push(`reservedConcurrency.${id} must be a positive integer`);
    }
    const queue = QUEUES.find((q) => q.workerFunction === id);
    if (queue && reserved !== undefined && reserved < queue.maxConcurrency) {
      problems.push(
        `reservedConcurrency.${id} (${reserved}) is below its queue's maxConcurrency (${queue.maxConcurrency}); ` +
          'throttled deliveries would count as receives and push jobs to the DLQ',
      );
    }
  }
  const keys = routeKeys();
  for (const key of Object.keys(config.apiThrottle.routes)) {
    if (!keys.includes(key)) problems.push(`apiThrottle.routes names "${key}", which is no route (routes: ${keys.join(', ')})`);
  }
  for (const [where, throttle] of [['default', config.apiThrottle.default], ...Object.entries(config.apiThrottle.routes)] as const) {
    if (!(throttle.rateLimit > 0) || !Number.isInteger(throttle.burstLimit) || throttle.burstLimit < 1) {
      problems.push(`apiThrottle ${where}: rateLimit must be above 0 and burstLimit a positive integer`);
    }
  }
  const declaredSettings = new Set(FUNCTIONS.flatMap((fn) => fn.settings ?? []));
  for (const [name, value] of Object.entries(config.providerSettings)) {
    if (!declaredSettings.has(name)) problems.push(`providerSettings names ${name}, which no function reads (FunctionDefinition.settings)`);
    if (name === 'TWILIO_FROM_NUMBER' && !isE164(value))
      problems.push(`providerSettings.TWILIO_FROM_NUMBER must be an E.164 number like +14155552671, got "${value}"`);
    if (name.endsWith('_BASE_URL') && !/^https:\/\/[^\s/]+(\/[^\s]*[^\s/])?$/.test(value)) {
      problems.push(`providerSettings.${name} must be an https URL without a trailing slash, got "${value}"`);
    }
  }
  for (const fn of FUNCTIONS.filter(isRouted)) {
    const reserved = config.reservedConcurrency[fn.id];
    const peak = peakApiConcurrency(config.apiThrottle, fn.id);
    if (reserved === undefined)
      problems.push(`reservedConcurrency.${fn.id} is missing: every api function is capped (its routes can hold ${peak})`);
    else if (reserved < peak) {
      problems.push(
        `reservedConcurrency.${fn.id} (${reserved}) is below what its route throttles admit at once (${peak}: burst + rate x ${fn.timeoutSeconds} s); ` +
          'Lambda would throttle requests API Gateway let through',
      );
    }
  }
  const relay = functionById('conversationRelayWebhook');
  const relayPeak = config.relayThrottle.burstLimit + Math.ceil(config.relayThrottle.rateLimit * relay.timeoutSeconds);
  if (!(config.relayThrottle.rateLimit > 0) || !Number.isInteger(config.relayThrottle.burstLimit) || config.relayThrottle.burstLimit < 1) {
    problems.push('relayThrottle: rateLimit must be above 0 and burstLimit a positive integer');
  }
  const relayReserved = config.reservedConcurrency[relay.id];
  if (relayReserved !== undefined && relayReserved < relayPeak) {
    problems.push(
      `reservedConcurrency.${relay.id} (${relayReserved}) is below what the relay socket's throttle admits at once (${relayPeak}: burst + rate x ${relay.timeoutSeconds} s); ` +
        'Lambda would throttle messages API Gateway let through',
    );
  }
  if (problems.length > 0) {
    throw new InvalidEnvironmentError(`Environment ${config.name}: ${problems.join('; ')}`);
  }
}
