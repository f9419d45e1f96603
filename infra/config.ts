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
import { ConfigError } from '../shared/platform/config';
import { readRelayVoice } from '../shared/providers/telephony/relay-settings';
import { placeholderRefusal, placeholdersOf, type Placeholder } from './placeholders';

export const ENVIRONMENT_NAMES = ['dev', 'staging', 'prod'] as const;

export type EnvironmentName = (typeof ENVIRONMENT_NAMES)[number];

/** AWS keeps this much of an account's Lambda concurrency unreserved; reservations cannot take it. */
export const MINIMUM_UNRESERVED_CONCURRENCY = 100;

/**
 * Reserved on top of what a routed function's throttles admit at once, as a
 * percentage of it (rounded up): API Gateway throttles on a best-effort
 * basis, and an instance that has answered is not free again at once.
 */
export const CONCURRENCY_HEADROOM_PERCENT = 10;

/** Thresholds of the operational alarms. */
export interface AlarmThresholds {
  /** API 5xx answers, as a percentage of requests over 5 minutes (in 2 of 3 such periods). */
  readonly apiServerErrorRatePercent: number;
  /** The 5xx rate counts only when at least this many requests came in the 5 minutes: one failed request of two is no outage. */
  readonly apiServerErrorMinimumRequests: number;
  /**
   * API p99 latency in milliseconds over 5 minutes. Requests sent with
   * `Prefer: wait=N` legitimately take up to MAX_WAIT_SECONDS (25 s), so the
   * alarm watches for answers beyond that: handlers running into API
   * Gateway's 30 s integration timeout.
   */
  readonly apiP99LatencyMs: number;
  /** Age in seconds of the oldest message of any work queue. */
  readonly queueOldestMessageAgeSeconds: number;
  /** Age in seconds of the oldest job of any dead-letter queue: SQS deletes it at 14 days, so this warns days before. */
  readonly deadLetterAgeSeconds: number;
  /** Invocation errors (crashes, timeouts) of one worker over 5 minutes. */
  readonly workerErrors: number;
  /** Throttled invocations of one function over 5 minutes. */
  readonly functionThrottles: number;
  /** ConcurrentExecutions of a function with reserved concurrency, as a percentage of its reservation (5-minute maximum, 2 of 3). */
  readonly concurrencyNearReservationPercent: number;
  /** p99 Duration of a function not behind the HTTP API (workers, schedules, the relay socket), as a percentage of its timeout (2 of 3). */
  readonly durationNearTimeoutPercent: number;
  /** Relay socket ExecutionError + IntegrationError over 5 minutes (2 of 3). */
  readonly relaySocketErrors: number;
  /** Relay socket `$connect` requests refused by the socket function (IntegrationError on `$connect`) over 5 minutes (2 of 3). */
  readonly relayConnectRefusals: number;
  /** Relay socket requests API Gateway refused itself (ClientError: throttled, malformed) over 5 minutes (2 of 3). */
  readonly relaySocketClientErrors: number;
  /** Throttled requests of the table over 5 minutes (2 of 3). */
  readonly tableThrottledRequests: number;
  /** DynamoDB system errors (HTTP 500) of the table over 5 minutes (2 of 3). */
  readonly tableSystemErrors: number;
  /** Alarm notifications the topic failed to deliver over 5 minutes. */
  readonly alarmNotificationFailures: number;
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

/**
 * The front door of an environment: one CloudFront distribution at the
 * team's host name, `/relay*` to the ConversationRelay socket (WebSocket
 * API), everything else to the HTTP API. PUBLIC_BASE_URL becomes
 * `https://<domainName>`.
 */
export interface PublicHost {
  /** The host name Twilio and clients use, e.g. `switchboard.acme.com`; `-c publicDomain=…` overrides. */
  readonly domainName: string;
  /**
   * ARN of an issued ACM certificate covering `domainName`, in us-east-1
   * (CloudFront takes certificates from there only, whatever the
   * environment's region); `-c publicCertificateArn=…` overrides.
   */
  readonly certificateArn: string;
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
   * Concurrency reserved for (and capping) functions not behind a route:
   * workers reserve their queue's maxConcurrency. Every api function and
   * webhook is capped at what its throttles admit at once plus headroom,
   * computed (`routedReservation`), so API traffic can neither starve the
   * workers nor take the account's pool; an entry here for one of them
   * raises its cap and may not lower it. Resolved (`environmentConfig`), it
   * holds every reservation.
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
   * concurrency covers burst + rate x its timeout, plus headroom (`routedReservation`).
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
   * Only for a front door of your own: with `publicHost` set, leave it unset.
   * @default `https://<publicHost.domainName>`, or without a public host the HTTP API's own execute-api URL
   */
  readonly publicBaseUrl?: string;
  /**
   * The public host (CloudFront front door), or `'none'`: the execute-api
   * URLs are used, status callbacks work but Twilio cannot reach the relay
   * socket at PUBLIC_BASE_URL + `/relay`. `-c publicHost=none` turns it off.
   */
  readonly publicHost: PublicHost | 'none';
  /**
   * API Gateway's account-wide CloudWatch Logs role (needed by the relay
   * socket's access log): `'create'` makes the role and sets it on the
   * account and region (the stateful stack), `'existing'` leaves the
   * account's own setting alone. `-c apiGatewayAccountRole=…` overrides.
   */
  readonly apiGatewayAccountRole: 'create' | 'existing';
  /**
   * True for an environment that takes real traffic: synth refuses
   * placeholder values (see infra/placeholders.ts) unless
   * `-c allowPlaceholders=true`, and a missing public host.
   */
  readonly production: boolean;
  /**
   * Source maps for readable stack traces: each bundle ships its `.map` and
   * runs with `NODE_OPTIONS=--enable-source-maps`, which parses the map at
   * cold start (docs/performance.md). `-c sourceMaps=true` overrides.
   * @default false
   */
  readonly sourceMaps?: boolean;
  /**
   * In-process X-Ray tracing (shared/platform/xray: a subsegment per
   * DynamoDB, SQS and provider call) in the functions a caller waits on,
   * API routes and webhooks. Off, they are bundled without the tracing
   * modules (shared/platform/xray) and Lambda's active tracing still records
   * each invocation, cold start included; workers are traced either way,
   * and the phone path (the relay socket, Twilio's status callback) never
   * in-process. `-c apiTracing=true` overrides.
   * @default false
   */
  readonly apiTracing?: boolean;
}

/** Where a resolved value came from: the table below, or a `-c` override. */
export type SettingSource = 'config' | 'context';

/** One environment, resolved: its settings plus overrides, with where account and region came from. */
export interface EnvironmentConfig extends EnvironmentSettings {
  readonly name: EnvironmentName;
  /**
   * Placeholder values still in the settings: accepted where the environment
   * is not `production`, there only with `-c allowPlaceholders=true`.
   */
  readonly placeholders: readonly Placeholder[];
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
 * Route throttles make the API caps: an api function's reserved concurrency
 * is, over its routes, the burst plus the rate times its timeout (a
 * `Prefer: wait` request holds an instance up to 25 s) plus headroom, so API
 * Gateway answers 429 before Lambda would throttle (routedReservation()).
 * Functions that never wait have timeouts of a few seconds, and small caps.
 * Lead follow-ups are limited well below what the gateway could take: each
 * one is LLM work for a worker pool of 10. Deep research is limited further:
 * each operation spends search provider requests (Google's free quota is 100
 * a day) and, with analysis, LLM calls.
 * The webhook routes are administration (register, list, rotate, redeliver):
 * a request or two a second is plenty, and each is a few table calls. So are
 * the CRM connection's (connect, show, disconnect), at the same rates.
 */
export const ENVIRONMENTS: Readonly<Record<EnvironmentName, EnvironmentSettings>> = {
  dev: {
    account: '111111111111',
    region: 'eu-west-1',
    logRetention: RetentionDays.ONE_WEEK,
    removalPolicy: RemovalPolicy.DESTROY,
    tableDeletionProtection: false,
    reservedConcurrency: {},
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
        // One report per call, when its relay session ends (the TwiML's <Connect action>).
        'POST /webhooks/twilio/relay-ended': { rateLimit: 1, burstLimit: 2 },
        'POST /api/deepResearch/operation': { rateLimit: 1, burstLimit: 5 },
        'GET /api/leads/{leadId}/follow-ups': { rateLimit: 1, burstLimit: 2 },
        'GET /api/follow-ups': { rateLimit: 1, burstLimit: 2 },
        'GET /api/commands': { rateLimit: 1, burstLimit: 2 },
        'GET /api/usage': { rateLimit: 1, burstLimit: 2 },
        'PATCH /api/follow-ups/{id}': { rateLimit: 1, burstLimit: 2 },
        'POST /api/leads/{leadId}/events': { rateLimit: 1, burstLimit: 2 },
        'POST /api/leads/{leadId}/follow-ups/pause': { rateLimit: 1, burstLimit: 2 },
        'POST /api/leads/{leadId}/follow-ups/resume': { rateLimit: 1, burstLimit: 2 },
        'GET /openapi.json': { rateLimit: 1, burstLimit: 2 },
        'GET /docs': { rateLimit: 1, burstLimit: 2 },
        'GET /docs/redoc.standalone.js': { rateLimit: 1, burstLimit: 2 },
        'POST /api/webhooks': { rateLimit: 0.5, burstLimit: 2 },
        'GET /api/webhooks': { rateLimit: 0.5, burstLimit: 2 },
        'GET /api/webhooks/{id}': { rateLimit: 0.5, burstLimit: 2 },
        'DELETE /api/webhooks/{id}': { rateLimit: 0.5, burstLimit: 2 },
        'POST /api/webhooks/{id}/rotate-secret': { rateLimit: 0.5, burstLimit: 2 },
        'GET /api/webhooks/{id}/deliveries': { rateLimit: 0.5, burstLimit: 2 },
        'POST /api/webhooks/{id}/deliveries/{event_id}/redeliver': { rateLimit: 0.5, burstLimit: 2 },
        'PATCH /api/webhooks/{id}': { rateLimit: 0.5, burstLimit: 2 },
        'POST /api/webhooks/{id}/test': { rateLimit: 0.5, burstLimit: 2 },
        'GET /api/events': { rateLimit: 0.5, burstLimit: 2 },
        'POST /api/events/{id}/redeliver': { rateLimit: 0.5, burstLimit: 2 },
        'GET /api/leads/{leadId}/crm-syncs': { rateLimit: 0.5, burstLimit: 2 },
        'PUT /api/integrations/hubspot': { rateLimit: 0.5, burstLimit: 2 },
        'GET /api/integrations/hubspot': { rateLimit: 0.5, burstLimit: 2 },
        'DELETE /api/integrations/hubspot': { rateLimit: 0.5, burstLimit: 2 },
        'POST /api/integrations/hubspot/import': { rateLimit: 0.5, burstLimit: 2 },
        // HubSpot's webhook calls: bursts of contact changes, like Twilio's status callbacks.
        'POST /webhooks/hubspot': { rateLimit: 2, burstLimit: 5 },
      },
    },
    relayThrottle: { rateLimit: 1, burstLimit: 2 },
    alarms: {
      apiServerErrorRatePercent: 10,
      apiServerErrorMinimumRequests: 10,
      apiP99LatencyMs: 27_000,
      queueOldestMessageAgeSeconds: 3600,
      deadLetterAgeSeconds: 10 * 24 * 3600,
      workerErrors: 5,
      functionThrottles: 5,
      concurrencyNearReservationPercent: 80,
      durationNearTimeoutPercent: 80,
      relaySocketErrors: 10,
      relayConnectRefusals: 10,
      relaySocketClientErrors: 20,
      tableThrottledRequests: 10,
      tableSystemErrors: 5,
      alarmNotificationFailures: 1,
      commandFailureRatePercent: 50,
      commandFailureMinimumEnded: 5,
    },
    alarmSubscriptions: { emails: [] },
    providersConfigured: false,
    // Placeholder caller id (a fictional 555-01xx number) until a team sets a number of its Twilio account.
    providerSettings: { TWILIO_FROM_NUMBER: '+14155550102', TWILIO_API_BASE_URL: 'https://api.twilio.com' },
    publicHost: 'none',
    apiGatewayAccountRole: 'create',
    production: false,
  },
  staging: {
    account: '222222222222',
    region: 'eu-west-1',
    logRetention: RetentionDays.TWO_WEEKS,
    removalPolicy: RemovalPolicy.DESTROY,
    tableDeletionProtection: false,
    reservedConcurrency: {},
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
        // One report per call, when its relay session ends (the TwiML's <Connect action>).
        'POST /webhooks/twilio/relay-ended': { rateLimit: 1, burstLimit: 2 },
        'POST /api/deepResearch/operation': { rateLimit: 1, burstLimit: 5 },
        'GET /api/leads/{leadId}/follow-ups': { rateLimit: 2, burstLimit: 5 },
        'GET /api/follow-ups': { rateLimit: 2, burstLimit: 5 },
        'GET /api/commands': { rateLimit: 2, burstLimit: 5 },
        'GET /api/usage': { rateLimit: 1, burstLimit: 2 },
        'PATCH /api/follow-ups/{id}': { rateLimit: 2, burstLimit: 5 },
        'POST /api/leads/{leadId}/events': { rateLimit: 2, burstLimit: 5 },
        'POST /api/leads/{leadId}/follow-ups/pause': { rateLimit: 2, burstLimit: 5 },
        'POST /api/leads/{leadId}/follow-ups/resume': { rateLimit: 2, burstLimit: 5 },
        'GET /openapi.json': { rateLimit: 1, burstLimit: 2 },
        'GET /docs': { rateLimit: 1, burstLimit: 2 },
        'GET /docs/redoc.standalone.js': { rateLimit: 1, burstLimit: 2 },
        'POST /api/webhooks': { rateLimit: 1, burstLimit: 2 },
        'GET /api/webhooks': { rateLimit: 1, burstLimit: 2 },
        'GET /api/webhooks/{id}': { rateLimit: 1, burstLimit: 2 },
        'DELETE /api/webhooks/{id}': { rateLimit: 1, burstLimit: 2 },
        'POST /api/webhooks/{id}/rotate-secret': { rateLimit: 1, burstLimit: 2 },
        'GET /api/webhooks/{id}/deliveries': { rateLimit: 1, burstLimit: 2 },
        'POST /api/webhooks/{id}/deliveries/{event_id}/redeliver': { rateLimit: 1, burstLimit: 2 },
        'PATCH /api/webhooks/{id}': { rateLimit: 1, burstLimit: 2 },
        'POST /api/webhooks/{id}/test': { rateLimit: 1, burstLimit: 2 },
        'GET /api/events': { rateLimit: 1, burstLimit: 2 },
        'POST /api/events/{id}/redeliver': { rateLimit: 1, burstLimit: 2 },
        'GET /api/leads/{leadId}/crm-syncs': { rateLimit: 1, burstLimit: 2 },
        'PUT /api/integrations/hubspot': { rateLimit: 1, burstLimit: 2 },
        'GET /api/integrations/hubspot': { rateLimit: 1, burstLimit: 2 },
        'DELETE /api/integrations/hubspot': { rateLimit: 1, burstLimit: 2 },
        'POST /api/integrations/hubspot/import': { rateLimit: 1, burstLimit: 2 },
        // HubSpot's webhook calls: bursts of contact changes, like Twilio's status callbacks.
        'POST /webhooks/hubspot': { rateLimit: 5, burstLimit: 10 },
      },
    },
    relayThrottle: { rateLimit: 2, burstLimit: 5 },
    alarms: {
      apiServerErrorRatePercent: 5,
      apiServerErrorMinimumRequests: 10,
      apiP99LatencyMs: 27_000,
      queueOldestMessageAgeSeconds: 1800,
      deadLetterAgeSeconds: 10 * 24 * 3600,
      workerErrors: 1,
      functionThrottles: 1,
      concurrencyNearReservationPercent: 80,
      durationNearTimeoutPercent: 80,
      relaySocketErrors: 5,
      relayConnectRefusals: 3,
      relaySocketClientErrors: 10,
      tableThrottledRequests: 5,
      tableSystemErrors: 1,
      alarmNotificationFailures: 1,
      commandFailureRatePercent: 20,
      commandFailureMinimumEnded: 5,
    },
    alarmSubscriptions: { emails: ['switchboard-staging-alarms@example.com'] },
    providersConfigured: true,
    // Placeholder caller id (a fictional 555-01xx number) until a team sets a number of its Twilio account.
    providerSettings: { TWILIO_FROM_NUMBER: '+14155550101', TWILIO_API_BASE_URL: 'https://api.twilio.com' },
    // A placeholder host would fail the deploy (no such certificate): staging uses the execute-api URLs until a team sets one.
    publicHost: 'none',
    apiGatewayAccountRole: 'create',
    production: false,
  },
  prod: {
    account: '333333333333',
    region: 'eu-west-1',
    logRetention: RetentionDays.THREE_MONTHS,
    removalPolicy: RemovalPolicy.RETAIN,
    tableDeletionProtection: true,
    reservedConcurrency: { ...WORKERS_AT_MAX_CONCURRENCY },
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
        // One report per call, when its relay session ends (the TwiML's <Connect action>).
        'POST /webhooks/twilio/relay-ended': { rateLimit: 1, burstLimit: 2 },
        'POST /api/deepResearch/operation': { rateLimit: 2, burstLimit: 10 },
        'GET /api/leads/{leadId}/follow-ups': { rateLimit: 5, burstLimit: 10 },
        'GET /api/follow-ups': { rateLimit: 5, burstLimit: 10 },
        'GET /api/commands': { rateLimit: 5, burstLimit: 10 },
        'GET /api/usage': { rateLimit: 2, burstLimit: 5 },
        'PATCH /api/follow-ups/{id}': { rateLimit: 5, burstLimit: 10 },
        'POST /api/leads/{leadId}/events': { rateLimit: 5, burstLimit: 10 },
        'POST /api/leads/{leadId}/follow-ups/pause': { rateLimit: 2, burstLimit: 5 },
        'POST /api/leads/{leadId}/follow-ups/resume': { rateLimit: 2, burstLimit: 5 },
        'GET /openapi.json': { rateLimit: 1, burstLimit: 2 },
        'GET /docs': { rateLimit: 1, burstLimit: 2 },
        'GET /docs/redoc.standalone.js': { rateLimit: 1, burstLimit: 2 },
        'POST /api/webhooks': { rateLimit: 1, burstLimit: 2 },
        'GET /api/webhooks': { rateLimit: 2, burstLimit: 5 },
        'GET /api/webhooks/{id}': { rateLimit: 2, burstLimit: 5 },
        'DELETE /api/webhooks/{id}': { rateLimit: 1, burstLimit: 2 },
        'POST /api/webhooks/{id}/rotate-secret': { rateLimit: 1, burstLimit: 2 },
        'GET /api/webhooks/{id}/deliveries': { rateLimit: 2, burstLimit: 5 },
        'POST /api/webhooks/{id}/deliveries/{event_id}/redeliver': { rateLimit: 1, burstLimit: 2 },
        'PATCH /api/webhooks/{id}': { rateLimit: 1, burstLimit: 2 },
        'POST /api/webhooks/{id}/test': { rateLimit: 1, burstLimit: 2 },
        'GET /api/events': { rateLimit: 1, burstLimit: 2 },
        'POST /api/events/{id}/redeliver': { rateLimit: 1, burstLimit: 2 },
        'GET /api/leads/{leadId}/crm-syncs': { rateLimit: 1, burstLimit: 2 },
        'PUT /api/integrations/hubspot': { rateLimit: 1, burstLimit: 2 },
        'GET /api/integrations/hubspot': { rateLimit: 1, burstLimit: 2 },
        'DELETE /api/integrations/hubspot': { rateLimit: 1, burstLimit: 2 },
        'POST /api/integrations/hubspot/import': { rateLimit: 1, burstLimit: 2 },
        // HubSpot's webhook calls: bursts of contact changes, like Twilio's status callbacks.
        'POST /webhooks/hubspot': { rateLimit: 10, burstLimit: 20 },
      },
    },
    relayThrottle: { rateLimit: 5, burstLimit: 10 },
    alarms: {
      apiServerErrorRatePercent: 1,
      apiServerErrorMinimumRequests: 20,
      apiP99LatencyMs: 27_000,
      queueOldestMessageAgeSeconds: 900,
      deadLetterAgeSeconds: 10 * 24 * 3600,
      workerErrors: 1,
      functionThrottles: 1,
      concurrencyNearReservationPercent: 80,
      durationNearTimeoutPercent: 80,
      relaySocketErrors: 3,
      relayConnectRefusals: 3,
      relaySocketClientErrors: 10,
      tableThrottledRequests: 5,
      tableSystemErrors: 1,
      alarmNotificationFailures: 1,
      commandFailureRatePercent: 10,
      commandFailureMinimumEnded: 10,
    },
    alarmSubscriptions: { emails: ['switchboard-oncall@example.com'] },
    providersConfigured: true,
    // Placeholder caller id (a fictional 555-01xx number) until a team sets a number of its Twilio account.
    providerSettings: { TWILIO_FROM_NUMBER: '+14155550100', TWILIO_API_BASE_URL: 'https://api.twilio.com' },
    // Placeholders, refused by a prod synth until a team sets its own host and certificate.
    publicHost: {
      domainName: 'switchboard.example.com',
      certificateArn: 'arn:aws:acm:us-east-1:333333333333:certificate/00000000-0000-0000-0000-000000000000',
    },
    apiGatewayAccountRole: 'create',
    production: true,
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
  /** `-c publicHost=none`: no front door. */
  readonly publicHost?: 'none';
  /** `-c publicDomain=switchboard.acme.com`: the public host's name. */
  readonly publicDomain?: string;
  /** `-c publicCertificateArn=arn:aws:acm:us-east-1:…`: the public host's certificate. */
  readonly publicCertificateArn?: string;
  /** `-c apiGatewayAccountRole=existing`: leave API Gateway's account setting alone. */
  readonly apiGatewayAccountRole?: 'create' | 'existing';
  /** `-c allowPlaceholders=true`: synthesize a production environment with placeholders (a template that is not deployable). */
  readonly allowPlaceholders?: boolean;
  /** `-c sourceMaps=true` (or `false`): the environment's `sourceMaps`. */
  readonly sourceMaps?: boolean;
  /** `-c apiTracing=true` (or `false`): the environment's `apiTracing`. */
  readonly apiTracing?: boolean;
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
  const resolved: Omit<EnvironmentConfig, 'placeholders'> = {
    ...settings,
    reservedConcurrency: reservedConcurrencyOf(settings),
    ...(overrides.publicBaseUrl ? { publicBaseUrl: overrides.publicBaseUrl } : {}),
    ...(overrides.alarmEmails ? { alarmSubscriptions: { ...settings.alarmSubscriptions, emails: overrides.alarmEmails } } : {}),
    ...(overrides.twilioFromNumber
      ? { providerSettings: { ...settings.providerSettings, TWILIO_FROM_NUMBER: overrides.twilioFromNumber } }
      : {}),
    ...(overrides.sourceMaps === undefined ? {} : { sourceMaps: overrides.sourceMaps }),
    ...(overrides.apiTracing === undefined ? {} : { apiTracing: overrides.apiTracing }),
    name,
    account: overrides.account ?? settings.account,
    accountSource: overrides.account === undefined ? 'config' : 'context',
    region: overrides.region ?? settings.region,
    regionSource: overrides.region === undefined ? 'config' : 'context',
    publicHost: publicHostOf(settings.publicHost, overrides),
    apiGatewayAccountRole: overrides.apiGatewayAccountRole ?? settings.apiGatewayAccountRole,
  };
  const config: EnvironmentConfig = { ...resolved, placeholders: placeholdersOf(resolved) };
  validate(config);
  if (config.production && config.placeholders.length > 0 && overrides.allowPlaceholders !== true) {
    throw new InvalidEnvironmentError(placeholderRefusal(config.name, config.placeholders));
  }
  return config;
}

