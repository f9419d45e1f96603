import { rm } from 'node:fs/promises';
import { startWebhookReceiver, type WebhookReceiver } from '../fakes/webhook-receiver';
import { eventually } from '../support/embedded';
import { call } from '../support/http';
import { npmStart, type NpmStart } from '../support/npm-start';
import { tempDir } from '../support/temp-dir';

/**
 * Events survive a crash: `npm start` with DATA_DIR and a webhook endpoint
 * registered is killed (SIGKILL, the whole process group) twice while
 * it works through lead follow-ups (10 a round), and started again each
 * time. Every command it accepted ends, and its `command.completed` /
 * `command.failed` reaches the receiver at least once; a repeat carries the
 * same event id. Each kill comes as soon as the round's first event has
 * arrived and a few more commands were accepted: those are in hand or
 * queued when it comes, however fast the first ten ran (their events may
 * all arrive together: a delivery batch is sent at once). The property
 * holds per command, so more commands a round would only add queued ones.
 */
const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
const KEY = `sbk_${'k'.repeat(32)}`;
const PER_ROUND = 10;
/** Commands accepted after a round's first event, just before its kill. */
const LATE_PER_ROUND = 5;
const ROUNDS = 2;

let receiver: WebhookReceiver;
let dataDir: string;
let running: NpmStart | undefined;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  dataDir = tempDir('crash');
});
afterAll(async () => {
  running?.kill();
  await running?.closed;
  await receiver.close();
  await rm(dataDir, { recursive: true, force: true });
});

const start = () => npmStart({ DATA_DIR: dataDir, API_KEY: KEY }, 60_000);

async function killHard(run: NpmStart): Promise<void> {
  run.kill();
  await run.closed;
}

/** POSTs lead follow-ups, a few at a time, and keeps the ids of those accepted (a POST cut by the kill is simply not counted). */
async function submit(url: string, count: number, accepted: string[]): Promise<void> {
  const one = async () => {
    const answer = await call(url, 'POST', '/api/agents/sales/leadFollowUp', {
      key: KEY,
      body: { siteId: DEMO_SITE, leadId: DEMO_LEAD },
    }).catch(() => undefined);
    if (answer?.status === 202) accepted.push(String(answer.body.data?.command_id));
  };
  for (let sent = 0; sent < count; sent += 10) await Promise.all(Array.from({ length: Math.min(10, count - sent) }, one));
}

describe('command events across kill -9 of npm start', () => {
  it('delivers every finished command’s event at least once, repeats only with the same event id', async () => {
    running = await start();
    const registered = await call(running.url, 'POST', '/api/webhooks', {
      key: KEY,
      body: { url: `${receiver.url}/hooks`, events: ['command.completed', 'command.failed'] },
    });
    expect(registered.status).toBe(201);

    const accepted: string[] = [];
    const eventFor = (id: string) =>
      receiver.received.filter((hook) => (hook.body.data.command as { command_id?: string } | undefined)?.command_id === id);
    for (let round = 0; round < ROUNDS; round++) {
      const before = accepted.length;
      await submit(running.url, PER_ROUND, accepted);
      const thisRound = accepted.slice(before);
      expect(thisRound.length).toBeGreaterThan(0);
      // Killed while work is in hand: the round's first command just told, more accepted a moment before the kill.
      await eventually(async () => (thisRound.some((id) => eventFor(id).length > 0) ? true : undefined), 60_000, 'a first event');
      const lateFrom = accepted.length;
      await submit(running.url, LATE_PER_ROUND, accepted);
      const late = accepted.slice(lateFrom);
      const lateToldAtKill = late.filter((id) => eventFor(id).length > 0).length;
      await killHard(running);
      expect(late.length).toBeGreaterThan(0);
      expect(lateToldAtKill).toBeLessThan(late.length);
      running = await start();
    }
    expect(accepted.length).toBeGreaterThanOrEqual(ROUNDS * PER_ROUND - ROUNDS);

    const url = running.url;
    const statuses = await eventually(
      async () => {
        const read = await Promise.all(
          accepted.map(async (id) => String((await call(url, 'GET', `/api/commands/${id}`, { key: KEY })).body.data?.status)),
        );
        return read.every((status) => status === 'completed' || status === 'failed') ? read : undefined;
      },
      120_000,
      'every accepted command to end',
    );
    await eventually(
      async () => (accepted.every((id) => eventFor(id).length > 0) ? true : undefined),
      120_000,
      'an event for every command',
    );

    for (const [index, id] of accepted.entries()) {
      const events = eventFor(id);
      expect(new Set(events.map((hook) => hook.body.id)).size).toBe(1);
      expect(events[0]!.body.type).toBe(`command.${statuses[index]}`);
    }
  }, 600_000);
});
