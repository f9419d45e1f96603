import { DeleteMessageCommand, ReceiveMessageCommand, type Message } from '@aws-sdk/client-sqs';
import { Logger } from '@aws-lambda-powertools/logger';
import type { SQSRecord } from 'aws-lambda';
import { z } from 'zod';
import { dynamoIdempotencyStore } from '../../../shared/commands/idempotency';
import type { JobQueue } from '../../../shared/commands/queue';
import { sqsJobQueue } from '../../../shared/commands/sqs-queue';
import type { StoredCommand } from '../../../shared/commands/record';
import type { CommandStore } from '../../../shared/commands/store';
import { dynamoCommandStore } from '../../../shared/commands/dynamo-store';
import { processJobRecord, type JobDefinition, type WorkerDependencies } from '../../../shared/commands/worker';
import { systemClock } from '../../../shared/platform/clock';
import { newId } from '../../../shared/platform/ids';
import { commandEventAnnouncer } from '../../../shared/webhooks/command-events';
import { dynamoDeliveryStore } from '../../../shared/webhooks/delivery-store';
import { cachedEndpointLists } from '../../../shared/webhooks/endpoint-cache';
import { dynamoEndpointStore } from '../../../shared/webhooks/endpoint-store';
import { dynamoEventStore, eventKey } from '../../../shared/webhooks/event-store';
import { newEndpointId, newSigningSecret } from '../../../shared/webhooks/ids';
import { sweepPendingEvents } from '../../../shared/webhooks/outbox-sweep';
import { webhookEventPublisher, type WebhookEventPublisher } from '../../../shared/webhooks/publisher';
import { inMemoryTenants } from '../../unit/lead-follow-up/fixtures';
import { startEmbeddedServices, type EmbeddedServices } from '../../support/embedded';

/**
 * At least once, never twice: a command's event is written with its
 * terminal state (one transaction), so an ending never goes unannounced.
 * When handing the event to delivery fails (the webhook queue down, or the
 * process gone right after the write), the event stays pending and the
 * janitor's sweep hands it on: one event id, one delivery, however often
 * the job or the sweep comes back.
 */
const TENANT = 'acme';

let services: EmbeddedServices;
let commands: CommandStore;
let deps: WorkerDependencies;
let webhooksDown = 0;
let endpointId: string;
let publisher: WebhookEventPublisher;

const definition: JobDefinition<Record<string, unknown>, Record<string, unknown>> = {
  type: 'deep_research',
  kind: { type: 'deep_research', request: z.record(z.string(), z.unknown()), progress: z.record(z.string(), z.unknown()) },
  parseProducerRequest: (request) => request as Record<string, unknown>,
  siteIdOf: () => undefined,
  run: async () => ({ status: 'completed', result: { answer: 42 } }),
};

beforeAll(async () => {
  services = await startEmbeddedServices();
  const { db } = services;
  const table = services.aws.tableName;
  commands = dynamoCommandStore(db, table);
  const real = sqsJobQueue(services.aws.sqs, {
    queues: { research: services.aws.queues.research.url, webhooks: services.aws.queues.webhooks.url },
    deadLetterQueues: { research: services.aws.queues.research.dlqUrl },
  });
  // The webhook queue refuses the next `webhooksDown` sends, as SQS would during an outage.
  const queue: JobQueue = {
    ...real,
    send: async (id, job) => {
      if (id === 'webhooks' && webhooksDown > 0) {
        webhooksDown -= 1;
        throw new Error('SQS is unavailable');
      }
      await real.send(id, job);
    },
  };
  const events = (publisher = webhookEventPublisher({
    endpoints: dynamoEndpointStore(db, table),
    events: dynamoEventStore(db, table),
    deliveries: dynamoDeliveryStore(db, table),
    queue,
    clock: systemClock,
  }));
  deps = {
    commands,
    idempotency: dynamoIdempotencyStore(db, table),
    tenants: inMemoryTenants({ [TENANT]: [] }),
    queue,
    clock: systemClock,
    logger: new Logger({ serviceName: 'test', logLevel: 'SILENT' }),
    leaseMs: 60_000,
    maxReceiveCount: 5,
    retryDelaysSeconds: [0],
    announce: commandEventAnnouncer(events),
  };
  endpointId = newEndpointId();
  const at = new Date().toISOString();
  await dynamoEndpointStore(db, table).create({
    id: endpointId,
    tenant_id: TENANT,
    url: 'http://127.0.0.1:9/hooks',
    events: ['*'],
    secret: newSigningSecret(),
    created_at: at,
    updated_at: at,
  });
});
afterAll(() => services.stop());