/** The public host after `-c publicHost=none`, `-c publicDomain` and `-c publicCertificateArn`. */
function publicHostOf(configured: PublicHost | 'none', overrides: ConfigOverrides): PublicHost | 'none' {
  if (overrides.publicHost === 'none') {
    if (overrides.publicDomain || overrides.publicCertificateArn)
      throw new InvalidEnvironmentError('-c publicHost=none cannot go with -c publicDomain or -c publicCertificateArn');
    return 'none';
  }
  const domainName = overrides.publicDomain ?? (configured === 'none' ? undefined : configured.domainName);
  const certificateArn = overrides.publicCertificateArn ?? (configured === 'none' ? undefined : configured.certificateArn);
  if (domainName === undefined && certificateArn === undefined) return 'none';
  if (domainName === undefined || certificateArn === undefined) {
    throw new InvalidEnvironmentError(
      'a public host needs both its name and its certificate: pass -c publicDomain=… and -c publicCertificateArn=… together',
    );
  }
  return { domainName, certificateArn };
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
  return throttlesOfRoutes.reduce((sum, throttle) => sum + heldAtOnce(throttle, timeoutSeconds), 0);
}

/** The function behind the ConversationRelay socket, throttled by `relayThrottle` rather than by routes. */
export const RELAY_FUNCTION: FunctionId = 'conversationRelayWebhook';

