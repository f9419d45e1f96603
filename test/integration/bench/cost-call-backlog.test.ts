import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { startLocalRuntime, type LocalRuntime } from '../../../infra/local/runtime';
import { commandKey } from '../../../shared/commands/store';
import { createDocumentClient } from '../../../shared/platform/dynamodb';
import { stakeholderCallBacklog } from '../../bench/cost-call-backlog';

/**
 * The cost bench's stakeholder calls (test/bench/cost-call-backlog.ts): each
 * accepted command's call rings on the local telephony, is answered and
 * talked through on the relay socket, and hung up; `converse` resolves once
 * every meeting summary is written, and counts what went over the socket and
 * through Twilio's webhooks.
 */
const TURNS = 2;
const CALLS = 2;

describe('the cost bench’s stakeholder call backlog', () => {
  const backlog = stakeholderCallBacklog(TURNS);
  let runtime: LocalRuntime;
  let db: ReturnType<typeof createDocumentClient>;

  beforeAll(async () => {
    runtime = await startLocalRuntime({
      port: 0,
      workers: false,
      scheduleEveryMs: 0,
      settings: { LOG_LEVEL: 'SILENT', ...backlog.settings() },
    });
    db = createDocumentClient({
      endpoint: runtime.dynamodbEndpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
  });

  afterAll(async () => {
    db.destroy();
    await runtime.stop();
    await backlog.close();
  });

  it('answers every call, talks it through, waits for its summary, and counts its socket and webhook traffic', async () => {
    await backlog.enqueue(runtime, CALLS);
    expect(runtime.localTelephony!.calls()).toHaveLength(0);
    await runtime.startWorkers();
    const read: string[] = [];
    await backlog.converse!(runtime, async (id) => {
      read.push(id);
      return (await db.send(new GetCommand({ TableName: runtime.tableName, Key: commandKey(id), ConsistentRead: true }))).Item;
    });

    const calls = runtime.localTelephony!.calls();
    expect(calls).toHaveLength(CALLS);
    expect(calls.every((call) => call.status === 'completed')).toBe(true);
    // Every command was read until its summary was written, and it was.
    for (const id of new Set(read)) {
      const { Item } = await db.send(new GetCommand({ TableName: runtime.tableName, Key: commandKey(id) }));
      expect(Item?.meeting_summary).toMatchObject({ status: 'completed', generated_by: 'offline' });
      expect((Item?.transcript as { role: string }[]).filter((entry) => entry.role === 'user')).toHaveLength(TURNS);
    }
    expect(new Set(read).size).toBe(CALLS);

    const traffic = backlog.callTraffic!();
    expect(traffic.replies).toBe(CALLS * TURNS);
    // $connect, setup, each prompt, $disconnect.
    expect(traffic.relayInvocations).toBe(CALLS * (3 + TURNS));
    expect(traffic.relayMessagesIn).toBe(CALLS * (1 + TURNS));
    // Each reply ends with a chunk marked last: at least one message out a turn.
    expect(traffic.relayMessagesOut).toBeGreaterThanOrEqual(CALLS * TURNS);
    expect(traffic.connectionMinutes).toBeCloseTo((CALLS * TURNS * 15) / 60);
    // initiated, ringing, in-progress, completed, and the relay session's report, for each call.
    expect(traffic.webhookRequests).toBe(calls.reduce((total, call) => total + call.callbacks.length + (call.sessionReport ? 1 : 0), 0));
    expect(traffic.webhookRequests).toBe(CALLS * 5);
  }, 60_000);
});