async function newCommand(): Promise<StoredCommand> {
  const at = new Date().toISOString();
  const command: StoredCommand = {
    id: newId(),
    type: 'deep_research',
    status: 'in_progress',
    tenant_id: TENANT,
    request: { query: 'x' },
    created_at: at,
    updated_at: at,
    attempts: 0,
  };
  await commands.create(command);
  return command;
}

function record(body: string, attempt = 1): SQSRecord {
  return {
    messageId: newId(),
    receiptHandle: 'r',
    body,
    attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'test', ApproximateFirstReceiveTimestamp: '0' },
    messageAttributes: { attempt: { stringValue: String(attempt), dataType: 'Number', stringListValues: [], binaryListValues: [] } },
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:switchboard-research',
    awsRegion: 'us-east-1',
  };
}

/** Takes every message off a queue (short polls until one comes back empty). */
async function drain(url: string): Promise<Message[]> {
  const taken = new Map<string, Message>();
  for (let round = 0; round < 20; round++) {
    const { Messages = [] } = await services.aws.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, MessageAttributeNames: ['All'] }),
    );
    if (Messages.length === 0) break;
    for (const message of Messages) {
      taken.set(message.MessageId!, message);
      await services.aws.sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: message.ReceiptHandle! }));
    }
  }
  return [...taken.values()];
}

const sweep = () =>
  sweepPendingEvents(
    { events: dynamoEventStore(services.db, services.aws.tableName), publisher, clock: systemClock, logger: { warn: () => undefined } },
    { handOnAfterMs: 0, batchSize: 100 },
  );