/** What a token bucket admits at once when each request holds an instance for `timeoutSeconds`: the burst plus the rate times it. */
function heldAtOnce(throttle: Throttle, timeoutSeconds: number): number {
  return throttle.burstLimit + Math.ceil(throttle.rateLimit * timeoutSeconds);
}

/** What a routed function's throttles admit at once: its routes' (peakApiConcurrency), or the relay socket's. */
export function peakConcurrency(settings: Pick<EnvironmentSettings, 'apiThrottle' | 'relayThrottle'>, functionId: FunctionId): number {
  if (functionId === RELAY_FUNCTION) return heldAtOnce(settings.relayThrottle, functionById(functionId).timeoutSeconds);
  return peakApiConcurrency(settings.apiThrottle, functionId);
}

/** The reservation of a function behind a route (or the relay socket): what its throttles admit at once, plus the headroom. */
export function routedReservation(settings: Pick<EnvironmentSettings, 'apiThrottle' | 'relayThrottle'>, functionId: FunctionId): number {
  const peak = peakConcurrency(settings, functionId);
  return peak + Math.ceil((peak * CONCURRENCY_HEADROOM_PERCENT) / 100);
}

/**
 * Every reservation of an environment: each routed function's computed one
 * (or the table's entry for it, which validate() holds to at least that),
 * and the table's entries for the others (workers).
 */
