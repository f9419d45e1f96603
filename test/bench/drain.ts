import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { startLocalRuntime } from '../../infra/local/runtime';
import { dynamoCommandStore } from '../../shared/commands/dynamo-store';
import type { StoredCommand } from '../../shared/commands/record';
import { createDocumentClient } from '../../shared/platform/dynamodb';
import { createSqsClient } from '../../shared/platform/sqs';
import { BENCH_HEADER, enqueueLeadFollowUps, mapInLanes, tagged, untilQueuesEmpty, type Output } from './backlog';
import { markdownTable } from './table';
import { tapBody } from '../../infra/local/tap-body';

/**
 * Bench part `drain`: how fast the local runtime's workers (offline writer,
 * no OPENAI_API_KEY) work off a backlog of lead follow-ups, a third of them
 * sequences, queued through the HTTP API while the workers were off, with
 * the embedded servers on a thread of their own as under `npm start`; and
 * the storage calls each command makes, counted at the embedded servers
 * (smaller drains of one kind, with the servers on the main thread where
 * the counter can watch them).
 * Goal: at least 50 lead follow-ups completed per second on this machine.
 */
const BACKLOG = Number(process.env.BENCH_DRAIN_COMMANDS ?? 2000);
const SAMPLE = Number(process.env.BENCH_DRAIN_SAMPLE ?? 100);
const WORKER_CONCURRENCY = process.env.BENCH_WORKER_CONCURRENCY ? Number(process.env.BENCH_WORKER_CONCURRENCY) : undefined;
const GOAL_PER_SECOND = 50;
const DEADLINE_MS = 15 * 60_000;
const OPERATIONS = [
  'GetItem',
  'PutItem',
  'UpdateItem',
  'Query',
  'BatchWriteItem',
  'TransactWriteItems',
  'SendMessage',
  'ReceiveMessage',
  'DeleteMessageBatch',
] as const;

/** Calls to the embedded services by operation, and writes to each command record (parents and children apart). */
class CallCounter {
  readonly calls = new Map<string, number>();
  readonly writesByCommand = new Map<string, number>();
  readonly children = new Set<string>();
  private readonly readBodies: boolean;

  constructor(options: { readBodies: boolean }) {
    this.readBodies = options.readBodies;
  }

  observe = (service: 'dynamodb' | 'sqs', operation: string, request: IncomingMessage): void => {
    if (request.headers[BENCH_HEADER]) return;
    this.calls.set(operation, (this.calls.get(operation) ?? 0) + 1);
    if (!this.readBodies || service !== 'dynamodb' || !['PutItem', 'UpdateItem', 'TransactWriteItems'].includes(operation)) return;
    tapBody(request, (body) => this.recordWrite(operation, JSON.parse(body) as WriteBody));
  };

  private recordWrite(operation: string, body: WriteBody): void {
    if (operation === 'TransactWriteItems') {
      for (const action of body.TransactItems ?? []) {
        if (action.Put) this.recordWrite('PutItem', { Item: action.Put.Item });
        if (action.Update) this.recordWrite('UpdateItem', { Key: action.Update.Key });
      }
      return;
    }
    const pk = operation === 'PutItem' ? body.Item?.pk?.S : body.Key?.pk?.S;
    if (!pk?.startsWith('CMD#')) return;
    const id = pk.slice('CMD#'.length);
    if (operation === 'PutItem' && body.Item?.parent_id) this.children.add(id);
    this.writesByCommand.set(id, (this.writesByCommand.get(id) ?? 0) + 1);
  }

  /** Starts counting calls afresh; writes to command records are counted over their whole life (the create included). */
  resetCalls(): void {
    this.calls.clear();
  }
}

interface WriteBody {
  Item?: { pk?: { S?: string }; parent_id?: unknown };
  Key?: { pk?: { S?: string } };
  TransactItems?: { Put?: { Item: WriteBody['Item'] }; Update?: { Key: WriteBody['Key'] } }[];
}

