import { Webhook as StandardWebhook } from 'standardwebhooks';
import { startLocalRuntime, type LocalRuntime } from '../../../infra/local/runtime';
import { verifyWebhookSignature } from '../../../shared/webhooks/signature';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../../fakes/webhook-receiver';
import { eventually } from '../../support/embedded';
import { call, type JsonAnswer } from '../../support/http';

/**
 * Managing endpoints and events through the local runtime, as a tenant who
 * knows Stripe's and Svix's dashboards would: PATCH an endpoint (each field;
 * bad input changes nothing; another tenant's is not found), send it a test
 * event, list the tenant's events (type filter, cursor), and redeliver one
 * to every endpoint that subscribes to it.
 */
const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
const OTHER_TENANT_KEY = 'sbk_manage-endpoints-other-tenant-01';

let runtime: LocalRuntime;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  runtime = await startLocalRuntime({
    port: 0,
    scheduleEveryMs: 0,
    apiKeys: { [OTHER_TENANT_KEY]: [] },
    settings: { LOG_LEVEL: 'SILENT', OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined, LEAD_FOLLOW_UP_OUTPUT: 'channel_messages' },
  });
}, 60_000);

afterAll(async () => {
  await runtime?.stop();
  await receiver?.close();
});

const api = (method: string, path: string, body?: unknown, key = runtime.apiKey) =>
  call(runtime.url, method, path, { key, ...(body === undefined ? {} : { body }) });

async function register(path: string, events?: string[]): Promise<{ id: string; secret: string }> {
  const answer = await api('POST', '/api/webhooks', { url: `${receiver.url}${path}`, ...(events ? { events } : {}) });
  expect(answer.status).toBe(201);
  return { id: String(answer.body.data?.id), secret: String(answer.body.data?.secret) };
}

const endpointView = async (id: string) =>
  ((await api('GET', '/api/webhooks')).body.data!.webhooks as Record<string, unknown>[]).find((item) => item.id === id);

