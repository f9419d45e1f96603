import { signTwilioRequest } from '../../../infra/local/twilio-wire';
import { startLocalRuntime, type LocalRuntime } from '../../../infra/local/runtime';
import type { HttpEvent } from '../../../shared/platform/http/types';
import { answerCallStatus } from '../../../shared/stakeholder-coordination/call-status-webhook';
import type { CallStatusUpdate } from '../../../shared/stakeholder-coordination/call-store';
import { startFakeTwilio, type FakeTwilio } from '../../fakes/twilio';
import { call, type JsonAnswer } from '../../support/http';

/**
 * Stakeholder coordination end to end through the local runtime (HTTP
 * gateway, embedded DynamoDB and SQS, the call worker) with the real twilio
 * library talking to the loopback Twilio fake, and Twilio's status
 * callbacks signed as Twilio signs them, reaching the keyless webhook.
 */
const ROUTE = '/api/agents/cmo/stakeholder-coordination';
const WEBHOOK = '/webhooks/twilio/call-status';
const SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
const UNKNOWN = '0190f0a0-0000-7000-8000-00000000dead';
const API_KEY = 'sbk_stakeholder-api-key-000000000001';
const OTHER_KEY = 'sbk_stakeholder-other-key-00000000001';

let runtime: LocalRuntime;
let twilio: FakeTwilio;

beforeAll(async () => {
  twilio = await startFakeTwilio();
  runtime = await startLocalRuntime({
    port: 0,
    apiKey: API_KEY,
    apiKeys: { [OTHER_KEY]: ['9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d'] },
    scheduleEveryMs: 0,
    settings: { LOG_LEVEL: 'SILENT', OPENAI_API_KEY: undefined, ...twilio.settings },
  });
});
afterAll(async () => {
  await runtime.stop();
  await twilio.close();
});

const post = (body: unknown, headers: Record<string, string> = {}, key = API_KEY) =>
  call(runtime.url, 'POST', ROUTE, { key, body, headers });
const read = (id: string) => call(runtime.url, 'GET', `/api/commands/${id}`, { key: API_KEY });
const errorOf = (answer: JsonAnswer) => `${answer.status} ${answer.body.error?.code}: ${answer.body.error?.message}`;