interface DrainResult {
  leadFollowUps: number;
  children: number;
  seconds: number;
  /** Process CPU time over the drain, per lead follow-up. */
  cpuMsPerLeadFollowUp: number;
  /** The main thread's CPU time (the functions, pollers and gateway; the storage servers too when they share it), per lead follow-up. */
  mainThreadCpuMsPerLeadFollowUp?: number;
  /** Share of the drain the main thread's event loop was busy. */
  eventLoopUtilisation: number;
  calls: Map<string, number>;
  parentWrites?: number;
  childWrites?: number;
}

/** Queues `outputs` through the HTTP API (workers off), then starts the workers and waits until every command is terminal. */
async function drain(outputs: Output[], counter?: CallCounter): Promise<DrainResult> {
  const runtime = await startLocalRuntime({
    // Functions composed at start: the figures leave their init out.
    compose: 'start',
    port: 0,
    workers: false,
    scheduleEveryMs: 0,
    ...(WORKER_CONCURRENCY ? { workerConcurrency: WORKER_CONCURRENCY } : {}),
    // Counted calls need the servers on this thread; a drain that counts nothing runs them on their own, as `npm start` does.
    ...(counter ? { onAwsRequest: counter.observe } : { embeddedThread: true }),
    settings: { LOG_LEVEL: 'ERROR', OPENAI_API_KEY: undefined },
    onError: (error) => process.stderr.write(`drain: ${error instanceof Error ? error.message : String(error)}\n`),
  });
  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  const db = createDocumentClient({ endpoint: runtime.dynamodbEndpoint, region: 'us-east-1', credentials });
  const sqs = createSqsClient({ endpoint: runtime.sqsEndpoint, region: 'us-east-1', credentials });
  db.middlewareStack.add((next) => (args) => next(tagged(args)), { step: 'build', name: 'benchTag' });
  sqs.middlewareStack.add((next) => (args) => next(tagged(args)), { step: 'build', name: 'benchTag' });
  try {
    const ids = await enqueueLeadFollowUps(runtime, outputs);
    counter?.resetCalls();
    const started = performance.now();
    const cpu = process.cpuUsage();
    const threadCpu = threadCpuMs();
    const loop = performance.eventLoopUtilization();
    await runtime.startWorkers();
    await untilQueuesEmpty(runtime, sqs, started, DEADLINE_MS);
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const threadUsed = threadCpu === undefined ? undefined : threadCpuMs()! - threadCpu;
    const utilisation = performance.eventLoopUtilization(loop).utilization;
    const calls = new Map(counter?.calls);
    const store = dynamoCommandStore(db, runtime.tableName);
    const parents = await mapInLanes(ids, (id) => store.get(id));
    const childIds = parents.flatMap((parent) => parent?.child_ids ?? []);
    const children = await mapInLanes(childIds, (id) => store.get(id));
    checkAllCompleted(parents, ids.length, 'lead follow-up');
    checkAllCompleted(children, childIds.length, 'copywriter');
    const expectedChildren = outputs.filter((output) => output === 'channel_messages').length;
    if (childIds.length !== expectedChildren) throw new Error(`Expected ${expectedChildren} copywriter commands, found ${childIds.length}`);
    for (const queue of Object.values(runtime.queues)) {
      const dead = await sqs.send(
        new GetQueueAttributesCommand({ QueueUrl: queue.dlqUrl, AttributeNames: ['ApproximateNumberOfMessages'] }),
      );
      if (Number(dead.Attributes?.ApproximateNumberOfMessages ?? 0) > 0) throw new Error(`Jobs were dead-lettered on ${queue.dlqUrl}`);
    }
    const writes = [...(counter?.writesByCommand.entries() ?? [])];
    const childCommands = counter?.children ?? new Set<string>();
    return {
      leadFollowUps: ids.length,
      children: childIds.length,
      seconds,
      cpuMsPerLeadFollowUp: (used.user + used.system) / 1000 / ids.length,
      ...(threadUsed === undefined ? {} : { mainThreadCpuMsPerLeadFollowUp: threadUsed / ids.length }),
      eventLoopUtilisation: utilisation,
      calls,
      ...(writes.length > 0
        ? {
            parentWrites: writes.filter(([id]) => !childCommands.has(id)).reduce((sum, [, count]) => sum + count, 0),
            childWrites: writes.filter(([id]) => childCommands.has(id)).reduce((sum, [, count]) => sum + count, 0),
          }
        : {}),
    };
  } finally {
    db.destroy();
    sqs.destroy();
    await runtime.stop();
  }
}

