import { TelephonyError, type OutboundCall } from '../../shared/providers/telephony/port';
import { createTwilioTelephony } from '../../shared/providers/telephony/twilio';
import { relayTwiml } from '../../shared/providers/telephony/twiml';
import { startFakeTwilio, type FakeTwilio } from '../fakes/twilio';

const call: OutboundCall = {
  to: '+14155552671',
  twiml: relayTwiml({ relayUrl: 'wss://hooks.example.com/relay', commandId: 'cmd_123', welcomeGreeting: 'Hello from Switchboard' }),
  statusCallbackUrl: 'https://hooks.example.com/webhooks/twilio/call-status?command_id=cmd_123',
};

let fake: FakeTwilio;

beforeEach(async () => {
  fake = await startFakeTwilio({ pathPrefix: '/twilio' });
});

afterEach(async () => {
  await fake.close();
});

const telephonyOf = (overrides: Partial<Parameters<typeof createTwilioTelephony>[0]> = {}) =>
  createTwilioTelephony({
    accountSid: fake.accountSid,
    authToken: fake.authToken,
    fromNumber: fake.fromNumber,
    apiBaseUrl: fake.baseUrl,
    ...overrides,
  });

async function failureOf(work: Promise<unknown>): Promise<TelephonyError> {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(TelephonyError);
  return error as TelephonyError;
}

function expectNoCredentials(error: Error) {
  expect(error.message).not.toContain(fake.authToken);
  expect(error.message).not.toContain(fake.accountSid);
  expect(error.message).not.toMatch(/Basic [A-Za-z0-9+/=]{8,}/);
}

describe('createTwilioTelephony against the loopback Twilio fake', () => {
  it('creates the call with the form fields Twilio expects, below the base URL path prefix, with Basic auth', async () => {
    const placed = await telephonyOf().placeCall({ ...call, ringTimeoutSeconds: 25 });

    expect(placed).toEqual({ sid: fake.calls[0]!.sid, status: 'queued', provider: 'twilio' });
    expect(placed.sid).toMatch(/^CA[0-9a-f]{32}$/);
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe(`/twilio/2010-04-01/Accounts/${fake.accountSid}/Calls.json`);
    expect(request!.headers.authorization).toBe(`Basic ${Buffer.from(`${fake.accountSid}:${fake.authToken}`).toString('base64')}`);
    expect(request!.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(request!.form).toEqual({
      To: '+14155552671',
      From: fake.fromNumber,
      Twiml: call.twiml,
      StatusCallback: call.statusCallbackUrl,
      StatusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
      StatusCallbackMethod: 'POST',
      Timeout: '25',
    });
  });

  it('lets a call ring 30 s unless told otherwise, and labels calls of the local telephony `local`', async () => {
    const placed = await telephonyOf({ provider: 'local' }).placeCall(call);
    expect(placed.provider).toBe('local');
    expect(fake.requests[0]!.form.Timeout).toBe('30');
  });

  it('turns Twilio 21211 (invalid To) into a TelephonyError with code 21211 and status 400', async () => {
    const error = await failureOf(telephonyOf().placeCall({ ...call, to: '+1555' }));
    expect(error.code).toBe(21211);
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/400.*21211.*not a valid phone number/);
    expectNoCredentials(error);
  });

  it('reports refused credentials as a 401 / 20003 error that names neither the token nor the header', async () => {
    const error = await failureOf(telephonyOf({ authToken: 'wrong-token-0123456789abcdef' }).placeCall(call));
    expect(error.status).toBe(401);
    expect(error.code).toBe(20003);
    expect(error.message).toMatch(/account SID or auth token was refused/);
    expect(error.message).not.toContain('wrong-token-0123456789abcdef');
    expectNoCredentials(error);
    expect(fake.calls).toHaveLength(0);
  });

  it('never retries a create: a 500 comes back at once after exactly one request', async () => {
    fake.failNext('server-error', 3);
    const error = await failureOf(telephonyOf().placeCall(call));
    expect(error.status).toBe(500);
    expect(error.code).toBe(20500);
    expect(error.message).toMatch(/not tried again/);
    expect(fake.requests).toHaveLength(1);
  });

  it('never retries a 429 either (the library auto-retry stays off)', async () => {
    fake.failNext('rate-limited', 3);
    const error = await failureOf(telephonyOf().placeCall(call));
    expect(error.status).toBe(429);
    expect(fake.requests).toHaveLength(1);
  });

  it('gives up after its timeout, with an error that says the outcome is unknown, and does not try again', async () => {
    fake.failNext({ hangMs: 5_000 });
    const started = Date.now();
    const error = await failureOf(telephonyOf({ timeoutMs: 300 }).placeCall(call));
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(error.status).toBeUndefined();
    expect(error.message).toMatch(/did not (finish answering|answer) within 300 ms.*unknown/);
    expect(fake.requests).toHaveLength(1);
  });

  it('reports an answer that is not JSON as an unknown outcome', async () => {
    fake.failNext('malformed');
    const error = await failureOf(telephonyOf().placeCall(call));
    expect(error.message).toMatch(/unknown/);
    expect(fake.requests).toHaveLength(1);
  });

  it('removes credentials a provider message might echo, and bounds its length', async () => {
    const echoed = `Bad request from ${fake.accountSid} with Basic ${Buffer.from(`x:${fake.authToken}`).toString('base64')} token ${fake.authToken} ${'x'.repeat(600)}`;
    fake.failNext({ status: 400, code: 21999, message: echoed });
    const error = await failureOf(telephonyOf().placeCall(call));
    expect(error.code).toBe(21999);
    expectNoCredentials(error);
    expect(error.message.length).toBeLessThan(400);
  });

  it('reports an unreachable Twilio without a status', async () => {
    const base = fake.baseUrl;
    await fake.close();
    const error = await failureOf(telephonyOf({ apiBaseUrl: base }).placeCall(call));
    expect(error.status).toBeUndefined();
    expect(error.message).toMatch(/could not be reached \(ECONNREFUSED\)/);
    fake = await startFakeTwilio();
  });
});
