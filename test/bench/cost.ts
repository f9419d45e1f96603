import type { IncomingMessage } from 'node:http';
import { GetCommand, ScanCommand, type DynamoDBDocumentClient, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { startLocalRuntime } from '../../infra/local/runtime';
import { functionById } from '../../shared/catalogue/functions';
import { QUEUES } from '../../shared/catalogue/job-types';
import { createSqsClient } from '../../shared/platform/sqs';
import { BENCH_HEADER, tagged, untilQueuesEmpty } from './backlog';
import {
  deepResearchBacklog,
  leadFollowUpBacklog,
  PROVIDER_LATENCY,
  type Backlog,
  type CallTraffic,
  type ProviderRequests,
} from './cost-backlogs';
import { stakeholderCallBacklog } from './cost-call-backlog';
import { crmImportBacklog } from './cost-crm-backlog';
import { commandKey } from '../../shared/commands/store';
import { itemSize } from '../../shared/platform/item-size';
import { createDocumentClient } from '../../shared/platform/dynamodb';
import { CapacityMeter } from './capacity';
import { FULL_VCPU_MB, LAMBDA_PRICE_PER_GB_SECOND, vcpuShare } from './sizing-rule';
import { markdownTable } from './table';
import { tapBody } from '../../infra/local/tap-body';

/**
 * Bench part `cost`: what a million commands of each kind cost in AWS,
 * provider fees (model, search, Twilio) excluded. A backlog of each kind (lead
 * follow-ups with channel messages, with their copywriter phase; with a
 * follow-up sequence; deep research with content analysis: cost-backlogs.ts;
 * stakeholder calls, each answered on the local telephony and talked through
 * for BENCH_COST_CALL_TURNS turns: cost-call-backlog.ts; HubSpot imports of
 * BENCH_COST_IMPORT_CONTACTS contacts: cost-crm-backlog.ts) is accepted
 * through the HTTP API and worked off by the local workers;
 * every call to the embedded DynamoDB and SQS is counted (the accept path's
 * too), and the capacity DynamoDB on-demand bills for it is reckoned from
 * each item's size before and after each write (test/bench/capacity.ts).
 * Lambda time is the process's CPU time scaled to each function's memory
 * share of a vCPU, plus the stated time each storage call and each provider
 * call keeps a function waiting. BENCH_COST_COMMANDS sets the backlog (100
 * of each kind), BENCH_COST_KINDS picks kinds by name.
 */
const COMMANDS = Number(process.env.BENCH_COST_COMMANDS ?? 100);
/** Turns of each stakeholder call (the stakeholder speaks, the assistant answers). */
const CALL_TURNS = Number(process.env.BENCH_COST_CALL_TURNS ?? 10);
/** Contacts of the HubSpot portal each CRM import reads. */
const IMPORT_CONTACTS = Number(process.env.BENCH_COST_IMPORT_CONTACTS ?? 25);
const GOAL_PER_MILLION = 50;
const DEADLINE_MS = 10 * 60_000;

/** us-east-1 list prices (USD), November 2026; Lambda on arm64, as deployed. */
const PRICE = {
  httpApiRequest: 1.0 / 1e6,
  /** WebSocket API: messages (in and out, 32 KB each) and connection minutes. */
  socketMessage: 1.0 / 1e6,
  socketMinute: 0.25 / 1e6,
  lambdaRequest: 0.2 / 1e6,
  lambdaGbSecond: LAMBDA_PRICE_PER_GB_SECOND,
  dynamoWriteUnit: 0.625 / 1e6,
  dynamoReadUnit: 0.125 / 1e6,
  dynamoGbMonth: 0.25,
  sqsRequest: 0.4 / 1e6,
  logsGb: 0.5,
  xrayTrace: 5.0 / 1e6,
};

/** The stated latencies and assumptions every figure rests on. */
const ASSUMED = {
  dynamodbCallMs: 5,
  sqsCallMs: 10,
  /** Log bytes per invocation: START/END/REPORT and a few INFO lines. */
  logBytesPerInvocation: 1_200,
  /** X-Ray's default sampling keeps about 5% of invocations once past 1 a second. */
  tracedShare: 0.05,
  /** Items are kept for COMMAND_RETENTION_DAYS (90): three months of storage; DynamoDB adds 100 bytes per item. */
  storageMonths: 3,
  itemOverheadBytes: 100,
  /** How long after its POST a command finishes, for `Prefer: wait`: its provider waits and a queue hop a job. */
  queueHopMs: 100,
};

interface Counted {
  commands: number;
  /** Requests the providers' fakes received, by provider. */
  providerRequests: ProviderRequests;
  /** Calls by `service:operation`, accept path and workers apart. */
  acceptCalls: Map<string, number>;
  workerCalls: Map<string, number>;
  /** Jobs sent, by queue name. */
  jobsByQueue: Map<string, number>;
  acceptCpuMs: number;
  workerCpuMs: number;
  writeUnits: number;
  readUnits: number;
  writeUnitsByKind: Map<string, number>;
  /** Sizes read back after a later write of the same item came in, by kind of item (test/bench/capacity.ts). */
  raced: ReadonlyMap<string, number>;
  storedBytes: number;
  /** A call's webhooks and relay socket, for the kinds that place calls. */
  callTraffic?: CallTraffic;
}

/**
 * What one pass counts: `calls` (calls, jobs and CPU time) or `capacity` (capacity units, whose meter reads each
 * item back after each write, CPU that the other pass must not see).
 */
type Pass = 'calls' | 'capacity';

/** Counts calls and jobs, apart for the accept path and the workers. */
class CallTally {
  phase: 'accept' | 'workers' = 'accept';
  readonly acceptCalls = new Map<string, number>();
  readonly workerCalls = new Map<string, number>();
  readonly jobsByQueue = new Map<string, number>();

  observe = (service: 'dynamodb' | 'sqs', operation: string, request: IncomingMessage): void => {
    if (request.headers[BENCH_HEADER]) return;
    const calls = this.phase === 'accept' ? this.acceptCalls : this.workerCalls;
    calls.set(`${service}:${operation}`, (calls.get(`${service}:${operation}`) ?? 0) + 1);
    if (service !== 'sqs' || (operation !== 'SendMessage' && operation !== 'SendMessageBatch')) return;
    tapBody(request, (text) => {
      const body = JSON.parse(text) as { QueueUrl: string; Entries?: unknown[] };
      const queue = body.QueueUrl.split('/').pop()!;
      this.jobsByQueue.set(queue, (this.jobsByQueue.get(queue) ?? 0) + (body.Entries?.length ?? 1));
    });
  };
}

const isBench = (request: IncomingMessage) => Boolean(request.headers[BENCH_HEADER]);

/** Both passes over a backlog, each on a runtime of its own. */
async function count(backlog: Backlog): Promise<Counted> {
  const calls = await countPass(backlog, 'calls');
  const capacity = await countPass(backlog, 'capacity');
  return {
    ...calls,
    writeUnits: capacity.writeUnits,
    readUnits: capacity.readUnits,
    writeUnitsByKind: capacity.writeUnitsByKind,
    raced: capacity.raced,
  };
}

async function countPass(backlog: Backlog, pass: Pass): Promise<Counted> {
  const tally = new CallTally();
  const meter = new CapacityMeter(isBench);
  // Nothing is counted until the backlog's preparation is done.
  let counting = false;
  const runtime = await startLocalRuntime({
    compose: 'start',
    port: 0,
    workers: false,
    scheduleEveryMs: 0,
    onAwsRequest: (service, operation, request, call) => {
      if (!counting) return;
      if (pass === 'calls') tally.observe(service, operation, request);
      else meter.observe(service, operation, request, call);
    },
    settings: { LOG_LEVEL: 'ERROR', ...backlog.settings() },
  });
  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  // A client per scan: one left idle through the drain would send on a socket the embedded server has closed.
  const scanClient = () => {
    const client = createDocumentClient({ endpoint: runtime.dynamodbEndpoint, region: 'us-east-1', credentials });
    client.middlewareStack.add((next) => (args) => next(tagged(args)), { step: 'build', name: 'benchTag' });
    return client;
  };
  const sqs = createSqsClient({ endpoint: runtime.sqsEndpoint, region: 'us-east-1', credentials });
  sqs.middlewareStack.add((next) => (args) => next(tagged(args)), { step: 'build', name: 'benchTag' });
  try {
    await backlog.prepare?.(runtime);
    counting = true;
    const before = await tableSizes(scanClient(), runtime.tableName);
    const providersBefore = backlog.providerRequests();
    let cpu = process.cpuUsage();
    await backlog.enqueue(runtime, COMMANDS);
    const acceptCpu = process.cpuUsage(cpu);
    tally.phase = 'workers';
    cpu = process.cpuUsage();
    const started = performance.now();
    await runtime.startWorkers();
    if (backlog.converse) {
      const reader = scanClient();
      try {
        await backlog.converse(runtime, async (id) => {
          const { Item } = await reader.send(new GetCommand({ TableName: runtime.tableName, Key: commandKey(id), ConsistentRead: true }));
          return Item;
        });
      } finally {
        reader.destroy();
      }
    }
    await untilQueuesEmpty(runtime, sqs, started, DEADLINE_MS);
    const workerCpu = process.cpuUsage(cpu);
    const after = await tableSizes(scanClient(), runtime.tableName);
    const { writeUnits, readUnits, writeUnitsByKind } = await meter.units();
    let storedBytes = 0;
    for (const [key, size] of after) if (!before.has(key)) storedBytes += size + ASSUMED.itemOverheadBytes;
    const providersAfter = backlog.providerRequests();
    return {
      commands: COMMANDS,
      providerRequests: Object.fromEntries(
        Object.entries(providersAfter).map(([provider, requests]) => [provider, requests - (providersBefore[provider] ?? 0)]),
      ),
      acceptCalls: tally.acceptCalls,
      workerCalls: tally.workerCalls,
      jobsByQueue: tally.jobsByQueue,
      acceptCpuMs: (acceptCpu.user + acceptCpu.system) / 1000,
      workerCpuMs: (workerCpu.user + workerCpu.system) / 1000,
      writeUnits,
      readUnits,
      writeUnitsByKind,
      raced: meter.raced,
      storedBytes,
      ...(backlog.callTraffic ? { callTraffic: { ...backlog.callTraffic() } } : {}),
    };
  } finally {
    sqs.destroy();
    await runtime.stop();
  }
}

/** Every item's size, by `pk|sk` (and the client closed). */
async function tableSizes(db: DynamoDBDocumentClient, tableName: string): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  let start: ScanCommandOutput['LastEvaluatedKey'];
  try {
    do {
      const page = await db.send(new ScanCommand({ TableName: tableName, ...(start ? { ExclusiveStartKey: start } : {}) }));
      for (const item of page.Items ?? []) sizes.set(`${String(item.pk)}|${String(item.sk)}`, itemSize(item));
      start = page.LastEvaluatedKey;
    } while (start);
  } finally {
    db.destroy();
  }
  return sizes;
}

