/**
 * The deployment environments of Switchboard and how they differ, in one
 * typed table. `infra/app.ts` picks one with `-c env=NAME`.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { FUNCTIONS, type FunctionId } from '../shared/catalogue/functions';
import { QUEUES } from '../shared/catalogue/job-types';

export const ENVIRONMENT_NAMES = ['dev', 'staging', 'prod'] as const;

export type EnvironmentName = (typeof ENVIRONMENT_NAMES)[number];

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
}

/** What one environment looks like; everything else is in `infra/definitions.ts`. */
export interface EnvironmentSettings {
  /** Days CloudWatch keeps function and API access logs. */
  readonly logRetention: RetentionDays;
  /** Fate of the table, secrets and log groups when their stack is deleted. */
  readonly removalPolicy: RemovalPolicy;
  /** DynamoDB deletion protection on the table. */
  readonly tableDeletionProtection: boolean;
  /** Concurrency reserved per function; functions not named use the unreserved pool. */
  readonly reservedConcurrency: Readonly<Partial<Record<FunctionId, number>>>;
  /** LOG_LEVEL of every function. */
  readonly logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  /** Steady-state and burst request rates of the HTTP API's default stage. */
  readonly apiThrottle: { readonly rateLimit: number; readonly burstLimit: number };
  readonly alarms: AlarmThresholds;
  /**
   * Public base URL for webhooks (Twilio callbacks), `https://…`, no trailing slash.
   * Can be overridden with `-c publicBaseUrl=https://…`.
   * @default the HTTP API's own execute-api URL
   */
  readonly publicBaseUrl?: string;
}

/** One environment, resolved: its settings plus where it deploys. */
export interface EnvironmentConfig extends EnvironmentSettings {
  readonly name: EnvironmentName;
  /** From CDK_DEFAULT_ACCOUNT; undefined makes the stacks environment-agnostic. */
  readonly account: string | undefined;
  /** From CDK_DEFAULT_REGION; undefined makes the stacks environment-agnostic. */
  readonly region: string | undefined;
}

/**
 * Workers reserve exactly their event source's maxConcurrency: never
 * throttled by their own poller (a throttled SQS delivery counts as a
 * receive and pushes jobs towards the DLQ), never starved by API traffic.
 */
const WORKERS_AT_MAX_CONCURRENCY: Partial<Record<FunctionId, number>> = Object.fromEntries(
  QUEUES.map((queue) => [queue.workerFunction, queue.maxConcurrency]),
);

export const ENVIRONMENTS: Readonly<Record<EnvironmentName, EnvironmentSettings>> = {
  dev: {
    logRetention: RetentionDays.ONE_WEEK,
    removalPolicy: RemovalPolicy.DESTROY,
    tableDeletionProtection: false,
    reservedConcurrency: {},
    logLevel: 'DEBUG',
    apiThrottle: { rateLimit: 10, burstLimit: 20 },
    alarms: {
      apiServerErrorRatePercent: 10,
      apiP99LatencyMs: 27_000,
      queueOldestMessageAgeSeconds: 3600,
      workerErrors: 5,
      functionThrottles: 5,
    },
  },
  staging: {
    logRetention: RetentionDays.TWO_WEEKS,
    removalPolicy: RemovalPolicy.DESTROY,
    tableDeletionProtection: false,
    reservedConcurrency: {},
    logLevel: 'INFO',
    apiThrottle: { rateLimit: 25, burstLimit: 50 },
    alarms: {
      apiServerErrorRatePercent: 5,
      apiP99LatencyMs: 27_000,
      queueOldestMessageAgeSeconds: 1800,
      workerErrors: 1,
      functionThrottles: 1,
    },
  },
  prod: {
    logRetention: RetentionDays.THREE_MONTHS,
    removalPolicy: RemovalPolicy.RETAIN,
    tableDeletionProtection: true,
    reservedConcurrency: WORKERS_AT_MAX_CONCURRENCY,
    logLevel: 'INFO',
    apiThrottle: { rateLimit: 100, burstLimit: 200 },
    alarms: {
      apiServerErrorRatePercent: 1,
      apiP99LatencyMs: 27_000,
      queueOldestMessageAgeSeconds: 900,
      workerErrors: 1,
      functionThrottles: 1,
    },
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

/** Thrown when an environment's settings contradict each other or the definitions. */
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
}

/**
 * Resolves the environment named `name`: its settings, overrides, and the
 * account/region of the CDK CLI's credentials when there are any.
 * @throws UnknownEnvironmentError for a missing or unknown name
 * @throws InvalidEnvironmentError for contradictory settings
 */
export function environmentConfig(
  name: unknown,
  overrides: ConfigOverrides = {},
  processEnv: Record<string, string | undefined> = process.env,
): EnvironmentConfig {
  if (!isEnvironmentName(name)) throw new UnknownEnvironmentError(name);
  const settings = ENVIRONMENTS[name];
  const config: EnvironmentConfig = {
    ...settings,
    ...(overrides.publicBaseUrl ? { publicBaseUrl: overrides.publicBaseUrl } : {}),
    name,
    account: nonEmpty(processEnv.CDK_DEFAULT_ACCOUNT),
    region: nonEmpty(processEnv.CDK_DEFAULT_REGION),
  };
  validate(config);
  return config;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function validate(config: EnvironmentConfig): void {
  const problems: string[] = [];
  if (config.publicBaseUrl !== undefined && !/^https:\/\/[^\s/]+(\/[^\s]*[^\s/])?$/.test(config.publicBaseUrl)) {
    problems.push(`publicBaseUrl must be an https URL without a trailing slash, got "${config.publicBaseUrl}"`);
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
  if (problems.length > 0) {
    throw new InvalidEnvironmentError(`Environment ${config.name}: ${problems.join('; ')}`);
  }
}
