import type { AddressInfo } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import type { Context, ScheduledEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as z from 'zod';
import { DEFAULT_ROUTE_FUNCTION, ROUTES } from '../../shared/catalogue/routes';
import {
  FUNCTIONS,
  functionById,
  type FunctionDefinition,
  type FunctionId,
  type ScheduledFunctionId,
} from '../../shared/catalogue/functions';
import { QUEUES, type JobQueueId } from '../../shared/catalogue/job-types';
import { generateApiKey } from '../../shared/access/api-keys';
import { sqsJobQueue } from '../../shared/commands/sqs-queue';
import { dynamoCommandStore } from '../../shared/commands/dynamo-store';
import { documentClientOf } from '../../shared/composition/adapters';
import type { HostPorts } from '../../shared/composition/host';
import type { Settings } from '../../shared/composition/settings';
import type { ApiKeyEntry } from './settings';
import { systemClock, type Clock } from '../../shared/platform/clock';
import { readConfig } from '../../shared/platform/config';
import type { RelayTransport } from '../../functions/webhooks/relay';
import { localCrmKey } from './crm-key';
import { embeddedServiceSettings, startEmbeddedAws, type AwsRequestObserver, type LocalQueue } from './embedded-aws';
import { startLocalTelephony, type LocalTelephony } from './local-telephony';
import { startLocalCrm, type LocalCrm } from './local-crm';
import { localCrmControl } from './crm-control';
import { createGateway, type GatewayRoute, type HttpHandler } from './http-gateway';
import { lambdaContext } from './lambda-context';
import type { SocketEvent, SocketResult } from '../../shared/voice-assistant/socket-event';
import { requestLogFromEnv } from './request-log';
import { DEFAULT_STOP_GRACE_MS, drain, type StopOptions } from './drain';
import { DEMO_DATA_FILE, importFile, registerKeys } from './provision';
import { requeueUnfinishedCommands } from './recover';
import { handOnPendingEvents, requeuePendingDeliveries } from './recover-deliveries';
import { startSchedule, type LocalSchedule } from './scheduler';
import { startPoller, type Poller } from './sqs-poller';
import { importFunctionModule } from './function-modules';
import { attachRelaySocket, type LocalRelay } from './relay-server';
import { localTelephonyControl } from './relay-control';
import { relayUrlOf } from '../../shared/providers/telephony/public-urls';
import { portOf } from '../../shared/webhooks/endpoint-url';

/** How to run Switchboard on this machine; every field has a default. */
export interface LocalRuntimeOptions {
  /** @default '127.0.0.1' */
  host?: string;
  /** 0 picks a free port. @default 3000 */
  port?: number;
  /** Keep DynamoDB data here between runs; in memory when absent. */
  dataDir?: string;
  /** Extra data files to load after the demo data (`DATA_FILE`). */
  dataFiles?: string[];
  /** @default true */
  demoData?: boolean;
  /** The key with access to every loaded site; made up when absent. */
  apiKey?: string;
  /** More keys, each its own tenant: key → site ids (`API_KEYS`). */
  apiKeys?: Record<string, ApiKeyEntry>;
  /** Settings for the functions (the names of docs/configuration.md), on top of the process environment. */
  settings?: Record<string, string | undefined>;
  /** Visibility timeout of the work queues; AWS's value (6× the worker timeout) by default. */
  visibilityTimeoutSeconds?: number;
  /** How long a worker attempt holds its command; the worker's timeout by default. */
  leaseSeconds?: number;
  /** Batches each worker handles at once. @default 2 */
  workerConcurrency?: number;
  /**
   * Start the queue pollers; `false` leaves jobs queued until `startWorkers()` (the bench measures the accept path alone, or builds a
   * backlog). @default true
   */
  workers?: boolean;
  /**
   * Interval of every scheduled function, 0 turns schedules off. By default
   * each runs every `scheduleMinutes`, or every `localSchedule` setting's
   * seconds (the follow-up dispatcher: FOLLOW_UP_DISPATCH_SECONDS, 60).
   */
  scheduleEveryMs?: number;
  /** Where poller and gateway problems are reported. @default stderr */
  onError?: (error: unknown) => void;
  /** Sees every request to the embedded DynamoDB and SQS as it arrives (the bench counts storage calls with it). */
  onAwsRequest?: AwsRequestObserver;
  /**
   * Run the embedded DynamoDB and SQS in a worker thread of their own, so the functions' event loop does not also answer every
   * storage call (`npm start` does; not with `onAwsRequest`, which watches them in this thread).
   * @default false
   */
  embeddedThread?: boolean;
  /** How long a call of the local telephony rings before it ends `no-answer`. @default 180_000 */
  localRingTimeoutMs?: number;
  /**
   * The time every function composed here reads (and the restart recovery with it); tests pass one they can move on, so a
   * follow-up or a webhook retry is due without waiting for it. The embedded SQS keeps real time (delays, visibility).
   * @default systemClock
   */
  clock?: Clock;
  /**
   * When each function's module is loaded and composed with its settings. `'first-use'`: on its first request, job, socket
   * event or scheduled run, as Lambda does on a cold start (its init outside the invocation's timeout); a function that is never
   * used is never loaded. `'start'`: every function before the runtime resolves, so a malformed setting stops the start
   * (`npm start` composes at start).
   * @default 'first-use'
   */
  compose?: 'start' | 'first-use';
}

/** A running local Switchboard. */
export interface LocalRuntime {
  url: string;
  apiKey: string;
  /** Tenant of `apiKey`. */
  tenantId: string;
  siteIds: string[];
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  tableName: string;
  queues: Record<JobQueueId, LocalQueue>;
  /** PUBLIC_BASE_URL the functions were given: the setting, else this runtime's `url`. */
  publicBaseUrl: string;
  /** The local telephony that stands in for Twilio when none of TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM_NUMBER is set. */
  localTelephony?: LocalTelephony;
  /** The local CRM that stands in for HubSpot when HUBSPOT_API_BASE_URL is not set. */
  localCrm?: LocalCrm;
  /** Starts the queue pollers when the runtime was started with `workers: false`; does nothing once they run. */
  startWorkers(): Promise<void>;
  /**
   * Runs a scheduled function (`commandJanitor`, `followUpDispatcher`) now, after a run in progress, and resolves when it is done
   * (rejects with its error): with or without its timer (`scheduleEveryMs: 0`).
   */
  runScheduled(functionId: ScheduledFunctionId): Promise<void>;
  /** Stops taking requests and jobs, gives jobs in hand a grace to finish (then abandons them), then stops the embedded services. */
  stop(options?: StopOptions): Promise<void>;
  /** Resolves once the jobs a stop abandoned have ended too (their handlers run on after it, as in a process that is not exiting). */
  abandonedJobsEnded(): Promise<void>;
}

/**
 * Runs all of Switchboard in this process: embedded DynamoDB and SQS, the
 * HTTP gateway in front of the API handler modules, and one poller per worker
 * queue, all from the service catalogue (shared/catalogue/). The handler
 * modules are the very ones Lambda runs, composed with this runtime's
 * settings (the process environment is read, never changed).
 */
export async function startLocalRuntime(options: LocalRuntimeOptions = {}): Promise<LocalRuntime> {
  const host = options.host ?? '127.0.0.1';
  const clock = options.clock ?? systemClock;
  const onError =
    options.onError ??
    ((error: unknown) => process.stderr.write(`local runtime: ${error instanceof Error ? error.message : String(error)}\n`));
  const starting = startEmbeddedAws({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.visibilityTimeoutSeconds ? { visibilityTimeoutSeconds: options.visibilityTimeoutSeconds } : {}),
    ...(options.onAwsRequest ? { onRequest: options.onAwsRequest } : {}),
    ...(options.embeddedThread ? { thread: true } : {}),
  });
  // Functions composed at start: their modules load meanwhile (one after another, as compositions do), so a servers' thread
  // booting on another core costs the start nothing. Composing needs the servers' endpoints; loading does not.
  const loaded =
    options.compose === 'start'
      ? FUNCTIONS.reduce<Promise<unknown>>((chain, fn) => chain.then(() => importFunctionModule(fn.entry)), Promise.resolve())
      : undefined;
  const [aws] = await Promise.all([starting, loaded]).catch(async (error: unknown) => {
    // A module that failed to load stops the servers that did start (a thread of theirs would keep the process alive).
    await starting.then((started) => started.stop()).catch(() => undefined);
    throw error;
  });

  const baseSettings: Settings = {
    ...process.env,
    AWS_REGION: aws.region,
    AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID ?? 'local',
    AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY ?? 'local',
    ...embeddedServiceSettings(aws),
    ...(options.leaseSeconds ? { WORKER_LEASE_SECONDS: String(options.leaseSeconds) } : {}),
    // No CloudWatch here: metric lines would only clutter the console.
    POWERTOOLS_METRICS_DISABLED: process.env.POWERTOOLS_METRICS_DISABLED ?? 'true',
    // On one machine the offline writer stands in for a model without a key (and says so in every result).
    ALLOW_OFFLINE_PROVIDERS: process.env.ALLOW_OFFLINE_PROVIDERS ?? 'true',
    // On one machine a webhook receiver is a local process: http:// and https:// on loopback are allowed (never in AWS).
    WEBHOOK_ALLOW_LOOPBACK: process.env.WEBHOOK_ALLOW_LOOPBACK ?? 'true',
    // The key the CRM connections are sealed with (a generated secret in AWS): kept in DATA_DIR, or made for this run.
    CRM_ENCRYPTION_KEY: process.env.CRM_ENCRYPTION_KEY?.trim() || (await localCrmKey(options.dataDir)),
    ...options.settings,
  };

  const db = documentClientOf(baseSettings);
  const siteIds = new Set<string>();
  const files: (string | URL)[] = [...(options.demoData === false ? [] : [DEMO_DATA_FILE]), ...(options.dataFiles ?? [])];
  for (const file of files) {
    for (const id of (await importFile(db, aws.tableName, file)).siteIds) siteIds.add(id);
  }
  const apiKey = options.apiKey ?? generateApiKey();
  const [main] = await registerKeys(db, aws.tableName, [
    { key: apiKey, siteIds: [...siteIds], tenantId: 'local', label: 'API_KEY' },
    ...Object.entries(options.apiKeys ?? {}).map(([key, entry]) => ({
      key,
      siteIds: Array.isArray(entry) ? entry : entry.sites,
      ...(!Array.isArray(entry) && entry.limits ? { limits: entry.limits } : {}),
      label: 'API_KEYS',
    })),
  ]);

  // The gateway listens before the functions are composed, so PUBLIC_BASE_URL can default to its address (PORT=0 included);
  // a request that comes in meanwhile waits for its function.
  let settingsReady: (settings: Settings) => void = () => undefined;
  const composedSettings = new Promise<Settings>((resolve) => (settingsReady = resolve));
  const modules = new Map<FunctionId, Promise<unknown>>();
  let compositions: Promise<unknown> = Promise.resolve();
  /** The function's handler, composed once (on first use, or at start with `compose: 'start'`). */
  const composedHandler = (id: FunctionId): Promise<unknown> => {
    let module = modules.get(id);
    if (!module) {
      // One composition at a time: module graphs overlap, and jest's ESM loader fails imports of a graph being linked
      // by another ("request for … is not in cache").
      module = compositions = compositions
        .catch(() => undefined)
        .then(() => composedSettings)
        .then((settings) => composeFunction(functionById(id), settings, { relayConnections: relay.connections, clock }));
      // A failed init is tried again on the next use, as Lambda does.
      module.catch(() => modules.delete(id));
      modules.set(id, module);
    }
    return module;
  };
  /**
   * Invokes a function as Lambda does: its init (module load and composition) first, then the handler with a context whose
   * deadline starts after it, so a cold start never eats into the invocation's timeout.
   */
  const invoker =
    <Event, Result>(id: FunctionId, timeoutSeconds: number) =>
    async (event: Event, _context: Context): Promise<Result> => {
      const handler = (await composedHandler(id)) as (event: Event, context: Context) => Promise<Result>;
      return handler(event, lambdaContext(id, timeoutSeconds));
    };
  const handlerOf = (id: FunctionId): HttpHandler => invoker(id, functionById(id).timeoutSeconds);
  const routes: GatewayRoute[] = ROUTES.map((route) => {
    const fn = functionById(route.function);
    return { method: route.method, path: route.path, functionName: fn.id, timeoutSeconds: fn.timeoutSeconds, handler: handlerOf(fn.id) };
  });
  const fallbackFn = functionById(DEFAULT_ROUTE_FUNCTION);
  // The local telephony's control paths (for `npm run call:local`) and the local CRM's views, once they run.
  let localControl: ((req: IncomingMessage, res: ServerResponse) => boolean) | undefined;
  let crmControl: ((req: IncomingMessage, res: ServerResponse) => boolean) | undefined;
  const gateway = createGateway(
    routes,
    { functionName: fallbackFn.id, timeoutSeconds: fallbackFn.timeoutSeconds, handler: handlerOf(fallbackFn.id) },
    { log: requestLogFromEnv(baseSettings), local: (req, res) => (localControl?.(req, res) ?? false) || (crmControl?.(req, res) ?? false) },
  );
  await listen(gateway, options.port ?? 3000, host);
  const url = `http://${host}:${(gateway.address() as AddressInfo).port}`;

  const publicBaseUrl = baseSettings.PUBLIC_BASE_URL?.trim() || url;
  // The ConversationRelay socket: API Gateway's WebSocket API in AWS, the gateway's upgrades here, at the path of
  // relayUrlOf(PUBLIC_BASE_URL).
  const relayFn = functionById(RELAY_FUNCTION);
  const relay: LocalRelay = attachRelaySocket(gateway, {
    path: new URL(relayUrlOf(publicBaseUrl)).pathname,
    functionName: relayFn.id,
    timeoutSeconds: relayFn.timeoutSeconds,
    handler: invoker<SocketEvent, SocketResult>(relayFn.id, relayFn.timeoutSeconds),
    onError,
  });
  let localTelephony: LocalTelephony | undefined;
  let localCrm: LocalCrm | undefined;
  try {
    localTelephony = usesLocalTelephony(baseSettings)
      ? await startLocalTelephony({
          publicBaseUrl,
          ...(options.localRingTimeoutMs ? { ringTimeoutMs: options.localRingTimeoutMs } : {}),
          onError: (error) => onError(error),
        })
      : undefined;
    localCrm = usesLocalCrm(baseSettings) ? await startLocalCrm(options.dataDir ? { dataDir: options.dataDir } : {}) : undefined;
    const settings: Settings = {
      ...baseSettings,
      PUBLIC_BASE_URL: publicBaseUrl,
      ...localTelephony?.settings,
      ...localCrm?.settings,
      WEBHOOK_RESERVED_PORTS: reservedPorts(baseSettings.WEBHOOK_RESERVED_PORTS, [
        url,
        aws.dynamodbEndpoint,
        aws.sqsEndpoint,
        localTelephony?.baseUrl,
        localCrm?.baseUrl,
      ]),
    };
    settingsReady(settings);
    if (options.compose === 'start') for (const fn of FUNCTIONS) await composedHandler(fn.id);
    if (localTelephony) {
      const socketBase = url.replace(/^http/, 'ws');
      localControl = localTelephonyControl(localTelephony, {
        connectUrlOf: (relayUrl) => `${socketBase}${new URL(relayUrl).pathname}${new URL(relayUrl).search}`,
      });
    }
    if (localCrm) crmControl = localCrmControl(localCrm);
  } catch (error) {
    gateway.closeAllConnections();
    gateway.close();
    await relay.close(0);
    await localTelephony?.stop();
    await localCrm?.stop();
    await aws.stop();
    throw error;
  }

  if (options.dataDir) {
    const urls = {
      queues: Object.fromEntries(QUEUES.map((queue) => [queue.id, aws.queues[queue.id].url])),
      deadLetterQueues: Object.fromEntries(QUEUES.map((queue) => [queue.id, aws.queues[queue.id].dlqUrl])),
    };
    await requeueUnfinishedCommands(dynamoCommandStore(db, aws.tableName), sqsJobQueue(aws.sqs, urls), clock);
    await handOnPendingEvents(db, aws.tableName, sqsJobQueue(aws.sqs, urls), clock);
    await requeuePendingDeliveries(db, aws.tableName, sqsJobQueue(aws.sqs, urls));
  }

  const pollers: Poller[] = [];
  let stopped = false;
  const startWorkers = async () => {
    if (pollers.length > 0 || stopped) return;
    for (const queue of QUEUES) {
      const fn = functionById(queue.workerFunction);
      const { Attributes } = await aws.sqs.send(
        new GetQueueAttributesCommand({ QueueUrl: aws.queues[queue.id].url, AttributeNames: ['QueueArn'] }),
      );
      pollers.push(
        startPoller({
          name: queue.id,
          sqs: aws.sqs,
          queueUrl: aws.queues[queue.id].url,
          queueArn: Attributes?.QueueArn ?? queue.localName,
          region: aws.region,
          functionName: fn.id,
          timeoutSeconds: fn.timeoutSeconds,
          batchSize: queue.batchSize,
          concurrency: options.workerConcurrency ?? 2,
          handler: invoker<SQSEvent, SQSBatchResponse | void>(fn.id, fn.timeoutSeconds),
          onError,
          activity: aws.activity,
        }),
      );
    }
  };
  if (options.workers !== false) await startWorkers();

  const schedules = new Map<string, LocalSchedule>();
  for (const fn of FUNCTIONS.filter((candidate) => candidate.kind === 'scheduled')) {
    schedules.set(
      fn.id,
      startSchedule({
        functionName: fn.id,
        timeoutSeconds: fn.timeoutSeconds,
        everyMs: Math.max(0, options.scheduleEveryMs ?? localIntervalMs(fn, baseSettings)),
        handler: invoker<ScheduledEvent, unknown>(fn.id, fn.timeoutSeconds),
        onError,
        clock,
      }),
    );
  }

  return {
    url,
    apiKey,
    tenantId: main!.tenantId,
    siteIds: [...siteIds],
    dynamodbEndpoint: aws.dynamodbEndpoint,
    sqsEndpoint: aws.sqsEndpoint,
    tableName: aws.tableName,
    queues: aws.queues,
    publicBaseUrl,
    ...(localTelephony ? { localTelephony } : {}),
    ...(localCrm ? { localCrm } : {}),
    startWorkers,
    async runScheduled(functionId) {
      const schedule = schedules.get(functionId);
      if (!schedule) throw new Error(`${functionId} is not a scheduled function`);
      await schedule.runNow();
    },
    async abandonedJobsEnded() {
      await Promise.all(pollers.map((poller) => poller.settled()));
    },
    async stop(stopOptions) {
      if (stopped) return;
      stopped = true;
      // Open calls end first: their `$disconnect` queues their summaries while storage and queues still run.
      await relay.close(stopOptions?.graceMs ?? DEFAULT_STOP_GRACE_MS);
      await drain({ gateway, pollers, schedules: [...schedules.values()] }, stopOptions);
      await localTelephony?.stop();
      await localCrm?.stop();
      db.destroy();
      await aws.stop();
    },
  };
}