const sum = (calls: Map<string, number>, service: string) =>
  [...calls].filter(([name]) => name.startsWith(`${service}:`)).reduce((total, [, value]) => total + value, 0);

/** Seconds of Lambda billed for `cpuMs` of work on a full core plus `waitMs` of waiting, at `memoryMb`. */
function gbSeconds(memoryMb: number, cpuMs: number, waitMs: number): number {
  const cpuShare = vcpuShare(memoryMb);
  return (memoryMb / 1024) * ((cpuMs / cpuShare + waitMs) / 1000);
}

interface Scenario {
  name: string;
  /** Jobs per worker invocation (their waits overlap: Powertools runs a batch's records in parallel). */
  batch: 'full' | 1;
  preferWait: boolean;
}

/** Dollars per million commands of a backlog, by line, for one scenario. */
function costOf(backlog: Backlog, counted: Counted, scenario: Scenario): Record<string, number> {
  const per = (value: number) => value / counted.commands;
  const accept = functionById(backlog.acceptFunction);
  const jobs = [...counted.jobsByQueue].map(([name, sent]) => {
    const queue = QUEUES.find((candidate) => candidate.localName === name);
    if (!queue) throw new Error(`No queue named ${name}`);
    const batch = scenario.batch === 'full' ? queue.batchSize : 1;
    return { queue, perLead: per(sent), batch, memoryMb: functionById(queue.workerFunction).memoryMb };
  });
  const allJobs = jobs.reduce((total, job) => total + job.perLead, 0);
  // Provider requests are counted per command: spread over the jobs of the queue whose worker makes them.
  const perJobOf = (jobsPerCommand: number) =>
    Object.fromEntries(Object.entries(counted.providerRequests).map(([name, requests]) => [name, per(requests) / jobsPerCommand]));
  const workerInvocations = jobs.reduce((total, job) => total + job.perLead / job.batch, 0);

  // The accept path: its CPU, and each storage call waited for.
  const acceptWaitMs =
    per(sum(counted.acceptCalls, 'dynamodb')) * ASSUMED.dynamodbCallMs + per(sum(counted.acceptCalls, 'sqs')) * ASSUMED.sqsCallMs;
  // Workers: the provider waits of each job (overlapping within a batch), the storage calls and the CPU shared out over all jobs.
  const workerStorageMs =
    per(sum(counted.workerCalls, 'dynamodb')) * ASSUMED.dynamodbCallMs + per(sum(counted.workerCalls, 'sqs')) * ASSUMED.sqsCallMs;
  let workerGbSeconds = 0;
  for (const job of jobs) {
    const share = job.perLead / allJobs;
    const model = backlog.providerWaitMs(job.queue.id, perJobOf(job.perLead));
    workerGbSeconds +=
      job.perLead *
      gbSeconds(
        job.memoryMb,
        per(counted.workerCpuMs) * (share / job.perLead),
        model / job.batch + (workerStorageMs * share) / job.perLead,
      );
  }
  // Prefer: wait keeps the accept function until the command ends (the jobs it waits through): their provider waits, a queue hop
  // per job, and its polls.
  const waited = jobs.filter((job) => !backlog.waitsFor || backlog.waitsFor.includes(job.queue.id));
  const waitedProviderMs = waited.reduce(
    (total, job) => total + backlog.providerWaitMs(job.queue.id, perJobOf(job.perLead)) * job.perLead,
    0,
  );
  const waitedJobs = waited.reduce((total, job) => total + job.perLead, 0);
  const waitMs = scenario.preferWait ? waitedProviderMs + waitedJobs * ASSUMED.queueHopMs : 0;
  const polls = scenario.preferWait ? pollsWithin(waitMs) : 0;
  const acceptGbSeconds = gbSeconds(accept.memoryMb, per(counted.acceptCpuMs), acceptWaitMs + waitMs + polls * ASSUMED.dynamodbCallMs);

  // A call: Twilio's webhooks through the HTTP API, the relay socket's messages and minutes, and the relay's invocations, each
  // reply held for the voice model's stream (their storage calls and CPU are in the workers' figures above).
  const call = counted.callTraffic;
  const webhookRequests = call ? per(call.webhookRequests) : 0;
  const callInvocations = call ? per(call.webhookRequests + call.relayInvocations) : 0;
  const relayGbSeconds = call
    ? per(call.replies) * gbSeconds(functionById('conversationRelayWebhook').memoryMb, 0, PROVIDER_LATENCY.voiceReply)
    : 0;
  const invocations = 1 + workerInvocations + callInvocations;
  const sqsRequests =
    per(
      sum(counted.acceptCalls, 'sqs') +
        (counted.workerCalls.get('sqs:SendMessage') ?? 0) +
        (counted.workerCalls.get('sqs:SendMessageBatch') ?? 0),
    ) +
    2 * workerInvocations;
  const million = 1e6;
  return {
    'API Gateway': million * (1 + webhookRequests) * PRICE.httpApiRequest,
    'API Gateway, relay socket': call
      ? million *
        (per(call.relayMessagesIn + call.relayMessagesOut) * PRICE.socketMessage + per(call.connectionMinutes) * PRICE.socketMinute)
      : 0,
    'Lambda requests': million * invocations * PRICE.lambdaRequest,
    'Lambda time (accept)': million * acceptGbSeconds * PRICE.lambdaGbSecond,
    'Lambda time (workers)': million * workerGbSeconds * PRICE.lambdaGbSecond,
    'Lambda time (relay replies)': million * relayGbSeconds * PRICE.lambdaGbSecond,
    'DynamoDB writes': million * per(counted.writeUnits) * PRICE.dynamoWriteUnit,
    'DynamoDB reads': million * (per(counted.readUnits) + polls) * PRICE.dynamoReadUnit,
    'DynamoDB storage': ((million * per(counted.storedBytes)) / 1024 ** 3) * ASSUMED.storageMonths * PRICE.dynamoGbMonth,
    SQS: million * sqsRequests * PRICE.sqsRequest,
    'CloudWatch Logs': ((million * invocations * ASSUMED.logBytesPerInvocation) / 1024 ** 3) * PRICE.logsGb,
    'X-Ray': million * invocations * ASSUMED.tracedShare * PRICE.xrayTrace,
  };
}