export function reservedConcurrencyOf(
  settings: Pick<EnvironmentSettings, 'reservedConcurrency' | 'apiThrottle' | 'relayThrottle'>,
): Partial<Record<FunctionId, number>> {
  const routed = Object.fromEntries(FUNCTIONS.filter(isRouted).map((fn) => [fn.id, routedReservation(settings, fn.id)]));
  const entries = Object.entries(settings.reservedConcurrency).filter(([, value]) => value !== undefined);
  return { ...routed, ...Object.fromEntries(entries) };
}

/** The Lambda concurrency the account needs for an environment: its reservations plus the pool AWS keeps unreserved. */
export function accountConcurrencyNeeded(
  settings: Pick<EnvironmentSettings, 'reservedConcurrency' | 'apiThrottle' | 'relayThrottle'>,
): number {
  const reserved = Object.values(reservedConcurrencyOf(settings)).reduce<number>((sum, value) => sum + (value ?? 0), 0);
  return reserved + MINIMUM_UNRESERVED_CONCURRENCY;
}

/** A number in E.164 form that libphonenumber-js holds valid. */
function isE164(value: string): boolean {
  const parsed = parsePhoneNumberFromString(value);
  return parsed !== undefined && parsed.isValid() && parsed.number === value;
}

const ACCOUNT = /^\d{12}$/;
const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const CLOUDFRONT_CERTIFICATE = /^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[0-9a-f-]{36}$/;

