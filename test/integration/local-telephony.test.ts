import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startLocalTelephony, type LocalTelephony } from '../../infra/local/local-telephony';
import { signTwilioRequest } from '../../infra/local/twilio-wire';
import { parseStatusCallback, type StatusCallback } from '../../shared/providers/telephony/call-status';
import { TelephonyError } from '../../shared/providers/telephony/port';
import { isValidTwilioSignature } from '../../shared/providers/telephony/signature';
import { createTwilioTelephony } from '../../shared/providers/telephony/twilio';
import { relayTwiml } from '../../shared/providers/telephony/twiml';
import { eventually } from '../support/embedded';

/** What the stand-in webhook received: each callback, and whether its signature held against the public URL. */
interface Received {
  valid: boolean;
  callback: StatusCallback;
  params: Record<string, string>;
}

let receiver: Server;
let publicBaseUrl: string;
let received: Received[];
let telephony: LocalTelephony;

/** Polls `read` until `check` holds (a deadline, no fixed sleeps). */
const until = <T>(read: () => T, check: (value: T) => boolean) =>
  eventually(
    async () => {
      const value = read();
      return check(value) ? value : undefined;
    },
    3_000,
    'the local telephony',
  );

beforeEach(async () => {
  received = [];
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      // The URL is rebuilt from the public base URL, never from the Host header.
      const url = `${publicBaseUrl}${req.url ?? '/'}`;
      const signature = req.headers['x-twilio-signature'];
      received.push({
        valid: isValidTwilioSignature(telephony.authToken, typeof signature === 'string' ? signature : undefined, url, params),
        callback: parseStatusCallback(params),
        params,
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  publicBaseUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await telephony?.stop();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const start = (ringTimeoutMs: number) => startLocalTelephony({ publicBaseUrl, ringTimeoutMs, onError: () => undefined });

function adapterOf(local: LocalTelephony) {
  return createTwilioTelephony({
    accountSid: local.accountSid,
    authToken: local.authToken,
    fromNumber: local.fromNumber,
    apiBaseUrl: local.baseUrl,
    provider: 'local',
  });
}

const placeWith = (local: LocalTelephony, query = 'command_id=cmd_1') =>
  adapterOf(local).placeCall({
    to: '+14155552671',
    twiml: relayTwiml({ relayUrl: 'ws://127.0.0.1:3000/relay', commandId: 'cmd_1', welcomeGreeting: 'Hello' }),
    statusCallbackUrl: `${publicBaseUrl}/webhooks/twilio/call-status?${query}`,
  });

describe('startLocalTelephony', () => {
  it('answers a create like Twilio, posts signed initiated and ringing at once, then no-answer after the ring timeout', async () => {
    telephony = await start(300);
    const placed = await placeWith(telephony);
    expect(placed).toMatchObject({ status: 'queued', provider: 'local' });
    expect(placed.sid).toMatch(/^CA[0-9a-f]{32}$/);

    const first = await until(
      () => received,
      (list) => list.length >= 2,
    );
    expect(
      first.slice(0, 2).map((entry) => [entry.callback.callStatus, entry.callback.sequenceNumber, entry.callback.sequenceSource]),
    ).toEqual([
      ['initiated', 0, 'twilio'],
      ['ringing', 1, 'twilio'],
    ]);
    expect(telephony.calls()[0]).toMatchObject({ sid: placed.sid, to: '+14155552671', from: telephony.fromNumber });
    expect(telephony.calls()[0]!.twiml).toContain('<Parameter name="command_id" value="cmd_1"/>');

    const all = await until(
      () => received,
      (list) => list.length >= 3,
    );
    expect(all).toHaveLength(3);
    expect(all[2]!.callback).toMatchObject({
      callSid: placed.sid,
      callStatus: 'no-answer',
      state: 'failed',
      sequenceNumber: 2,
      durationSeconds: 0,
    });
    expect(all.every((entry) => entry.valid)).toBe(true);
    expect(all.every((entry) => entry.params.AccountSid === telephony.accountSid && entry.params.To === '+14155552671')).toBe(true);
    expect(telephony.calls()[0]).toMatchObject({ status: 'no-answer' });
    // The receiver sees the last callback before the telephony has read the answer to it: wait for that answer.
    const answered = await until(
      () => telephony.calls()[0]!.callbacks,
      (callbacks) => callbacks.length === 3 && callbacks.every((callback) => callback.httpStatus !== undefined),
    );
    expect(answered.map((callback) => callback.httpStatus)).toEqual([204, 204, 204]);
  });

  it('signs over the full callback URL, query included, so a changed URL or token fails the check', async () => {
    telephony = await start(60_000);
    await placeWith(telephony, 'command_id=cmd_2&x=a%20b');
    const [entry] = await until(
      () => received,
      (list) => list.length >= 1,
    );
    expect(entry!.valid).toBe(true);
    const signedUrl = `${publicBaseUrl}/webhooks/twilio/call-status?command_id=cmd_2&x=a%20b`;
    const signature = signTwilioRequest(telephony.authToken, signedUrl, entry!.params);
    expect(isValidTwilioSignature(telephony.authToken, signature, signedUrl, entry!.params)).toBe(true);
    expect(isValidTwilioSignature(telephony.authToken, signature, signedUrl.replace('cmd_2', 'cmd_3'), entry!.params)).toBe(false);
    expect(isValidTwilioSignature('another-token', signature, signedUrl, entry!.params)).toBe(false);
  });

  it('posts in-progress on answer and completed with the duration on hang-up', async () => {
    telephony = await start(60_000);
    const placed = await placeWith(telephony);
    await until(
      () => telephony.calls()[0]?.status,
      (status) => status === 'ringing',
    );
    await telephony.answer(placed.sid);
    await telephony.hangUp(placed.sid);
    const all = await until(
      () => received,
      (list) => list.length >= 4,
    );
    expect(all.map((entry) => [entry.callback.callStatus, entry.callback.sequenceNumber])).toEqual([
      ['initiated', 0],
      ['ringing', 1],
      ['in-progress', 2],
      ['completed', 3],
    ]);
    expect(all[3]!.callback.durationSeconds).toBeGreaterThanOrEqual(0);
    expect(all.every((entry) => entry.valid)).toBe(true);
    expect(telephony.calls()[0]).toMatchObject({ status: 'completed' });
    expect(telephony.calls()[0]!.answeredAt).toBeDefined();
    await expect(telephony.answer(placed.sid)).rejects.toThrow(/completed, not ringing/);
  });

  it('posts busy when the call is declined while ringing, and nothing more after it ends', async () => {
    telephony = await start(200);
    const placed = await placeWith(telephony);
    await until(
      () => telephony.calls()[0]?.status,
      (status) => status === 'ringing',
    );
    await telephony.hangUp(placed.sid);
    const all = await until(
      () => received,
      (list) => list.length >= 3,
    );
    expect(all[2]!.callback).toMatchObject({ callStatus: 'busy', state: 'failed' });
    // The ring timer was cleared: after its time has passed, still no no-answer.
    await until(
      () => Date.now(),
      (now) => now > Date.parse(telephony.calls()[0]!.createdAt) + 400,
    );
    expect(received).toHaveLength(3);
  });

  it('refuses wrong credentials, invalid numbers and a StatusCallback outside the public base URL, like Twilio', async () => {
    telephony = await start(60_000);
    const wrongToken = createTwilioTelephony({
      accountSid: telephony.accountSid,
      authToken: 'nope',
      fromNumber: telephony.fromNumber,
      apiBaseUrl: telephony.baseUrl,
    });
    const call = { to: '+14155552671', twiml: '<Response/>', statusCallbackUrl: `${publicBaseUrl}/webhooks/twilio/call-status` };
    await expect(wrongToken.placeCall(call)).rejects.toMatchObject({ status: 401, code: 20003 });
    await expect(adapterOf(telephony).placeCall({ ...call, to: '+1555' })).rejects.toMatchObject({ status: 400, code: 21211 });
    const elsewhere = adapterOf(telephony).placeCall({ ...call, statusCallbackUrl: 'http://169.254.169.254/latest/meta-data' });
    await expect(elsewhere).rejects.toBeInstanceOf(TelephonyError);
    await expect(elsewhere).rejects.toMatchObject({ status: 400, code: 21609 });
    expect(telephony.calls()).toHaveLength(0);
  });

  it('sends only the completed event when the create subscribed to none, as Twilio does', async () => {
    telephony = await start(100);
    const response = await fetch(`${telephony.baseUrl}/2010-04-01/Accounts/${telephony.accountSid}/Calls.json`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${telephony.accountSid}:${telephony.authToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        To: '+14155552671',
        From: telephony.fromNumber,
        Twiml: '<Response/>',
        StatusCallback: `${publicBaseUrl}/cb`,
      }).toString(),
    });
    expect(response.status).toBe(201);
    const all = await until(
      () => received,
      (list) => list.length >= 1,
    );
    expect(all.map((entry) => entry.callback.callStatus)).toEqual(['no-answer']);
    expect(all[0]!.callback.sequenceNumber).toBe(0);
  });

  it('stops: no more callbacks, and its API is closed', async () => {
    telephony = await start(150);
    await placeWith(telephony);
    await until(
      () => received,
      (list) => list.length >= 2,
    );
    await telephony.stop();
    await expect(fetch(`${telephony.baseUrl}/2010-04-01/Accounts/x/Calls.json`, { method: 'POST' })).rejects.toThrow();
    await until(
      () => Date.now(),
      (now) => now > Date.parse(telephony.calls()[0]!.createdAt) + 300,
    );
    expect(received).toHaveLength(2);
  });
});