/** How often a scheduled function runs here: its `localSchedule` setting (whole seconds), else every `scheduleMinutes`. */
export function localIntervalMs(fn: Pick<FunctionDefinition, 'scheduleMinutes' | 'localSchedule'>, settings: Settings): number {
  if (!fn.localSchedule) return (fn.scheduleMinutes ?? 5) * 60_000;
  const { setting, defaultSeconds } = fn.localSchedule;
  const values = readConfig(
    { [setting]: z.coerce.number().int('must be a whole number of seconds').min(1).max(86_400).optional() },
    settings,
  );
  return (values[setting] ?? defaultSeconds) * 1000;
}

/**
 * The local telephony stands in for Twilio only when none of its settings is
 * given: with some of them set, Twilio is meant, and the missing one shows.
 */
function usesLocalTelephony(settings: Settings): boolean {
  return ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM_NUMBER'].every((name) => !settings[name]?.trim());
}

/**
 * The local CRM stands in for HubSpot when HUBSPOT_API_BASE_URL is not set:
 * the tenants' connections then point at it (a tenant's token is never a
 * setting, so this one setting decides).
 */
function usesLocalCrm(settings: Settings): boolean {
  return !settings.HUBSPOT_API_BASE_URL?.trim();
}

/**
 * Composes a function from its entry module, as Lambda does at cold start,
 * but with this runtime's settings passed in: each entry exports
 * `build(settings)` beside its Lambda `handler`. Modules are imported once
 * per process; each runtime composes its own instances.
 */
async function composeFunction(fn: FunctionDefinition, settings: Settings, host: HostPorts & RelayTransport): Promise<unknown> {
  const module = (await importFunctionModule(fn.entry)) as {
    build?: (settings: Settings, host: HostPorts & RelayTransport) => unknown;
  };
  if (typeof module.build !== 'function') throw new Error(`${fn.entry} does not export build(settings)`);
  // The second argument: this runtime's clock, and for the socket function the sockets it answers through here (its `@connections`
  // in AWS).
  return module.build(settings, host);
}

/**
 * WEBHOOK_RESERVED_PORTS for the functions: every port this runtime listens
 * on (the gateway, which also carries the relay socket; the embedded
 * DynamoDB and SQS; the local telephony and CRM), after any the setting already
 * lists, so a webhook endpoint on loopback can reach none of them.
 */
function reservedPorts(listed: string | undefined, servers: readonly (string | undefined)[]): string {
  const own = servers.flatMap((server) => (server ? [String(portOf(new URL(server)))] : []));
  return [...(listed?.trim() ? [listed.trim()] : []), ...own].join(',');
}

/** The function behind the ConversationRelay socket. */
const RELAY_FUNCTION = 'conversationRelayWebhook';

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
