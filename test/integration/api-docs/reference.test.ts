import { readFileSync } from 'node:fs';
import createClient from 'openapi-fetch';
import * as z from 'zod';
import type { paths } from '../../../docs/switchboard-api';
import { OPERATIONS } from '../../../infra/api-docs/operations';
import { formatBanner } from '../../../infra/local/banner';
import { startLocalRuntime, type LocalRuntime } from '../../../infra/local/runtime';
import { ERROR_ENVELOPES } from '../../../shared/api/openapi/errors';
import { API_REFERENCE_PATHS } from '../../../shared/api/reference';
import { HTTP_STATUS_OF } from '../../../shared/platform/errors';
import { call } from '../../support/http';

/**
 * The reference against `npm start`'s runtime: the page and the document
 * are served without a key; a client typed by docs/switchboard-api.d.ts
 * (openapi-fetch) runs a lead follow-up and reads its command; and what
 * every operation answers fits the schema the reference gives for it.
 */
const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
const COMMITTED_DOCUMENT = readFileSync(new URL('../../../docs/openapi.json', import.meta.url), 'utf8');

let runtime: LocalRuntime;
beforeAll(async () => {
  runtime = await startLocalRuntime({
    port: 0,
    scheduleEveryMs: 0,
    settings: {
      LOG_LEVEL: 'SILENT',
      OPENAI_API_KEY: undefined,
      GOOGLE_CSE_API_KEY: undefined,
      BRAVE_API_KEY: undefined,
      PERPLEXITY_API_KEY: undefined,
      TWILIO_ACCOUNT_SID: undefined,
      TWILIO_AUTH_TOKEN: undefined,
      TWILIO_FROM_NUMBER: undefined,
    },
  });
});
afterAll(() => runtime?.stop());

/** The schema the reference gives for an answer of an operation (an error status: its envelope). */
function documentedSchema(operationId: string, status: number): z.ZodType {
  if (status >= 400) return ERROR_ENVELOPES.get(status)!;
  const operation = OPERATIONS.find((candidate) => candidate.route.operationId === operationId);
  const response = operation?.route.responses[String(status)];
  const json = response && 'content' in response ? response.content?.['application/json'] : undefined;
  if (!json || !('schema' in json) || !(json.schema instanceof z.ZodType)) throw new Error(`${operationId} documents no JSON ${status}`);
  return json.schema;
}

/** Asserts that an answer is documented for its operation and fits the documented schema. */
function expectDocumented(operationId: string, status: number, body: unknown): void {
  expect([operationId, status, documentedSchema(operationId, status).safeParse(body).error?.issues]).toEqual([
    operationId,
    status,
    undefined,
  ]);
}

