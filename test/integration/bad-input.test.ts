import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime';
import { createDocumentClient } from '../../shared/platform/dynamodb';
import { call } from '../support/http';

/**
 * Generated bad input against the real route: every answer is a 2xx or a
 * 4xx in the envelope (never a 5xx or a stack), and only accepted requests
 * write a command.
 */
const ROUTE = '/api/agents/sales/leadFollowUp';
const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';

let runtime: LocalRuntime;
beforeAll(async () => {
  runtime = await startLocalRuntime({ port: 0, workers: false, settings: { LOG_LEVEL: 'SILENT', OPENAI_API_KEY: undefined } });
});
afterAll(() => runtime.stop());

async function commandCount(): Promise<number> {
  const db = createDocumentClient({ endpoint: runtime.dynamodbEndpoint, region: 'us-east-1' });
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: runtime.tableName,
        FilterExpression: 'begins_with(pk, :p)',
        ExpressionAttributeValues: { ':p': 'CMD#' },
        ExclusiveStartKey: startKey,
      }),
    );
    count += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  db.destroy();
  return count;
}

const edgeValue = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(
    null,
    true,
    false,
    '',
    ' ',
    '00000000-0000-0000-0000-000000000000',
    DEMO_SITE,
    DEMO_LEAD,
    'x'.repeat(5000),
    -0,
    Number.MAX_SAFE_INTEGER,
  ),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
);

const fieldName = fc.constantFrom(
  'siteId',
  'site_id',
  'leadId',
  'lead_id',
  'userId',
  'agent_id',
  'visitorId',
  'followUpType',
  'leadStage',
  'previousInteractions',
  'leadData',
  'productInterest',
  'followUpInterval',
  'phone_number',
  'output',
  '__proto__',
  'constructor',
  'prototype',
  'unknown_field',
);

const body = fc.oneof(
  fc.dictionary(fieldName, edgeValue, { maxKeys: 8 }).map((fields) => JSON.stringify(fields)),
  fc
    .record({ siteId: fc.constant(DEMO_SITE), leadId: fc.constant(DEMO_LEAD) })
    .chain((base) => fc.dictionary(fieldName, edgeValue, { maxKeys: 4 }).map((extra) => JSON.stringify({ ...extra, ...base }))),
  fc.jsonValue({ maxDepth: 6 }).map((value) => JSON.stringify(value)),
  fc.constant('{"__proto__": {"polluted": true}, "siteId": "' + DEMO_SITE + '"}'),
  fc.string(),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  fc.integer({ min: 1, max: 60 }).map((depth) => '['.repeat(depth * 100) + ']'.repeat(depth * 100)),
);

describe('bad input to POST /api/agents/sales/leadFollowUp', () => {
  it('answers every generated body with a 2xx or an enveloped 4xx, and writes commands only for the accepted ones', async () => {
    const before = await commandCount();
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(body, async (raw) => {
        const answer = await call(runtime.url, 'POST', ROUTE, {
          key: runtime.apiKey,
          rawBody: raw,
          headers: { 'content-type': 'application/json' },
        });
        expect(answer.status).toBeLessThan(500);
        expect(answer.text).not.toMatch(/\n\s+at |\.ts:\d+/);
        if (answer.status === 202) {
          accepted += 1;
          return;
        }
        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(answer.body).toMatchObject({ success: false, error: { code: expect.any(String), message: expect.any(String) } });
      }),
      { seed: 20261123, numRuns: 400 },
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await commandCount()).toBe(before + accepted);
  });
});

describe('deeply nested bodies', () => {
  it.each([5_000, 10_000])('answers a body nested %i levels deep with 400 INVALID_REQUEST and writes nothing', async (depth) => {
    const before = await commandCount();
    const nested = `{"siteId":"${DEMO_SITE}","leadId":"${DEMO_LEAD}","leadData":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
    for (const raw of [nested, '['.repeat(depth) + ']'.repeat(depth)]) {
      const answer = await call(runtime.url, 'POST', ROUTE, {
        key: runtime.apiKey,
        rawBody: raw,
        headers: { 'content-type': 'application/json' },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringContaining('deeper than 64 levels') });
    }
    expect(await commandCount()).toBe(before);
  });

  it('still accepts a body nested within the limit', async () => {
    const answer = await call(runtime.url, 'POST', ROUTE, {
      key: runtime.apiKey,
      body: { siteId: DEMO_SITE, leadId: DEMO_LEAD, leadData: { pain_points: ['double bookings'] } },
    });
    expect(answer.status).toBe(202);
  });
});