describe('publishing a command event, at least once', () => {
  it('records the event with the terminal write; when its hand-on fails, the sweep hands it on, once', async () => {
    const command = await newCommand();
    const job = JSON.stringify({ version: 1, type: 'deep_research', tenant_id: TENANT, command_id: command.id });
    webhooksDown = 1;

    // The command completes with its event recorded; the delivery job cannot be queued, and the job is done all the same.
    await processJobRecord(definition, deps, record(job));
    expect((await commands.get(command.id))?.status).toBe('completed');
    expect(await drain(services.aws.queues.webhooks.url)).toEqual([]);
    expect(await drain(services.aws.queues.research.url)).toEqual([]);
    const events = dynamoEventStore(services.db, services.aws.tableName);
    const first = await events.get(eventKey(TENANT, `${command.id}:completed`));
    expect(first).toMatchObject({
      type: 'command.completed',
      data: { command: { command_id: command.id, status: 'completed', answer: 42 } },
    });
    expect(first?.fanned_out_at).toBeUndefined();

    // The sweep finds it pending and hands it on.
    expect(await sweep()).toMatchObject({ handedOn: 1 });
    const queued = await drain(services.aws.queues.webhooks.url);
    expect(queued.map((message) => JSON.parse(message.Body!))).toEqual([
      { version: 1, type: 'webhook_delivery', tenant_id: TENANT, request: { endpoint_id: endpointId, event_id: first!.id, attempt: 1 } },
    ]);
    expect(await events.get(first!.key)).toMatchObject({ id: first!.id, fanned_out_at: expect.any(String) });

    // Swept again, delivered again and again (SQS at least once): nothing new.
    expect(await sweep()).toMatchObject({ examined: 0 });
    await processJobRecord(definition, deps, record(job));
    await processJobRecord(definition, deps, record(job));
    expect(await drain(services.aws.queues.webhooks.url)).toEqual([]);
    const deliveries = await dynamoDeliveryStore(services.db, services.aws.tableName).list(endpointId, 10);
    expect(deliveries.filter((delivery) => delivery.event_id === first!.id)).toHaveLength(1);
  });

  it('loses nothing to a process that died right after the terminal write: the event is in the table, and the sweep sends it', async () => {
    const command = await newCommand();
    // The worker ended the command, its event staged with it, and died before handing it on.
    const staged = await commandEventAnnouncer(publisher)(command, { status: 'completed', result: { answer: 7 } }, async () => ({
      ...command,
      status: 'completed',
      result: { answer: 7 },
    }));
    expect(await commands.complete(command, { answer: 7 }, Date.now(), {}, staged.items)).toBe(true);

    expect(await sweep()).toMatchObject({ handedOn: 1 });
    const queued = await drain(services.aws.queues.webhooks.url);
    expect(queued).toHaveLength(1);
    const event = await dynamoEventStore(services.db, services.aws.tableName).get(eventKey(TENANT, `${command.id}:completed`));
    expect(event?.data).toMatchObject({ command: { command_id: command.id, answer: 7 } });
  });

  it('records no event for an ending that was not written (the command had already ended)', async () => {
    const command = await newCommand();
    expect(await commands.fail(command, { code: 'SYSTEM_ERROR', message: 'x' }, Date.now())).toBe(true);
    const staged = await commandEventAnnouncer(publisher)(command, { status: 'completed', result: {} }, async () => ({
      ...command,
      status: 'completed',
      result: {},
    }));
    expect(await commands.complete(command, {}, Date.now(), {}, staged.items)).toBe(false);
    expect(await dynamoEventStore(services.db, services.aws.tableName).get(eventKey(TENANT, `${command.id}:completed`))).toBeUndefined();
  });

  it('publishes nothing for a tenant without endpoints', async () => {
    const at = new Date().toISOString();
    const lonely: StoredCommand = {
      id: newId(),
      type: 'deep_research',
      status: 'in_progress',
      tenant_id: 'lonely',
      request: {},
      created_at: at,
      updated_at: at,
      attempts: 0,
    };
    await commands.create(lonely);
    await processJobRecord(
      definition,
      { ...deps, tenants: inMemoryTenants({ lonely: [] }) },
      record(JSON.stringify({ version: 1, type: 'deep_research', tenant_id: 'lonely', command_id: lonely.id })),
    );
    expect((await commands.get(lonely.id))?.status).toBe('completed');
    expect(await drain(services.aws.queues.webhooks.url)).toEqual([]);
    expect(await dynamoEventStore(services.db, services.aws.tableName).get(eventKey('lonely', `${lonely.id}:completed`))).toBeUndefined();
  });
});

describe('choosing the endpoints of an event', () => {
  it('sees an endpoint registered or disabled in this process at once, though lists are cached', async () => {
    const { db } = services;
    const table = services.aws.tableName;
    const cachedPublisher = webhookEventPublisher({
      endpoints: cachedEndpointLists(dynamoEndpointStore(db, table), systemClock),
      events: dynamoEventStore(db, table),
      deliveries: dynamoDeliveryStore(db, table),
      queue: sqsJobQueue(services.aws.sqs, { queues: { webhooks: services.aws.queues.webhooks.url }, deadLetterQueues: {} }),
      clock: systemClock,
    });
    const event = (id: string) => ({ tenantId: 'newcomer', type: 'command.completed', idempotencyKey: id, data: { id } });
    const staged = async (id: string) => (await cachedPublisher.stage([event(id)])).items.length;

    expect(await staged('first')).toBe(0);
    const id = newEndpointId();
    const at = new Date().toISOString();
    const store = dynamoEndpointStore(db, table);
    await store.create({
      id,
      tenant_id: 'newcomer',
      url: 'http://127.0.0.1:9/hooks',
      events: ['*'],
      secret: newSigningSecret(),
      created_at: at,
      updated_at: at,
    });
    expect(await staged('second')).toBe(1);
    await store.update('newcomer', id, { disabled: true }, Date.now());
    expect(await staged('third')).toBe(0);
  });
});
