/**
 * What tenants report about a lead (`POST /api/leads/{leadId}/events`) and
 * what their lead follow-ups then read, end to end through the local runtime
 * (HTTP gateway, embedded DynamoDB and SQS, both workers) with the real
 * openai library talking to the loopback OpenAI fake, so every prompt is
 * seen. Two tenants' keys cover the demo site.
 */
import { randomUUID } from 'node:crypto';
import { startLocalRuntime, type LocalRuntime } from '../../../infra/local/runtime';
import { dynamoLeadHistory } from '../../../shared/lead-follow-up/history';
import { HISTORY_WINDOW } from '../../../shared/lead-follow-up/writing-limits';
import { epochSeconds } from '../../../shared/platform/clock';
import { createDocumentClient } from '../../../shared/platform/dynamodb';
import { routeLeadFollowUp } from '../../fakes/lead-follow-up-model';
import { startOpenAiFake, type OpenAiFake } from '../../fakes/openai';
import { call } from '../../support/http';

const SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
const OTHER_LEAD = 'e5f6a7b8-c9d0-4e1f-8a2b-4c5d6e7f8091';
const KEY_A = `sbk_${'a'.repeat(32)}`;
const KEY_B = `sbk_${'b'.repeat(32)}`;
const MINUTE = 60_000;

type Interaction = { date: string; type: string; summary: string };

let runtime: LocalRuntime;
let fake: OpenAiFake;

beforeAll(async () => {
  fake = await startOpenAiFake();
  routeLeadFollowUp(fake);
  runtime = await startLocalRuntime({
    port: 0,
    apiKey: KEY_A,
    apiKeys: { [KEY_B]: [SITE] },
    settings: {
      LOG_LEVEL: 'SILENT',
      OPENAI_API_KEY: 'sk-test-lead-history-0123456789',
      OPENAI_BASE_URL: fake.baseUrl,
      OPENAI_MODEL: undefined,
    },
  });
}, 60_000);

afterAll(async () => {
  await runtime?.stop();
  await fake?.close();
});

const report = (key: string, leadId: string, event: Record<string, unknown>) =>
  call(runtime.url, 'POST', `/api/leads/${leadId}/events`, { key, body: { site_id: SITE, event } });

/** A lead follow-up, waited for, and the prompts its phases sent the model. */
async function followUp(key: string, leadId: string) {
  const from = fake.requests.length;
  const answer = await call(runtime.url, 'POST', '/api/agents/sales/leadFollowUp', {
    key,
    body: { siteId: SITE, leadId },
    headers: { prefer: 'wait=20' },
  });
  return {
    answer,
    interactions: (answer.body.data?.interactions ?? []) as Interaction[],
    prompts: JSON.stringify(fake.requests.slice(from).map((request) => request.body.messages)),
  };
}

describe("a lead's reported history", () => {
  it('holds 300 events of 2,000 characters on one lead, and the next follow-up completes reading only a bounded window of them', async () => {
    const start = Date.now() - 400 * MINUTE;
    const summary = (index: number) =>
      `Event ${String(index).padStart(3, '0')}: ${'the lead wrote back at length. '.repeat(70)}`.slice(0, 2_000);
    const occurredAt = (index: number) => new Date(start + index * MINUTE).toISOString();
    // The first 290 are written as the route writes them, by the history store (one item each, the same code path 290 times
    // over HTTP would only repeat); the last ten go through the API onto a lead that already holds them.
    const db = createDocumentClient({ endpoint: runtime.dynamodbEndpoint, region: 'us-east-1' });
    const history = dynamoLeadHistory(db, runtime.tableName);
    const owner = { tenantId: runtime.tenantId, siteId: SITE, leadId: LEAD };
    const expiresAt = epochSeconds(Date.now() + 30 * 24 * 60 * MINUTE);
    for (let first = 0; first < 290; first += 10) {
      const written = await Promise.all(
        Array.from({ length: 10 }, (_, offset) =>
          history.record(
            owner,
            { event_id: randomUUID(), date: occurredAt(first + offset), type: 'opened', channel: null, summary: summary(first + offset) },
            expiresAt,
          ),
        ),
      );
      expect(written.every((outcome) => outcome === 'recorded')).toBe(true);
    }
    db.destroy();
    for (let index = 290; index < 300; index++) {
      const answer = await report(KEY_A, LEAD, { type: 'opened', occurred_at: occurredAt(index), summary: summary(index) });
      expect([index, answer.status, answer.body.data?.interaction_recorded]).toEqual([index, 200, true]);
    }

    const { answer, interactions, prompts } = await followUp(KEY_A, LEAD);

    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ generated_by: 'openai', command_ids: { sales: expect.any(String) } });
    expect(interactions.length).toBeLessThanOrEqual(HISTORY_WINDOW.maxEntries);
    expect(interactions.reduce((total, item) => total + item.summary.length, 0)).toBeLessThanOrEqual(HISTORY_WINDOW.maxCharacters);
    // The newest events, oldest first: three summaries of 2,000 characters fill the 6,000-character window.
    expect(interactions.map((item) => item.summary.slice(0, 9))).toEqual(['Event 297', 'Event 298', 'Event 299']);
    expect(prompts).toContain('Event 299');
    expect(prompts).not.toContain('Event 296');
  }, 120_000);

  it("keeps each tenant's reports to that tenant: never in another's answer or prompt", async () => {
    const secret = 'A-PRIVATE: the buyer said their budget is frozen until March.';
    const replied = await report(KEY_A, OTHER_LEAD, { type: 'replied', channel: 'email', summary: secret });
    expect(replied.status).toBe(200);
    // A's reply starts A's own answer to it (with the reply in its prompt): let it end, so the prompts below are B's alone.
    const answering = String(replied.body.data?.command_id);
    const answered = await call(runtime.url, 'GET', `/api/commands/${answering}`, { key: KEY_A, headers: { prefer: 'wait=20' } });
    expect(answered.body.data?.status).toBe('completed');
    expect(JSON.stringify(answered.body)).toContain('A-PRIVATE');
    expect((await call(runtime.url, 'GET', `/api/commands/${answering}`, { key: KEY_B })).status).toBe(404);
    expect((await report(KEY_B, OTHER_LEAD, { type: 'clicked', summary: 'B-OWN: clicked the pricing page.' })).status).toBe(200);

    const theirs = await followUp(KEY_B, OTHER_LEAD);
    expect(theirs.answer.status).toBe(200);
    expect(theirs.interactions.map((item) => item.summary)).toEqual(['B-OWN: clicked the pricing page.']);
    expect(theirs.prompts).toContain('B-OWN');
    expect(theirs.prompts).not.toContain('A-PRIVATE');
    expect(JSON.stringify(theirs.answer.body)).not.toContain('A-PRIVATE');
    const stored = await call(runtime.url, 'GET', `/api/commands/${String(theirs.answer.body.data?.command_id)}`, { key: KEY_B });
    expect(stored.text).not.toContain('A-PRIVATE');

    const own = await followUp(KEY_A, OTHER_LEAD);
    expect(own.answer.status).toBe(200);
    expect(own.interactions.map((item) => item.summary)).toEqual([secret]);
    expect(own.prompts).toContain('A-PRIVATE');
    expect(own.prompts).not.toContain('B-OWN');
  }, 60_000);
});