function publicHostProblems(config: EnvironmentConfig): string[] {
  const { publicHost } = config;
  if (publicHost === 'none') {
    return config.production && config.publicBaseUrl === undefined
      ? [
          `${config.name} needs its public host, or Twilio cannot reach the voice assistant: set publicHost ` +
            '{ domainName, certificateArn } in infra/config.ts, or pass -c publicDomain=<your host name> ' +
            '-c publicCertificateArn=<ACM certificate ARN in us-east-1>',
        ]
      : [];
  }
  const problems: string[] = [];
  if (!HOST_NAME.test(publicHost.domainName))
    problems.push(`publicHost.domainName must be a lower-case host name like switchboard.acme.com, got "${publicHost.domainName}"`);
  if (!CLOUDFRONT_CERTIFICATE.test(publicHost.certificateArn)) {
    problems.push(
      `publicHost.certificateArn must be an ACM certificate ARN in us-east-1 (CloudFront takes no other region), got "${publicHost.certificateArn}"`,
    );
  }
  if (config.publicBaseUrl !== undefined)
    problems.push(`publicBaseUrl is https://${publicHost.domainName} with a public host: set one or the other, not both`);
  return problems;
}
const REGION = /^[a-z]{2}(-[a-z]+)+-\d+$/;
const EMAIL = /^[^\s@,]+@[^\s@,]+\.[^\s@,]+$/;

