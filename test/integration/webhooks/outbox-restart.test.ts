import { rm } from 'node:fs/promises';
import { startLocalRuntime, type LocalRuntime } from '../../../infra/local/runtime';
import type { StoredCommand } from '../../../shared/commands/record';
import { dynamoCommandStore } from '../../../shared/commands/dynamo-store';
import { webhookPublisherOf } from '../../../shared/composition/events';
import { systemClock } from '../../../shared/platform/clock';
import { createDocumentClient } from '../../../shared/platform/dynamodb';
import { newId } from '../../../shared/platform/ids';
import { commandEventAnnouncer } from '../../../shared/webhooks/command-events';
import { dynamoDeliveryStore } from '../../../shared/webhooks/delivery-store';
import { startWebhookReceiver, type WebhookReceiver } from '../../fakes/webhook-receiver';
import { eventually } from '../../support/embedded';
import { call } from '../../support/http';
import { tempDir } from '../../support/temp-dir';

/**
 * The outbox across a restart of the local runtime (DATA_DIR): a command
 * whose terminal write (with its event) committed, and whose process died
 * before handing the event on, has its event delivered after the restart;
 * so has an event whose attempt died half way, holding its delivery.
 */
let receiver: WebhookReceiver;
let dataDir: string;
let runtime: LocalRuntime | undefined;
const KEY = `sbk_${'o'.repeat(32)}`;
const start = (options: { workers?: boolean } = {}) =>
  startLocalRuntime({
    port: 0,
    dataDir,
    apiKey: KEY,
    scheduleEveryMs: 0,
    ...options,
    settings: { LOG_LEVEL: 'SILENT', OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined },
  });

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  dataDir = tempDir('outbox');
});
afterAll(async () => {
  await runtime?.stop();
  await receiver.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('an event whose hand-on died with the process', () => {
  it('is delivered after the restart', async () => {
    runtime = await start();
    expect(
      (
        await call(runtime.url, 'POST', '/api/webhooks', {
          key: KEY,
          body: { url: `${receiver.url}/hooks`, events: ['command.completed'] },
        })
      ).status,
    ).toBe(201);
    const db = createDocumentClient({ endpoint: runtime.dynamodbEndpoint, region: 'us-east-1' });
    const commands = dynamoCommandStore(db, runtime.tableName);
    const at = new Date().toISOString();
    const command: StoredCommand = {
      id: newId(),
      type: 'deep_research',
      status: 'in_progress',
      tenant_id: runtime.tenantId,
      request: { query: 'x' },
      created_at: at,
      updated_at: at,
      attempts: 1,
    };
    await commands.create(command);
    const publisher = webhookPublisherOf({ db, tableName: runtime.tableName, queue: { send: async () => undefined }, clock: systemClock });
    const staged = await commandEventAnnouncer(publisher)(command, { status: 'completed', result: { answer: 1 } }, async () => ({
      ...command,
      status: 'completed',
      result: { answer: 1 },
    }));
    expect(staged.items).toHaveLength(1);
    // Written, never handed on: the process "dies" here.
    expect(await commands.complete(command, { answer: 1 }, Date.now(), {}, staged.items)).toBe(true);
    db.destroy();
    await runtime.stop();

    runtime = await start();
    const hook = await eventually(
      async () => receiver.received.find((item) => (item.body.data.command as { command_id?: string }).command_id === command.id),
      15_000,
      'the event',
    );
    expect(hook.body).toMatchObject({
      type: 'command.completed',
      data: { command: { command_id: command.id, status: 'completed', answer: 1 } },
    });
  });
});

describe('a delivery whose attempt died with the process', () => {
  it('is attempted at once after the restart, not when the dead attempt’s hold runs out', async () => {
    await runtime?.stop();
    runtime = await start({ workers: false });
    const registered = await call(runtime.url, 'POST', '/api/webhooks', {
      key: KEY,
      body: { url: `${receiver.url}/held`, events: ['command.completed'] },
    });
    expect(registered.status).toBe(201);
    const endpointId = String(registered.body.data?.id);
    const db = createDocumentClient({ endpoint: runtime.dynamodbEndpoint, region: 'us-east-1' });
    const commandId = newId();
    const publisher = webhookPublisherOf({ db, tableName: runtime.tableName, queue: { send: async () => undefined }, clock: systemClock });
    await publisher.publish({
      tenantId: runtime.tenantId,
      type: 'command.completed',
      data: { command: { command_id: commandId } },
      idempotencyKey: `${commandId}:completed`,
    });
    const deliveries = dynamoDeliveryStore(db, runtime.tableName);
    const [pending] = await deliveries.list(endpointId, 10);
    // An attempt in flight holds it (a hold far longer than any attempt's), and the process dies.
    const now = Date.now();
    expect(await deliveries.claim(endpointId, pending!.event_id, 0, now, now + 3_600_000)).toBeDefined();
    db.destroy();
    await runtime.stop();

    runtime = await start();
    const hook = await eventually(
      async () => receiver.received.find((item) => item.path === '/held'),
      15_000,
      'the held delivery to be attempted',
    );
    expect(hook.body).toMatchObject({ id: pending!.event_id, type: 'command.completed', data: { command: { command_id: commandId } } });
    const listed = await call(runtime.url, 'GET', `/api/webhooks/${endpointId}/deliveries`, { key: KEY });
    expect(listed.body.data?.deliveries).toEqual([expect.objectContaining({ status: 'delivered', attempts: 1 })]);
  });
});