describe('POST /api/agents/cmo/stakeholder-coordination', () => {
  it('checks in the documented order: key, size, JSON, schema, then the site', async () => {
    expect((await call(runtime.url, 'POST', ROUTE, { body: { site_id: SITE } })).status).toBe(401);
    expect(errorOf(await call(runtime.url, 'POST', ROUTE, { key: API_KEY, rawBody: `{"site_id": "${'x'.repeat(300 * 1024)}"}` }))).toMatch(
      /^413 PAYLOAD_TOO_LARGE/,
    );
    expect(errorOf(await call(runtime.url, 'POST', ROUTE, { key: API_KEY, rawBody: '{"site_id": ' }))).toMatch(
      /^400 INVALID_REQUEST: The request body is not valid JSON/,
    );
    expect(errorOf(await post({ lead_id: LEAD }))).toMatch(/^400 INVALID_REQUEST: site_id: Required/);
    expect(errorOf(await post({ site_id: SITE, lead_id: LEAD, phone_numbers: ['+14155550123', '555-0100'] }))).toMatch(
      /^400 INVALID_REQUEST: phone_numbers\.1:/,
    );
    expect(errorOf(await post({ site_id: SITE }))).toMatch(/^400 INVALID_REQUEST: .*At least one of userId, visitor_id or lead_id/);
    expect(errorOf(await post({ site_id: UNKNOWN, lead_id: LEAD }))).toMatch(/^404 SITE_NOT_FOUND/);
    expect(errorOf(await post({ site_id: UNKNOWN, lead_id: LEAD }, {}, OTHER_KEY))).toMatch(/^404 SITE_NOT_FOUND/);
    expect(errorOf(await post({ site_id: SITE, lead_id: LEAD }, {}, OTHER_KEY))).toMatch(/^403 FORBIDDEN/);
    expect(errorOf(await post({ site_id: SITE, lead_id: UNKNOWN }))).toMatch(/^404 LEAD_NOT_FOUND/);
    expect(errorOf(await post({ site_id: SITE, visitor_id: UNKNOWN }))).toMatch(/^404 NOT_FOUND: Visitor/);
    expect(errorOf(await post({ site_id: SITE, userId: UNKNOWN }))).toMatch(/^404 USER_NOT_FOUND/);
    expect(errorOf(await post({ site_id: SITE, lead_id: LEAD, agentId: UNKNOWN }))).toMatch(/^404 AGENT_NOT_FOUND/);
    expect(errorOf(await post({ site_id: SITE, lead_id: LEAD, conversationId: UNKNOWN }))).toMatch(/^404 NOT_FOUND: Conversation/);
  });

  it('answers 202 at once with the meeting details, prompts, context summary and a pending call, and Location', async () => {
    const answer = await post({
      site_id: SITE,
      lead_id: LEAD,
      meeting_agenda: ['Winter campaign results', 'Budget for January'],
      participants: ['maya.chen@northwind-outdoor.example'],
      phone_numbers: ['+14155550131', '+14155550132'],
    });
    expect(answer.status).toBe(202);
    const data = answer.body.data!;
    expect(answer.headers.get('location')).toBe(`/api/commands/${String(data.command_id)}`);
    expect(data).toMatchObject({
      command_id: expect.any(String),
      conversation_id: expect.any(String),
      status: 'in_progress',
      meeting_details: { title: 'Winter campaign results and budget for January', objective: expect.any(String) },
      system_prompts: [
        { id: 'pre_call', role: 'system', phase: 'pre_call', content: expect.stringContaining('Refresh winter campaign landing page') },
        { id: 'post_call', role: 'system', phase: 'post_call', content: expect.stringContaining('ACTION ITEMS') },
      ],
      context_summary: {
        tasks: expect.arrayContaining([expect.objectContaining({ title: 'Set up abandoned-booking email flow' })]),
        requirements: [expect.objectContaining({ title: 'Point-of-sale integration' })],
        campaigns: [expect.objectContaining({ title: 'Winter gear rental push' })],
        content: [expect.objectContaining({ title: 'Guide: planning a group ski weekend' })],
        resource_allocation: expect.objectContaining({ budget: 25000 }),
      },
      call: { id: expect.any(String), status: 'pending', phone_number: '+14155550131' },
      site_id: SITE,
      task: 'Orchestrate the stakeholder call with guidance and generate a summary',
      supervisors: [
        { agent_role: 'marketing_director', status: 'not_initialized' },
        { agent_role: 'project_manager', status: 'not_initialized' },
      ],
      targets: [
        { meeting_details: { title: 'Winter campaign results and budget for January', objective: expect.any(String), dynamic: true } },
        { messages: [{ role: 'system', content: expect.stringContaining('Meeting: Winter campaign results and budget for January') }] },
        { messages: [{ role: 'system', content: expect.stringContaining('KEY POINTS') }] },
      ],
    });
  });

  it('leaves the context summary out when asked, and only then', async () => {
    const without = await post({ site_id: SITE, lead_id: LEAD, include_context_summary: false });
    expect(without.status).toBe(202);
    expect(without.body.data).not.toHaveProperty('context_summary');
    expect(without.body.data?.system_prompts).toHaveLength(2);
  });

  it('files a later request under a conversation an earlier one started', async () => {
    const first = await post({ site_id: SITE, lead_id: LEAD });
    const conversationId = String(first.body.data?.conversation_id);
    const second = await post({ site_id: SITE, lead_id: LEAD, conversationId });
    expect(second.status).toBe(202);
    expect(second.body.data?.conversation_id).toBe(conversationId);
    expect(second.body.data?.command_id).not.toBe(first.body.data?.command_id);
  });

  it('gives back the same command for the same Idempotency-Key and body', async () => {
    const body = { site_id: SITE, lead_id: LEAD, meeting_title: 'Replayed', meeting_objective: 'Once' };
    const first = await post(body, { 'idempotency-key': 'stakeholder-replay-1' });
    const again = await post(body, { 'idempotency-key': 'stakeholder-replay-1' });
    expect(again.body.data?.command_id).toBe(first.body.data?.command_id);
    expect(again.body.data?.conversation_id).toBe(first.body.data?.conversation_id);
    expect(errorOf(await post({ ...body, meeting_title: 'Other' }, { 'idempotency-key': 'stakeholder-replay-1' }))).toMatch(
      /^409 IDEMPOTENCY_CONFLICT/,
    );
  });
});