function validate(config: EnvironmentConfig): void {
  const problems: string[] = [];
  if (!ACCOUNT.test(config.account)) problems.push(`account must be 12 digits, got "${config.account}"`);
  if (!REGION.test(config.region)) problems.push(`region must look like eu-west-1, got "${config.region}"`);
  if (config.publicBaseUrl !== undefined && !/^https:\/\/[^\s/]+(\/[^\s]*[^\s/])?$/.test(config.publicBaseUrl)) {
    problems.push(`publicBaseUrl must be an https URL without a trailing slash, got "${config.publicBaseUrl}"`);
  }
  problems.push(...publicHostProblems(config));
  for (const email of config.alarmSubscriptions.emails) {
    if (!EMAIL.test(email)) problems.push(`alarm e-mail "${email}" is not an e-mail address`);
  }
  const { slack } = config.alarmSubscriptions;
  if (slack && (!/^[A-Z0-9]+$/.test(slack.workspaceId) || !/^[A-Z0-9]+$/.test(slack.channelId))) {
    problems.push('alarmSubscriptions.slack needs the workspace id and channel id as Slack shows them (e.g. T0123ABCD, C0456EFGH)');
  }
  if (config.production && config.alarmSubscriptions.emails.length === 0 && !slack) {
    problems.push(
      `${config.name}'s alarms would reach nobody: set alarmSubscriptions.emails (-c alarmEmail=<on-call address>[,<another>]) ` +
        'or alarmSubscriptions.slack in infra/config.ts',
    );
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
  try {
    // The call worker reads these at its cold start: a value it would refuse fails the synth instead of every call.
    readRelayVoice(config.providerSettings);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(`providerSettings: ${error.message.replace(/^Invalid configuration: /, '')}`);
  }
  if (!(config.relayThrottle.rateLimit > 0) || !Number.isInteger(config.relayThrottle.burstLimit) || config.relayThrottle.burstLimit < 1) {
    problems.push('relayThrottle: rateLimit must be above 0 and burstLimit a positive integer');
  }
  for (const fn of FUNCTIONS.filter(isRouted)) {
    const reserved = config.reservedConcurrency[fn.id];
    const needed = routedReservation(config, fn.id);
    if (reserved !== undefined && reserved < needed) {
      const admitted = fn.id === RELAY_FUNCTION ? "the relay socket's throttle admits" : 'its route throttles admit';
      problems.push(
        `reservedConcurrency.${fn.id} (${reserved}) is below what ${admitted} at once with headroom ` +
          `(${needed}: burst + rate x ${fn.timeoutSeconds} s, + ${CONCURRENCY_HEADROOM_PERCENT}%); ` +
          'Lambda would throttle requests API Gateway let through',
      );
    }
  }
  if (problems.length > 0) {
    throw new InvalidEnvironmentError(`Environment ${config.name}: ${problems.join('; ')}`);
  }
}