/** CPU time of the calling thread so far, in ms (Linux: /proc/thread-self/stat at 100 ticks a second); undefined elsewhere. */
function threadCpuMs(): number | undefined {
  try {
    const fields = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of stat(5), 12 and 13 after the command name.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

function checkAllCompleted(commands: (StoredCommand | undefined)[], expected: number, what: string): void {
  const missing = commands.filter((command) => !command).length;
  const notCompleted = commands.filter((command) => command && command.status !== 'completed');
  if (commands.length !== expected || missing > 0 || notCompleted.length > 0) {
    throw new Error(
      `${what}: ${expected} expected, ${missing} lost, ${notCompleted.length} not completed (${JSON.stringify(notCompleted.slice(0, 3).map((command) => [command!.status, command!.error]))})`,
    );
  }
}

const mixed = (count: number): Output[] =>
  Array.from({ length: count }, (_, index) => (index % 3 === 2 ? 'follow_up_sequence' : 'channel_messages'));

process.env.LOG_LEVEL = 'ERROR';
const main = await drain(mixed(BACKLOG));
const perKind: [string, DrainResult][] = [];
for (const output of ['channel_messages', 'follow_up_sequence'] as const) {
  perKind.push([
    output,
    await drain(
      Array.from({ length: SAMPLE }, () => output),
      new CallCounter({ readBodies: true }),
    ),
  ]);
}

const rate = main.leadFollowUps / main.seconds;
const perCommand = (result: DrainResult, operation: string) => (result.calls.get(operation) ?? 0) / result.leadFollowUps;
/** The mixed backlog's calls per lead follow-up: ⅔ channel messages, ⅓ sequences, from the drains of one kind. */
const mixedPerCommand = (operation: string) => (2 * perCommand(perKind[0]![1], operation) + perCommand(perKind[1]![1], operation)) / 3;
process.stdout.write(
  [
    `## Drain (offline writer; ${main.leadFollowUps} lead follow-ups queued with the workers off, a third of them sequences; worker concurrency ${WORKER_CONCURRENCY ?? 'default'})`,
    '',
    'The embedded DynamoDB and SQS run on a thread of their own, as under `npm start`: the main thread runs the functions, the pollers and the gateway. Process CPU counts every thread (the servers, V8 and libuv helpers).',
    '',
    markdownTable(
      [
        'lead follow-ups',
        'copywriter commands',
        'seconds',
        'lead follow-ups/s',
        'all commands/s',
        'lost',
        'failed',
        'CPU ms per lead follow-up (process)',
        'of it on the main thread',
        'main event loop busy',
      ],
      [
        [
          String(main.leadFollowUps),
          String(main.children),
          main.seconds.toFixed(1),
          rate.toFixed(1),
          ((main.leadFollowUps + main.children) / main.seconds).toFixed(1),
          '0',
          '0',
          main.cpuMsPerLeadFollowUp.toFixed(1),
          main.mainThreadCpuMsPerLeadFollowUp?.toFixed(1) ?? 'n/a',
          `${(main.eventLoopUtilisation * 100).toFixed(0)}%`,
        ],
      ],
    ),
    '',
    `Storage calls per lead follow-up (its copywriter command included), counted at the embedded servers; the per-output rows come from drains of ${SAMPLE} of one kind:`,
    '',
    markdownTable(
      ['backlog', ...OPERATIONS, 'parent writes', 'child writes'],
      [
        ['mixed (⅓ sequences, from the rows below)', ...OPERATIONS.map((operation) => mixedPerCommand(operation).toFixed(2)), '', ''],
        ...perKind.map(([output, result]) => [
          output,
          ...OPERATIONS.map((operation) => perCommand(result, operation).toFixed(2)),
          ((result.parentWrites ?? 0) / result.leadFollowUps).toFixed(2),
          result.children ? ((result.childWrites ?? 0) / result.children).toFixed(2) : '–',
        ]),
      ],
    ),
    '',
    `Drain goal (≥ ${GOAL_PER_SECOND} lead follow-ups/s): ${rate >= GOAL_PER_SECOND ? 'met' : 'NOT met'}.`,
    '',
    '',
  ].join('\n'),
);