/**
 * The status reads of a `Prefer: wait` that lasts `ms` (shared/commands/wait.ts: 25 ms doubling to 250, then an eighth of
 * the wait, at most 1 s).
 */
function pollsWithin(ms: number): number {
  let waited = 0;
  let pause = 25;
  let polls = 1;
  while (waited < ms) {
    waited += pause;
    pause = Math.min(Math.max(pause * 2 > 250 ? 250 : pause * 2, Math.floor(waited / 8)), 1_000);
    polls += 1;
  }
  return polls + 1;
}

const SCENARIOS: Scenario[] = [
  { name: 'full batches', batch: 'full', preferWait: false },
  { name: 'one job per invocation', batch: 1, preferWait: false },
  { name: 'Prefer: wait, full batches', batch: 'full', preferWait: true },
];

process.env.LOG_LEVEL = 'ERROR';
/** BENCH_COST_KINDS (comma-separated names, e.g. `stakeholder_call`) prices only those kinds. */
const KINDS = process.env.BENCH_COST_KINDS?.split(',').map((name) => name.trim());
const allBacklogs: Backlog[] = [
  leadFollowUpBacklog('channel_messages'),
  leadFollowUpBacklog('follow_up_sequence'),
  await deepResearchBacklog(),
  stakeholderCallBacklog(CALL_TURNS),
  await crmImportBacklog(IMPORT_CONTACTS),
];
const backlogs = allBacklogs.filter((backlog) => !KINDS || KINDS.includes(backlog.name));
const counts: [Backlog, Counted][] = [];
try {
  if (backlogs.length === 0) throw new Error(`BENCH_COST_KINDS names no kind (${KINDS?.join(', ')})`);
  for (const backlog of backlogs) counts.push([backlog, await count(backlog)]);
} finally {
  await Promise.all(allBacklogs.map((backlog) => backlog.close()));
}