describe('the call and its status webhook', () => {
  let commandId: string;
  let callbackUrl: string;
  let sid: string;

  beforeAll(async () => {
    const answer = await post(
      { site_id: SITE, lead_id: LEAD, meeting_title: 'Q4 review', meeting_objective: 'Agree on Q1', phone_numbers: ['+14155550140'] },
      { prefer: 'wait=20' },
    );
    expect(answer.status).toBe(200);
    commandId = String(answer.body.data?.command_id);
    expect(answer.body.data).toMatchObject({
      status: 'completed',
      call: { status: 'pending', provider: 'twilio', phone_number: '+14155550140' },
    });
    // The targets are kept on the command once (its result holds no copy) and shown from there, when waited for and read.
    expect(answer.body.data?.targets).toEqual([
      { meeting_details: expect.objectContaining({ title: 'Q4 review' }) },
      { messages: [expect.any(Object)] },
      { messages: [expect.any(Object)] },
    ]);
    expect((await read(String(answer.body.data?.command_id))).body.data?.targets).toEqual(answer.body.data?.targets);
    const placed = twilio.calls.find((candidate) => candidate.to === '+14155550140')!;
    sid = placed.sid;
    callbackUrl = placed.statusCallback!;
    expect(callbackUrl).toBe(`${runtime.publicBaseUrl}${WEBHOOK}?command_id=${commandId}`);
  });

  const callback = (params: Record<string, string>, options?: { authToken?: string; signedUrl?: string }) =>
    twilio.sendStatusCallback(callbackUrl, { CallSid: sid, AccountSid: twilio.accountSid, ...params }, options);
  const callNow = async () => (await read(commandId)).body.data?.call as Record<string, unknown>;

  it('moves the call forward, shown live by GET /api/commands/{id} after the command completed, within a second per callback', async () => {
    const started = Date.now();
    expect((await callback({ CallStatus: 'initiated', SequenceNumber: '0' })).status).toBe(204);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await callNow()).toMatchObject({ status: 'pending', provider_status: 'initiated', last_sequence: 0 });
    expect((await callback({ CallStatus: 'ringing', SequenceNumber: '1' })).status).toBe(204);
    expect((await callback({ CallStatus: 'in-progress', SequenceNumber: '2' })).status).toBe(204);
    const answered = await read(commandId);
    expect(answered.body.data).toMatchObject({
      type: 'stakeholder_coordination',
      status: 'completed',
      call: { status: 'in_progress', provider_call_id: sid },
    });
  });

  it('ignores a repeated and an out-of-order callback, answering 204 with no change', async () => {
    const before = await callNow();
    expect((await callback({ CallStatus: 'in-progress', SequenceNumber: '2' })).status).toBe(204);
    expect((await callback({ CallStatus: 'ringing', SequenceNumber: '1' })).status).toBe(204);
    expect(await callNow()).toEqual(before);
  });

  it('refuses a forged or unsigned callback with 403 FORBIDDEN and changes nothing', async () => {
    const before = await callNow();
    const forged = await callback({ CallStatus: 'completed', SequenceNumber: '9', CallDuration: '1' }, { authToken: 'not-the-auth-token' });
    expect(forged.status).toBe(403);
    expect(JSON.parse(forged.body)).toEqual({ success: false, error: { code: 'FORBIDDEN', message: expect.any(String) } });
    // Signed for another URL (what a Host header could claim), then not signed at all.
    expect(
      (
        await callback(
          { CallStatus: 'completed', SequenceNumber: '9' },
          { signedUrl: `https://attacker.example${WEBHOOK}?command_id=${commandId}` },
        )
      ).status,
    ).toBe(403);
    const unsigned = await fetch(callbackUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `CallSid=${sid}&CallStatus=completed&SequenceNumber=9`,
    });
    expect(unsigned.status).toBe(403);
    expect(await callNow()).toEqual(before);
  });

  it('records the final state with duration and answered_by, and keeps it against later events', async () => {
    expect((await callback({ CallStatus: 'completed', SequenceNumber: '3', CallDuration: '184', AnsweredBy: 'human' })).status).toBe(204);
    // Twilio retries a callback it thinks failed: the repeat changes nothing and counts nothing.
    expect((await callback({ CallStatus: 'completed', SequenceNumber: '3', CallDuration: '184', AnsweredBy: 'human' })).status).toBe(204);
    expect(((await read(commandId)).body.data?.usage as { call_seconds: number }).call_seconds).toBe(184);
    expect((await callback({ CallStatus: 'failed', SequenceNumber: '4' })).status).toBe(204);
    expect((await callback({ CallStatus: 'in-progress', SequenceNumber: '5' })).status).toBe(204);
    expect(await callNow()).toMatchObject({
      status: 'completed',
      provider_status: 'completed',
      duration_seconds: 184,
      answered_by: 'human',
      last_sequence: 3,
    });
  });

  it('takes no API key, and leaves /api’s 401 and other methods’ 405 as they were', async () => {
    expect((await call(runtime.url, 'GET', WEBHOOK)).status).toBe(405);
    expect((await call(runtime.url, 'GET', WEBHOOK)).headers.get('allow')).toBe('POST');
    expect((await call(runtime.url, 'POST', '/api/nope')).status).toBe(401);
    expect((await call(runtime.url, 'POST', '/webhooks/nope')).status).toBe(404);
  });

  it('answers 400 to a signed callback that names no command or is malformed, changing nothing', async () => {
    const url = `${runtime.publicBaseUrl}${WEBHOOK}`;
    const noCommand = await twilio.sendStatusCallback(url, { CallSid: sid, CallStatus: 'completed', SequenceNumber: '9' });
    expect(noCommand.status).toBe(400);
    expect((await callback({ CallStatus: 'exploded', SequenceNumber: '9' })).status).toBe(400);
    expect((await callNow()).last_sequence).toBe(3);
  });
});

