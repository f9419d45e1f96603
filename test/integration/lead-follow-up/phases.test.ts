import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GetQueueAttributesCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { startLocalRuntime, type LocalRuntime } from '../../../infra/local/runtime';
import { dynamoFollowUpStore } from '../../../shared/lead-follow-up/follow-up-store';
import { createDocumentClient } from '../../../shared/platform/dynamodb';
import { goodAnswer, routeLeadFollowUp as route, schemaOf } from '../../fakes/lead-follow-up-model';
import { startOpenAiFake, type FakeReply, type OpenAiFake } from '../../fakes/openai';
import { eventually } from '../../support/embedded';
import { call, type JsonAnswer } from '../../support/http';
import { tempDir } from '../../support/temp-dir';

/**
 * Lead follow-up end to end through the local runtime (HTTP gateway, embedded
 * DynamoDB and SQS, both workers) with the real openai library talking to the
 * loopback OpenAI fake.
 */
const ROUTE = '/api/agents/sales/leadFollowUp';
const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
const SOLO_SITE = '6c1a2b3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const SOLO_LEAD = '7d2b3c4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e';
const API_KEY = 'sk-test-lead-follow-up-0123456789';

const serverError: FakeReply = {
  status: 500,
  error: { message: 'The server had an error', type: 'server_error', code: 'server_error' },
  headers: { 'retry-after-ms': '5' },
};

let runtime: LocalRuntime;
let fake: OpenAiFake;
let sqs: SQSClient;