describe('the reference, served by the local runtime', () => {
  it('answers GET /openapi.json without a key with the committed document', async () => {
    const answer = await call(runtime.url, 'GET', API_REFERENCE_PATHS.document);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.text).toBe(COMMITTED_DOCUMENT);
    expect(answer.body).toMatchObject({ openapi: '3.1.0', info: { title: 'Switchboard API' } });
  });

  it('answers GET /docs with the page, which loads its script and the document from this service only', async () => {
    const answer = await call(runtime.url, 'GET', API_REFERENCE_PATHS.page);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(answer.text).toContain(`import { init } from '${API_REFERENCE_PATHS.script}'`);
    expect(answer.text).toContain(`init('${API_REFERENCE_PATHS.document}'`);
    expect(answer.text).not.toMatch(/https?:\/\//);
    const csp = answer.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
  });

  it("serves Redoc's script from node_modules, and 304 to a caller that holds it", async () => {
    const answer = await fetch(`${runtime.url}${API_REFERENCE_PATHS.script}`);
    const script = await answer.text();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.length).toBeGreaterThan(500_000);
    expect(script).toMatch(/export\s*\{[^}]*\binit\b/);
    const again = await fetch(`${runtime.url}${API_REFERENCE_PATHS.script}`, { headers: { 'if-none-match': answer.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it("is named in npm start's banner", () => {
    const banner = formatBanner(runtime, { keySource: { kind: 'generated' }, extraKeys: 0, graceSeconds: 5, env: {} });
    expect(banner).toContain(`API reference: ${runtime.url}/docs (OpenAPI document: ${runtime.url}/openapi.json)`);
  });

  it('answers another method on the reference with 405 and Allow', async () => {
    const answer = await call(runtime.url, 'POST', API_REFERENCE_PATHS.page, { body: {} });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET');
    expectDocumented('getApiReferencePage', 405, answer.body);
  });
});

describe('the typed client (openapi-fetch + docs/switchboard-api.d.ts)', () => {
  const client = () => createClient<paths>({ baseUrl: runtime.url, headers: { Authorization: `Bearer ${runtime.apiKey}` } });

  it('runs a lead follow-up, waits for it, and reads its command', async () => {
    const { data, error, response } = await client().POST('/api/agents/sales/leadFollowUp', {
      params: { header: { Prefer: 'wait=20', 'Idempotency-Key': `typed-client-${Date.now()}` } },
      body: { siteId: DEMO_SITE, leadId: DEMO_LEAD, followUpType: 'email', productInterest: ['booking calendar'] },
    });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expectDocumented('runLeadFollowUp', 200, data);
    const result = data!.data;
    if (!('messages' in result)) throw new Error('expected channel messages');
    expect(result.messages.email?.message.length).toBeGreaterThan(0);
    expect(response.headers.get('location')).toBe(`/api/commands/${result.command_id}`);

    const read = await client().GET('/api/commands/{id}', { params: { path: { id: result.command_id } } });
    expect(read.response.status).toBe(200);
    expectDocumented('getCommand', 200, read.data);
    expect(read.data!.data).toMatchObject({ command_id: result.command_id, type: 'lead_follow_up', status: 'completed' });
    expect(read.data!.data.messages).toEqual(result.messages);
  });

  it('gets 202 with Location, then the command once it ends (Prefer: wait on GET)', async () => {
    const started = await client().POST('/api/agents/sales/leadFollowUp', {
      body: { siteId: DEMO_SITE, leadId: DEMO_LEAD, output: 'follow_up_sequence', followUpInterval: '2 weeks' },
    });
    expect(started.response.status).toBe(202);
    expectDocumented('runLeadFollowUp', 202, started.data);
    const id = (started.data as { data: { command_id: string } }).data.command_id;
    expect(started.response.headers.get('location')).toBe(`/api/commands/${id}`);
    const read = await client().GET('/api/commands/{id}', { params: { path: { id }, header: { Prefer: 'wait=20' } } });
    expect(read.response.headers.get('preference-applied')).toMatch(/^wait=\d+$/);
    expect(read.data!.data).toMatchObject({ status: 'completed', saved_to_database: true });
    expectDocumented('getCommand', 200, read.data);
  });

  it('sends deep research with only the fields it needs: those with defaults are optional in the request type', async () => {
    const started = await client().POST('/api/deepResearch/operation', {
      body: { operation_type: 'custom_search', query: 'typed client defaults' },
    });
    expect(started.response.status).toBe(202);
    expectDocumented('runDeepResearch', 202, started.data);
  });

  it('types the error envelope', async () => {
    const unauthorized = await createClient<paths>({ baseUrl: runtime.url }).GET('/api/commands/{id}', {
      params: { path: { id: DEMO_SITE } },
    });
    expect(unauthorized.response.status).toBe(401);
    // The error is the envelope, or API Gateway's own body on 429: narrowing tells them apart.
    const codeOf = (error: { message: string } | { error: { code: string } } | undefined) =>
      error && 'error' in error ? error.error.code : error?.message;
    expect(codeOf(unauthorized.error)).toBe('UNAUTHORIZED');
    expectDocumented('getCommand', 401, unauthorized.error);

    const invalid = await client().POST('/api/agents/sales/leadFollowUp', { body: { siteId: 'nope', leadId: DEMO_LEAD } });
    expect(invalid.response.status).toBe(HTTP_STATUS_OF.INVALID_INPUT);
    expect(codeOf(invalid.error)).toBe('INVALID_INPUT');
    expectDocumented('runLeadFollowUp', 400, invalid.error);

    const missing = await client().GET('/api/commands/{id}', { params: { path: { id: DEMO_SITE } } });
    expect(codeOf(missing.error)).toBe('COMMAND_NOT_FOUND');
    expectDocumented('getCommand', 404, missing.error);
  });
});

describe('what the other operations answer fits the reference', () => {
  const headers = () => ({ authorization: `Bearer ${runtime.apiKey}` });

  it('deep research: 202, 200 after a wait (fields at the top level), a validation error with processing_time_ms', async () => {
    const body = { operation_type: 'custom_search', query: 'AI agents in sales', max_results: 5, include_content_analysis: true };
    const accepted = await call(runtime.url, 'POST', '/api/deepResearch/operation', { headers: headers(), body });
    expect(accepted.status).toBe(202);
    expectDocumented('runDeepResearch', 202, accepted.body);
    const done = await call(runtime.url, 'POST', '/api/deepResearch/operation', {
      headers: { ...headers(), prefer: 'wait=20' },
      body: { ...body, query: 'AI agents in marketing' },
    });
    expect(done.status).toBe(200);
    expectDocumented('runDeepResearch', 200, done.body);
    const invalid = await call(runtime.url, 'POST', '/api/deepResearch/operation', {
      headers: headers(),
      body: { operation_type: 'custom_search' },
    });
    expect(invalid.body.error?.code).toBe('MISSING_QUERY');
    expectDocumented('runDeepResearch', 400, invalid.body);
    expect(invalid.body).toHaveProperty('processing_time_ms');
  });

  it('stakeholder coordination: 202 with a pending call, 200 after a wait, and the command', async () => {
    const body = {
      site_id: DEMO_SITE,
      lead_id: DEMO_LEAD,
      meeting_agenda: ['Campaign results', 'January budget'],
      phone_numbers: ['+14155550123'],
    };
    const accepted = await call(runtime.url, 'POST', '/api/agents/cmo/stakeholder-coordination', { headers: headers(), body });
    expect(accepted.status).toBe(202);
    expectDocumented('runStakeholderCoordination', 202, accepted.body);
    const done = await call(runtime.url, 'POST', '/api/agents/cmo/stakeholder-coordination', {
      headers: { ...headers(), prefer: 'wait=20' },
      body: { ...body, meeting_title: 'Budget' },
    });
    expect(done.status).toBe(200);
    expectDocumented('runStakeholderCoordination', 200, done.body);
    const read = await call(runtime.url, 'GET', `/api/commands/${String(done.body.data?.command_id)}`, { headers: headers() });
    expectDocumented('getCommand', 200, read.body);
  });

  it('health, erasing a command, and the unsigned webhook', async () => {
    expectDocumented('getHealth', 200, (await call(runtime.url, 'GET', '/health')).body);
    const started = await call(runtime.url, 'POST', '/api/deepResearch/operation', {
      headers: headers(),
      body: { operation_type: 'llm_news' },
    });
    const erased = await call(runtime.url, 'DELETE', `/api/commands/${String(started.body.data?.command_id)}`, { headers: headers() });
    expect(erased.status).toBe(200);
    expectDocumented('deleteCommand', 200, erased.body);
    const unsigned = await call(runtime.url, 'POST', `/webhooks/twilio/call-status?command_id=${DEMO_SITE}`, {
      rawBody: 'CallSid=CA1&CallStatus=ringing',
    });
    expect(unsigned.status).toBe(403);
    expectDocumented('twilioCallStatus', 403, unsigned.body);
  });
});

describe('what running a follow-up sequence answers fits the reference', () => {
  const key = () => runtime.apiKey;

  /** An error answer, under a status the operation documents, with a code its description names. */
  function expectDocumentedError(operationId: string, answer: { status: number; body: { error?: { code: string } } }, code: string): void {
    expect([operationId, answer.status, answer.body.error?.code]).toEqual([
      operationId,
      HTTP_STATUS_OF[code as keyof typeof HTTP_STATUS_OF],
      code,
    ]);
    const response = OPERATIONS.find((candidate) => candidate.route.operationId === operationId)?.route.responses[String(answer.status)];
    const description = response && 'description' in response ? (response.description ?? '') : '';
    expect([operationId, code, description.includes(`\`${code}\``)]).toEqual([operationId, code, true]);
    expectDocumented(operationId, answer.status, answer.body);
  }

  it('lists, edits, sends and adapts the steps of a sequence, and each answer (errors included) fits its schema', async () => {
    const created = await call(runtime.url, 'POST', '/api/agents/sales/leadFollowUp', {
      key: key(),
      headers: { prefer: 'wait=20' },
      body: { siteId: DEMO_SITE, leadId: DEMO_LEAD, output: 'follow_up_sequence', followUpInterval: '3 days' },
    });
    expect(created.status).toBe(200);
    const [first, second] = (created.body.data?.follow_ups as { id: string }[]).map((step) => step.id);

    const listed = await call(runtime.url, 'GET', `/api/leads/${DEMO_LEAD}/follow-ups?site_id=${DEMO_SITE}&limit=2&status=scheduled`, {
      key: key(),
    });
    expect(listed.status).toBe(200);
    expectDocumented('listLeadFollowUps', 200, listed.body);
    expect(listed.body.data).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
    const next = await call(
      runtime.url,
      'GET',
      `/api/leads/${DEMO_LEAD}/follow-ups?siteId=${DEMO_SITE}&cursor=${String(listed.body.data?.next_cursor)}`,
      { key: key() },
    );
    expectDocumented('listLeadFollowUps', 200, next.body);
    expect((next.body.data?.follow_ups as unknown[]).length).toBeGreaterThan(0);
    expectDocumentedError(
      'listLeadFollowUps',
      await call(runtime.url, 'GET', `/api/leads/${DEMO_LEAD}/follow-ups?site_id=${DEMO_SITE}&limit=0`, { key: key() }),
      'INVALID_REQUEST',
    );
    expectDocumentedError(
      'listLeadFollowUps',
      await call(runtime.url, 'GET', `/api/leads/nope/follow-ups?site_id=${DEMO_SITE}`, { key: key() }),
      'INVALID_INPUT',
    );
    expectDocumentedError(
      'listLeadFollowUps',
      await call(runtime.url, 'GET', `/api/leads/${DEMO_SITE}/follow-ups?site_id=${DEMO_SITE}`, { key: key() }),
      'LEAD_NOT_FOUND',
    );

    // The same steps across the site, and the tenant's commands: each listing as documented.
    const siteListed = await call(runtime.url, 'GET', `/api/follow-ups?site_id=${DEMO_SITE}&status=scheduled&limit=1`, { key: key() });
    expect(siteListed.status).toBe(200);
    expectDocumented('listSiteFollowUps', 200, siteListed.body);
    expect(siteListed.body.data).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
    expectDocumentedError('listSiteFollowUps', await call(runtime.url, 'GET', '/api/follow-ups', { key: key() }), 'INVALID_REQUEST');
    expectDocumentedError(
      'listSiteFollowUps',
      await call(runtime.url, 'GET', `/api/follow-ups?site_id=${DEMO_LEAD}`, { key: key() }),
      'SITE_NOT_FOUND',
    );
    const commands = await call(runtime.url, 'GET', '/api/commands?type=lead_follow_up&status=completed,failed&limit=1', { key: key() });
    expect(commands.status).toBe(200);
    expectDocumented('listCommands', 200, commands.body);
    expect((commands.body.data?.commands as { finished_at: string | null }[])[0]?.finished_at).toEqual(expect.any(String));
    const nextCommands = await call(runtime.url, 'GET', `/api/commands?cursor=${String(commands.body.data?.next_cursor)}`, { key: key() });
    expectDocumentedError('listCommands', nextCommands, 'INVALID_REQUEST');
    expectDocumentedError('listCommands', await call(runtime.url, 'GET', '/api/commands?limit=101', { key: key() }), 'INVALID_REQUEST');

    const patch = (id: string, body: unknown) => call(runtime.url, 'PATCH', `/api/follow-ups/${id}`, { key: key(), body });
    const edited = await patch(first!, {
      subject: 'Jordan, a quick question',
      content: 'Hi Jordan, would a 20-minute call on Tuesday morning suit you?',
    });
    expect(edited.status).toBe(200);
    expectDocumented('updateFollowUp', 200, edited.body);
    const sent = await patch(first!, { status: 'sent' });
    expect(sent.body.data).toMatchObject({ id: first, status: 'sent' });
    expectDocumented('updateFollowUp', 200, sent.body);
    expectDocumentedError('updateFollowUp', await patch(first!, { status: 'cancelled' }), 'INVALID_TRANSITION');
    expectDocumentedError('updateFollowUp', await patch(second!, { scheduled_for: '2020-01-01T00:00:00Z' }), 'INVALID_REQUEST');
    expectDocumentedError('updateFollowUp', await patch(DEMO_SITE, { status: 'sent' }), 'NOT_FOUND');

    const report = (body: unknown, idempotencyKey: string) =>
      call(runtime.url, 'POST', `/api/leads/${DEMO_LEAD}/events`, { key: key(), headers: { 'idempotency-key': idempotencyKey }, body });
    const idempotencyKey = `reference-event-${Date.now()}`;
    const replied = await report(
      { site_id: DEMO_SITE, event: { type: 'replied', channel: 'email', summary: 'Asked for a call on Friday.' } },
      idempotencyKey,
    );
    expect(replied.status).toBe(200);
    expectDocumented('reportLeadEvent', 200, replied.body);
    expect(replied.body.data?.changes).toContainEqual(
      expect.objectContaining({ follow_up_id: second, change: 'cancelled', status: 'cancelled' }),
    );
    const replayed = await report(
      { site_id: DEMO_SITE, event: { type: 'replied', channel: 'email', summary: 'Asked for a call on Friday.' } },
      idempotencyKey,
    );
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(replied.body);
    expectDocumentedError('reportLeadEvent', await report({ site_id: DEMO_SITE, type: 'opened' }, idempotencyKey), 'IDEMPOTENCY_CONFLICT');
    const flat = await report({ site_id: DEMO_SITE, type: 'opened' }, `${idempotencyKey}-flat`);
    expectDocumented('reportLeadEvent', 200, flat.body);
    expect(flat.body.data).toMatchObject({ changes: [], event: { type: 'opened', channel: null, summary: null } });
    expectDocumentedError(
      'reportLeadEvent',
      await report({ site_id: DEMO_SITE, event: { type: 'forwarded' } }, `${idempotencyKey}-bad`),
      'INVALID_REQUEST',
    );
    expectDocumentedError(
      'reportLeadEvent',
      await report({ site_id: 'nope', event: { type: 'opened' } }, `${idempotencyKey}-site`),
      'INVALID_INPUT',
    );
  });
});