const lines = Object.keys(costOf(...counts[0]!, SCENARIOS[0]!));
const columns = counts.flatMap(([backlog]) => SCENARIOS.map((scenario) => `${backlog.name}, ${scenario.name}`));
const costs = counts.flatMap(([backlog, counted]) => SCENARIOS.map((scenario) => costOf(backlog, counted, scenario)));
const totals = costs.map((cost) => Object.values(cost).reduce((total, value) => total + value, 0));
const perCommand = (counted: Counted, value: number) => (value / counted.commands).toFixed(2);
const messagesIndex = counts.findIndex(([backlog]) => backlog.name === 'channel_messages');
const messagesWithoutWait = messagesIndex < 0 ? undefined : totals[messagesIndex * SCENARIOS.length]!;
process.stdout.write(
  [
    `## Cost per million commands (us-east-1 list prices, arm64; model, search and Twilio fees excluded; ${COMMANDS} of each kind counted)`,
    '',
    "Counted per command, accept path and phases included (capacity units from each item's size before and after each write, test/bench/capacity.ts):",
    '',
    markdownTable(
      [
        'kind',
        'DynamoDB calls',
        'SQS calls',
        'jobs',
        'provider requests',
        'write units',
        'read units',
        'KiB stored',
        'CPU ms (accept + workers)',
      ],
      counts.map(([backlog, counted]) => [
        backlog.name,
        perCommand(counted, sum(counted.acceptCalls, 'dynamodb') + sum(counted.workerCalls, 'dynamodb')),
        perCommand(counted, sum(counted.acceptCalls, 'sqs') + sum(counted.workerCalls, 'sqs')),
        perCommand(
          counted,
          [...counted.jobsByQueue.values()].reduce((total, value) => total + value, 0),
        ),
        Object.entries(counted.providerRequests)
          .map(([provider, requests]) => `${provider} ${perCommand(counted, requests)}`)
          .join(', ') || 'offline writer',
        perCommand(counted, counted.writeUnits),
        perCommand(counted, counted.readUnits),
        (counted.storedBytes / counted.commands / 1024).toFixed(2),
        `${perCommand(counted, counted.acceptCpuMs)} + ${perCommand(counted, counted.workerCpuMs)}`,
      ]),
    ),
    '',
    ...counts.map(
      ([backlog, counted]) =>
        `Sizes read back after a later write of the same item had come in (${backlog.name}): ${
          counted.raced.size === 0 ? 'none' : [...counted.raced].map(([kind, reads]) => `${kind} ${reads}`).join(', ')
        } (the tenant's shared counters stay under a unit whichever size is read).`,
    ),
    ...counts.map(
      ([backlog, counted]) =>
        `Write units of a ${backlog.name} command by item kind: ${[...counted.writeUnitsByKind]
          .sort((a, b) => b[1] - a[1])
          .map(([kind, units]) => `${kind} ${perCommand(counted, units)}`)
          .join(', ')}.`,
    ),
    ...counts.flatMap(([backlog, counted]) => {
      const call = counted.callTraffic;
      if (!call) return [];
      return [
        `Per ${backlog.name}: ${perCommand(counted, call.replies)} replies, ${perCommand(counted, call.relayInvocations)} relay ` +
          `invocations, relay socket messages ${perCommand(counted, call.relayMessagesIn)} in and ` +
          `${perCommand(counted, call.relayMessagesOut)} out, ${perCommand(counted, call.connectionMinutes)} socket minutes, ` +
          `${perCommand(counted, call.webhookRequests)} Twilio webhook requests (status callbacks and the relay session's report).`,
      ];
    }),
    '',
    `Assumed: DynamoDB ${ASSUMED.dynamodbCallMs} ms and SQS ${ASSUMED.sqsCallMs} ms a call; ` +
      `${counts.map(([backlog]) => `${backlog.name}: ${backlog.assumptions}`).join('; ')}; ` +
      `${ASSUMED.logBytesPerInvocation} log bytes an invocation; ${ASSUMED.tracedShare * 100}% of invocations traced; ` +
      `${ASSUMED.storageMonths} months stored; CPU measured on this machine's full core (embedded DynamoDB and SQS included, an overstatement) ` +
      `scaled to each function's share of a vCPU (${FULL_VCPU_MB} MB = 1).`,
    '',
    markdownTable(
      ['$ per million', ...columns],
      [
        ...lines.map((line) => [line, ...costs.map((cost) => cost[line]!.toFixed(2))]),
        ['**total**', ...totals.map((total) => `**${total.toFixed(2)}**`)],
      ],
    ),
    '',
    messagesWithoutWait === undefined
      ? 'Cost goal: not judged (channel_messages was not priced in this run).'
      : `Cost goal (≤ $${GOAL_PER_MILLION} per million lead follow-ups with channel messages, without waiting, full batches): ${
          messagesWithoutWait <= GOAL_PER_MILLION ? 'met' : 'NOT met'
        } ($${messagesWithoutWait.toFixed(2)}).`,
    '',
    '',
  ].join('\n'),
);