beforeAll(async () => {
  fake = await startOpenAiFake();
  const dir = tempDir('lfu');
  const dataFile = join(dir, 'solo.json');
  await writeFile(
    dataFile,
    JSON.stringify({
      sites: [
        {
          id: SOLO_SITE,
          name: 'Solo Studio',
          channels: { email: { enabled: true } },
          agents: [{ id: '8e3c4d5f-6a7b-4c8d-8e9f-1a2b3c4d5e6f', name: 'Ana', role: 'sales', status: 'active' }],
          leads: [{ id: SOLO_LEAD, name: 'Lee Park', company: 'Park & Co', email: 'lee@park.example', language: 'en' }],
        },
      ],
    }),
  );
  runtime = await startLocalRuntime({
    port: 0,
    dataFiles: [dataFile],
    visibilityTimeoutSeconds: 3,
    settings: { LOG_LEVEL: 'SILENT', OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: fake.baseUrl, OPENAI_MODEL: undefined },
  });
  sqs = new SQSClient({
    endpoint: runtime.sqsEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
});

afterAll(async () => {
  sqs?.destroy();
  await runtime?.stop();
  await fake?.close();
});

const post = (body: Record<string, unknown>, headers: Record<string, string> = { prefer: 'wait=20' }) =>
  call(runtime.url, 'POST', ROUTE, { key: runtime.apiKey, body, headers });
const get = (id: string) => call(runtime.url, 'GET', `/api/commands/${id}`, { key: runtime.apiKey });

/** Model calls made since `from`, by schema name. */
function callsSince(from: number): string[] {
  return fake.requests.slice(from).map((request) => schemaOf(request.body).name);
}

async function finished(id: string): Promise<JsonAnswer> {
  return eventually(
    async () => {
      const answer = await get(id);
      return answer.body.data?.status === 'in_progress' ? undefined : answer;
    },
    20_000,
    `command ${id} to finish`,
  );
}

describe('lead follow-up through the local runtime', () => {
  it('runs both phases: sales, then the copywriter, with one model call each', async () => {
    route(fake);
    const from = fake.requests.length;

    const answer = await post({ siteId: DEMO_SITE, leadId: DEMO_LEAD, userId: '0c9e8d7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f' });

    expect(answer.status).toBe(200);
    const data = answer.body.data!;
    const commandId = data.command_id as string;
    expect(answer.headers.get('location')).toBe(`/api/commands/${commandId}`);
    expect(Object.keys(data).sort()).toEqual([
      'command_id',
      'command_ids',
      'generated_by',
      'interactions',
      'lead',
      'messages',
      'model',
      'preferences',
    ]);
    expect(data).toMatchObject({ generated_by: 'openai', model: 'gpt-4o-mini' });
    const ids = data.command_ids as { sales: string; copywriter: string };
    expect(ids.sales).toBe(commandId);
    expect(ids.copywriter).toMatch(/^[0-9a-f-]{36}$/);
    const messages = data.messages as Record<string, { title: string; message: string; strategy: string }>;
    expect(Object.keys(messages)).toEqual(['email', 'messaging_app', 'notification', 'web']);
    expect(messages.email).toEqual({
      title: 'Refined: a next step for you (email)',
      message: expect.stringContaining('short call'),
      strategy: 'Model strategy for email: lead with the pain point.',
    });
    expect(Object.keys(data.lead as object).sort()).toEqual(
      ['budget_range', 'company', 'email', 'lead_stage', 'name', 'pain_points', 'phone', 'position', 'sites'].sort(),
    );
    expect(data.lead).toMatchObject({ email: 'jordan.alvarez@trailhead-rentals.example', sites: { name: 'Northwind Outdoor' } });
    expect(callsSince(from)).toEqual(['lead_follow_up_messages', 'lead_follow_up_refinement']);
    const sent = fake.requests[from]!;
    expect(sent.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(sent.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { strict: true } });

    const read = await get(commandId);
    expect(read.body.data).toMatchObject({
      status: 'completed',
      type: 'lead_follow_up',
      child_ids: [ids.copywriter],
      messages,
      command_ids: ids,
    });
    expect((await get(ids.copywriter)).body.data).toMatchObject({ type: 'copywriter', status: 'completed', parent_id: commandId });
  });

  it('answers 202 with the command and completes later when the caller does not wait', async () => {
    route(fake);

    const accepted = await post({ site_id: DEMO_SITE, lead_id: DEMO_LEAD }, {});

    expect(accepted.status).toBe(202);
    expect(accepted.body.data).toMatchObject({ status: 'in_progress', siteId: DEMO_SITE, leadId: DEMO_LEAD, output: 'channel_messages' });
    const id = accepted.body.data!.command_id as string;
    expect(accepted.headers.get('location')).toBe(`/api/commands/${id}`);
    expect((await finished(id)).body.data).toMatchObject({ status: 'completed', command_ids: { sales: id } });
  });

  it('skips the copywriter phase when the site has no copywriter', async () => {
    route(fake);
    const from = fake.requests.length;

    const answer = await post({ siteId: SOLO_SITE, leadId: SOLO_LEAD });

    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ command_ids: { sales: answer.body.data!.command_id, copywriter: null } });
    expect(Object.keys(answer.body.data!.messages as object)).toEqual(['email', 'notification', 'web']);
    expect(callsSince(from)).toEqual(['lead_follow_up_messages']);
  });

  it('keeps the sales content when the copywriter fails, with the reason on the command', async () => {
    route(fake, { refinement: () => serverError });
    const from = fake.requests.length;

    const answer = await post({ siteId: DEMO_SITE, leadId: DEMO_LEAD });

    expect(answer.status).toBe(200);
    const data = answer.body.data!;
    expect(data.command_ids).toEqual({ sales: data.command_id, copywriter: null });
    expect((data.messages as Record<string, { title: string }>).email?.title).toBe('A next step for your team (email)');
    expect(data.warnings).toEqual([{ code: 'SALES_COMMAND_FAILED', message: expect.stringContaining('500') }]);
    expect(callsSince(from).filter((name) => name === 'lead_follow_up_refinement')).toHaveLength(3); // first try and two retries

    const read = await get(data.command_id as string);
    expect(read.body.data).toMatchObject({ status: 'completed', warnings: [{ code: 'SALES_COMMAND_FAILED' }] });
    const childId = (read.body.data!.child_ids as string[])[0]!;
    expect((await get(childId)).body.data).toMatchObject({ status: 'failed', error: { code: 'SALES_COMMAND_FAILED' } });
  });

  it('repairs malformed JSON with one more call', async () => {
    route(fake);
    fake.enqueue({ content: '{"email": {"title": "Hi Jordan", "message": ' });
    const from = fake.requests.length;

    const answer = await post({ siteId: SOLO_SITE, leadId: SOLO_LEAD });

    expect(answer.status).toBe(200);
    expect(callsSince(from)).toEqual(['lead_follow_up_messages', 'lead_follow_up_messages']);
    const repair = fake.requests[from + 1]!.body.messages;
    expect(repair.at(-2)).toMatchObject({ role: 'assistant', content: '{"email": {"title": "Hi Jordan", "message": ' });
    expect(repair.at(-1)).toMatchObject({ role: 'user', content: expect.stringContaining('not JSON') });
  });

  it('repairs copy with placeholders, and fails with NO_CONTENT_GENERATED when the repair has them too', async () => {
    const withSlots = (body: ChatCompletionCreateParamsNonStreaming): FakeReply => {
      const reply = goodAnswer(body) as { content: Record<string, { title: string; message: string; strategy: string }> };
      for (const item of Object.values(reply.content)) item.message = 'Hi [First Name], thanks from {{company}}.';
      return reply;
    };
    route(fake, { messages: withSlots });

    const answer = await post({ siteId: SOLO_SITE, leadId: SOLO_LEAD });

    expect(answer.status).toBe(500);
    expect(answer.body.error).toMatchObject({
      code: 'NO_CONTENT_GENERATED',
      details: expect.arrayContaining([expect.objectContaining({ code: 'placeholder' })]),
    });
    expect(answer.headers.get('location')).toMatch(/^\/api\/commands\//);
  });

  it('repairs a refusal with one more call', async () => {
    route(fake);
    fake.enqueue({ refusal: 'I cannot help with that.' });
    const from = fake.requests.length;

    const answer = await post({ siteId: SOLO_SITE, leadId: SOLO_LEAD });

    expect(answer.status).toBe(200);
    expect(callsSince(from)).toEqual(['lead_follow_up_messages', 'lead_follow_up_messages']);
  });

  it('rides out a 429 through the library retry and succeeds', async () => {
    route(fake);
    fake.enqueue({
      status: 429,
      error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' },
      headers: { 'retry-after-ms': '5' },
    });
    const from = fake.requests.length;

    const answer = await post({ siteId: SOLO_SITE, leadId: SOLO_LEAD });

    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ generated_by: 'openai' });
    expect(callsSince(from)).toEqual(['lead_follow_up_messages', 'lead_follow_up_messages']);
  });

  it('fails with SALES_COMMAND_FAILED when the provider keeps answering 500, within 60 s', async () => {
    route(fake, { messages: () => serverError });
    const started = Date.now();

    const accepted = await post({ siteId: SOLO_SITE, leadId: SOLO_LEAD }, {});
    const done = await finished(accepted.body.data!.command_id as string);

    expect(done.body.data).toMatchObject({
      status: 'failed',
      error: { code: 'SALES_COMMAND_FAILED', message: expect.stringContaining('500') },
    });
    expect(done.text).not.toContain(API_KEY);
    expect(Date.now() - started).toBeLessThan(60_000);
    const waited = await post({ siteId: SOLO_SITE, leadId: SOLO_LEAD });
    expect(waited.status).toBe(500);
    expect(waited.body.error?.code).toBe('SALES_COMMAND_FAILED');
  });

  it('gives one result and one saved sequence when the sales job is delivered twice', async () => {
    route(fake);
    const from = fake.requests.length;
    const body = { siteId: DEMO_SITE, leadId: DEMO_LEAD, output: 'follow_up_sequence', followUpType: 'call', followUpInterval: 'P2D' };

    const accepted = await post(body, {});
    const commandId = accepted.body.data!.command_id as string;
    // At-least-once delivery: the same job lands on the queue a second time.
    const duplicate = { version: 1, type: 'lead_follow_up', tenant_id: runtime.tenantId, command_id: commandId, request: body };
    await sqs.send(new SendMessageCommand({ QueueUrl: runtime.queues.sales.url, MessageBody: JSON.stringify(duplicate) }));

    const done = await finished(commandId);
    await eventually(
      async () => ((await queueDepth(runtime.queues.sales.url)) === 0 ? true : undefined),
      30_000,
      'the sales queue to drain',
    );

    expect(callsSince(from)).toEqual(['lead_follow_up_sequence']);
    const data = done.body.data!;
    expect(data).toMatchObject({
      status: 'completed',
      siteId: DEMO_SITE,
      leadId: DEMO_LEAD,
      saved_to_database: true,
      generated_by: 'openai',
    });
    const followUps = data.follow_ups as {
      id: string;
      type: string;
      scheduled_for: string;
      status: string;
      metadata: { sequence_position: number };
    }[];
    expect(followUps.map((item) => item.type)).toEqual(['call', 'email', 'messaging_app', 'meeting']);
    expect(followUps.map((item) => item.metadata.sequence_position)).toEqual([1, 2, 3, 4]);
    const gaps = followUps.slice(1).map((item, index) => Date.parse(item.scheduled_for) - Date.parse(followUps[index]!.scheduled_for));
    expect(gaps).toEqual([2, 2, 2].map((days) => days * 86_400_000));

    const db = createDocumentClient({ endpoint: runtime.dynamodbEndpoint, region: 'us-east-1' });
    try {
      const due = await dynamoFollowUpStore(db, runtime.tableName).listDueFollowUps('2999-01-01T00:00:00.000Z', 500);
      const saved = due.filter((item) => item.command_id === commandId);
      expect(saved.map((item) => item.id).sort()).toEqual(followUps.map((item) => item.id).sort());
      expect(saved.every((item) => item.status === 'scheduled' && item.tenant_id === runtime.tenantId)).toBe(true);
    } finally {
      db.destroy();
    }
    expect((await get(commandId)).body.data).toEqual(data);
  });

  it('answers the synchronous checks before anything is queued', async () => {
    const from = fake.requests.length;

    const badJson = await call(runtime.url, 'POST', ROUTE, { key: runtime.apiKey, rawBody: '{"siteId": ' });
    const noLead = await post({ siteId: DEMO_SITE, leadId: '01234567-89ab-4cde-8f01-23456789abcd' });
    const badType = await post({ siteId: DEMO_SITE, leadId: DEMO_LEAD, followUpType: 'fax' });

    expect(badJson).toMatchObject({ status: 400, body: { success: false, error: { code: 'INVALID_REQUEST' } } });
    expect(noLead).toMatchObject({ status: 404, body: { error: { code: 'LEAD_NOT_FOUND' } } });
    expect(badType).toMatchObject({ status: 400, body: { error: { code: 'INVALID_FOLLOW_UP_TYPE' } } });
    expect(callsSince(from)).toEqual([]);
  });
});

async function queueDepth(url: string): Promise<number> {
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: url,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  return Number(Attributes?.ApproximateNumberOfMessages ?? 0) + Number(Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0);
}