function expectValidationError(answer: JsonAnswer, path?: string[]): void {
  expect(answer.status).toBe(400);
  expect(answer.body.error?.code).toBe('VALIDATION_ERROR');
  if (path) expect(answer.body.error?.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
}

/** Runs a lead follow-up to its end: its `command.completed` goes to the endpoints subscribed. */
async function leadFollowUp(): Promise<string> {
  const answer = await call(runtime.url, 'POST', '/api/agents/sales/leadFollowUp', {
    key: runtime.apiKey,
    body: { siteId: DEMO_SITE, leadId: DEMO_LEAD },
    headers: { prefer: 'wait=20' },
  });
  expect(answer.status).toBe(200);
  return String(answer.body.data?.command_id);
}

/** Waits until `count` is `expected`. */
const until = (count: () => number, expected: number) =>
  eventually(async () => (count() === expected ? true : undefined), 20_000, `${expected} deliveries`);

const commandOf = (item: ReceivedWebhook) => (item.body.data.command as { command_id?: string } | undefined)?.command_id;

describe('GET /api/webhooks/{id}', () => {
  it('shows one endpoint as the list does, never its secret; another tenant’s, a deleted one or a malformed id is not found', async () => {
    const { id, secret } = await register('/show', ['command.failed']);

    const shown = await api('GET', `/api/webhooks/${id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.data).toEqual(await endpointView(id));
    expect(shown.body.data).toMatchObject({ id, url: `${receiver.url}/show`, events: ['command.failed'] });
    expect(JSON.stringify(shown.body)).not.toContain(secret);

    expect((await api('GET', `/api/webhooks/${id}`, undefined, OTHER_TENANT_KEY)).body.error?.code).toBe('NOT_FOUND');
    expect((await api('GET', '/api/webhooks/not-an-id')).status).toBe(404);
    expect((await api('DELETE', `/api/webhooks/${id}`)).status).toBe(200);
    expect((await api('GET', `/api/webhooks/${id}`)).status).toBe(404);
  });
});

describe('PATCH /api/webhooks/{id}', () => {
  it('changes each field given and answers the endpoint, never its secret', async () => {
    const { id, secret } = await register('/patch-a');
    const url = await api('PATCH', `/api/webhooks/${id}`, { url: `${receiver.url}/patch-b` });
    expect(url.status).toBe(200);
    expect(url.body.data).toMatchObject({ id, url: `${receiver.url}/patch-b`, events: ['*'], status: 'enabled', disabled: false });
    expect(url.text).not.toContain(secret);
    expect(url.body.data).not.toHaveProperty('secret');

    const events = await api('PATCH', `/api/webhooks/${id}`, { events: ['command.failed', 'command.completed'] });
    expect(events.body.data?.events).toEqual(['command.completed', 'command.failed']);
    const described = await api('PATCH', `/api/webhooks/${id}`, { description: '  CRM v2 ' });
    expect(described.body.data?.description).toBe('CRM v2');
    const cleared = await api('PATCH', `/api/webhooks/${id}`, { description: '' });
    expect(cleared.body.data).not.toHaveProperty('description');

    const disabled = await api('PATCH', `/api/webhooks/${id}`, { disabled: true });
    expect(disabled.body.data).toMatchObject({
      status: 'disabled',
      disabled: true,
      disabled_reason: 'requested',
      disabled_at: expect.any(String),
    });
    expect(await endpointView(id)).toMatchObject({ disabled: true, disabled_reason: 'requested' });
    const enabled = await api('PATCH', `/api/webhooks/${id}`, { disabled: false });
    expect(enabled.body.data).toMatchObject({
      status: 'enabled',
      disabled: false,
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
    });
    expect(await endpointView(id)).toMatchObject({ url: `${receiver.url}/patch-b`, events: ['command.completed', 'command.failed'] });
    await api('DELETE', `/api/webhooks/${id}`);
  });

  it.each([
    ['an empty body', {}, []],
    ['an unknown field', { secret: 'whsec_mine' }, []],
    ['a private address', { url: 'https://10.0.0.7/hooks' }, ['url']],
    ['another scheme', { url: 'ftp://127.0.0.1/hooks' }, ['url']],
    ['an unknown event type', { events: ['command.exploded'] }, ['events', '0']],
    ['an empty event list', { events: [] }, ['events']],
    ['disabled that is not a boolean', { disabled: 'yes' }, ['disabled']],
    ['a valid field beside a bad one', { description: 'kept?', url: 'not a url' }, ['url']],
  ])('refuses %s with 400 and changes nothing', async (_what, body, path) => {
    const { id } = await register('/patch-bad');
    const before = await endpointView(id);
    expectValidationError(await api('PATCH', `/api/webhooks/${id}`, body), path);
    expect(await endpointView(id)).toEqual(before);
    await api('DELETE', `/api/webhooks/${id}`);
  });

  it('refuses a missing or non-JSON body, and answers 404 for another tenant’s endpoint or a malformed id', async () => {
    const { id } = await register('/patch-other');
    expectValidationError(await api('PATCH', `/api/webhooks/${id}`));
    expectValidationError(await call(runtime.url, 'PATCH', `/api/webhooks/${id}`, { key: runtime.apiKey, rawBody: '{"url":' }));
    const other = await api('PATCH', `/api/webhooks/${id}`, { disabled: true }, OTHER_TENANT_KEY);
    expect(other.status).toBe(404);
    expect(other.body.error?.code).toBe('NOT_FOUND');
    expect((await endpointView(id))?.disabled).toBe(false);
    expect((await api('PATCH', '/api/webhooks/we_nope', { disabled: true })).status).toBe(404);
    await api('DELETE', `/api/webhooks/${id}`);
  });
});

describe('POST /api/webhooks/{id}/test', () => {
  it('sends a signed webhook.test now and answers the attempt: status, duration, excerpt', async () => {
    const { id, secret } = await register('/test-ok');
    receiver.answerNext(1, { status: 201, body: `ok ${'x'.repeat(400)}` }, '/test-ok');
    const answer = await api('POST', `/api/webhooks/${id}/test`);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({
      event_id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      status: 201,
      duration_ms: expect.any(Number),
      excerpt: expect.stringMatching(/^ok x+…$/),
    });
    expect(String(answer.body.data?.excerpt).length).toBeLessThanOrEqual(257);
    const sent = receiver.received.filter((item) => item.path === '/test-ok');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toMatchObject({ id: answer.body.data?.event_id, type: 'webhook.test', data: { webhook_endpoint: { id } } });
    expect(verifyWebhookSignature(secret, String(sent[0]!.headers['switchboard-signature']), sent[0]!.rawBody)).toBe(true);
    const headers = Object.fromEntries(Object.entries(sent[0]!.headers).map(([name, value]) => [name, String(value)]));
    expect(new StandardWebhook(secret).verify(sent[0]!.rawBody, headers)).toMatchObject({ type: 'webhook.test' });
    await api('DELETE', `/api/webhooks/${id}`);
  });

  it('works for a disabled endpoint, and reports a failing answer or no answer at all', async () => {
    const { id } = await register('/test-failing');
    await api('PATCH', `/api/webhooks/${id}`, { disabled: true });
    receiver.answerNext(1, { status: 503, body: 'down for maintenance' }, '/test-failing');
    const failing = await api('POST', `/api/webhooks/${id}/test`);
    expect(failing.body.data).toMatchObject({ status: 503, excerpt: 'down for maintenance' });
    expect(receiver.received.filter((item) => item.path === '/test-failing')).toHaveLength(1);

    // Nothing listens on port 9 (discard): no answer, and why.
    await api('PATCH', `/api/webhooks/${id}`, { url: 'http://127.0.0.1:9/hooks' });
    const unreachable = await api('POST', `/api/webhooks/${id}/test`);
    expect(unreachable.status).toBe(200);
    expect(unreachable.body.data).toMatchObject({ status: null, excerpt: null, error: expect.stringMatching(/request failed/) });
    expect((await api('POST', `/api/webhooks/${id}/test`, undefined, OTHER_TENANT_KEY)).status).toBe(404);
    await api('DELETE', `/api/webhooks/${id}`);
  });
});

describe('the tenant’s events', () => {
  it('are listed newest first, filtered by type, a page at a time; and redelivered to every subscribed endpoint once', async () => {
    const first = await register('/events-a', ['command.completed']);
    const second = await register('/events-b');
    const unsubscribed = await register('/events-c', ['command.failed']);
    const commands = [await leadFollowUp(), await leadFollowUp(), await leadFollowUp()];
    await until(() => receiver.received.filter((item) => item.path === '/events-b').length, 3);

    const all = await api('GET', '/api/events?limit=100');
    expect(all.status).toBe(200);
    const listed = all.body.data!.events as { id: string; type: string; created_at: string; data: Record<string, unknown> }[];
    const ours = listed.filter((event) => commands.includes(String((event.data.command as { command_id?: string }).command_id)));
    expect(ours.map((event) => (event.data.command as { command_id: string }).command_id)).toEqual([...commands].reverse());
    expect(ours.every((event) => event.type === 'command.completed')).toBe(true);
    expect(all.body.data?.next_cursor).toBeNull();

    const firstPage = await api('GET', '/api/events?type=command.completed&limit=2');
    expect((firstPage.body.data!.events as unknown[]).length).toBe(2);
    const cursor = String(firstPage.body.data?.next_cursor);
    const secondPage = await api('GET', `/api/events?type=command.completed&limit=2&cursor=${cursor}`);
    const pageIds = [...(firstPage.body.data!.events as { id: string }[]), ...(secondPage.body.data!.events as { id: string }[])].map(
      (event) => event.id,
    );
    expect(new Set(pageIds).size).toBe(pageIds.length);
    expect(pageIds.slice(0, 3)).toEqual(ours.map((event) => event.id));
    expect((await api('GET', '/api/events?type=command.failed')).body.data?.events).toEqual([]);
    expect((await api('GET', '/api/events', undefined, OTHER_TENANT_KEY)).body.data?.events).toEqual([]);
    expectValidationError(await api('GET', '/api/events?type=command.exploded'), ['type']);
    expectValidationError(await api('GET', '/api/events?limit=101'), ['limit']);
    expectValidationError(await api('GET', '/api/events?cursor=nonsense'), ['cursor']);

    const target = ours[0]!;
    const before = (path: string) => receiver.received.filter((item) => item.path === path && item.body.id === target.id).length;
    expect([before('/events-a'), before('/events-b')]).toEqual([1, 1]);
    const redelivered = await api('POST', `/api/events/${target.id}/redeliver`);
    expect(redelivered.status).toBe(202);
    expect(redelivered.body.data).toEqual({
      event_id: target.id,
      type: 'command.completed',
      queued: expect.arrayContaining([{ endpoint_id: first.id }, { endpoint_id: second.id }]),
      skipped: [],
    });
    expect(redelivered.body.data?.queued).toHaveLength(2);
    await until(() => before('/events-a') + before('/events-b'), 4);
    expect([before('/events-a'), before('/events-b')]).toEqual([2, 2]);
    expect(receiver.received.filter((item) => item.path === '/events-c')).toHaveLength(0);
    expect(commandOf(receiver.received.filter((item) => item.path === '/events-a').at(-1)!)).toBe(commands[2]);

    expect((await api('POST', `/api/events/${target.id}/redeliver`, undefined, OTHER_TENANT_KEY)).status).toBe(404);
    expect((await api('POST', '/api/events/evt_nope/redeliver')).status).toBe(404);
    for (const { id } of [first, second, unsubscribed]) await api('DELETE', `/api/webhooks/${id}`);
  });
});