describe('answerCallStatus', () => {
  it('reads a base64 form body (as API Gateway may send it) and checks the signature against PUBLIC_BASE_URL, not the Host', async () => {
    const applied: CallStatusUpdate[] = [];
    const deps = {
      calls: { applyStatus: async (_id: string, update: CallStatusUpdate) => (applied.push(update), true) },
      authToken: async () => 'token-1',
      publicBaseUrl: 'https://hooks.example.com/prod',
      clock: { now: () => 0 },
    };
    const params = { CallSid: 'CA0123456789abcdef0123456789abcdef', CallStatus: 'busy', SequenceNumber: '3' };
    const query = `command_id=${UNKNOWN}`;
    const event = (signedUrl: string) =>
      ({
        rawPath: WEBHOOK,
        rawQueryString: query,
        queryStringParameters: { command_id: UNKNOWN },
        headers: { host: 'attacker.example', 'x-twilio-signature': signTwilioRequest('token-1', signedUrl, params) },
        body: Buffer.from(new URLSearchParams(params).toString()).toString('base64'),
        isBase64Encoded: true,
      }) as unknown as HttpEvent;
    await expect(answerCallStatus(deps, event(`https://attacker.example${WEBHOOK}?${query}`))).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(applied).toEqual([]);
    expect((await answerCallStatus(deps, event(`https://hooks.example.com/prod${WEBHOOK}?${query}`))).statusCode).toBe(204);
    expect(applied).toEqual([
      { providerCallId: params.CallSid, status: 'failed', providerStatus: 'busy', sequence: 3, reason: 'the line was busy' },
    ]);
  });

  it('refuses everything while telephony is not configured (no auth token, or no PUBLIC_BASE_URL)', async () => {
    const params = { CallSid: 'CA0123456789abcdef0123456789abcdef', CallStatus: 'busy', SequenceNumber: '3' };
    const event = {
      rawPath: WEBHOOK,
      rawQueryString: '',
      headers: { 'x-twilio-signature': signTwilioRequest('token-1', `https://hooks.example.com${WEBHOOK}`, params) },
      body: new URLSearchParams(params).toString(),
      isBase64Encoded: false,
    } as unknown as HttpEvent;
    const base = { calls: { applyStatus: async () => true }, clock: { now: () => 0 } };
    await expect(
      answerCallStatus({ ...base, authToken: async () => undefined, publicBaseUrl: 'https://hooks.example.com' }, event),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(answerCallStatus({ ...base, authToken: async () => 'token-1' }, event)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(
      answerCallStatus({ ...base, authToken: async () => 'token-1', publicBaseUrl: 'https://hooks.example.com' }, event),
    ).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
  });
});
