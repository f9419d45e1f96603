import type { Context } from 'aws-lambda';
import { lambdaContext } from '../../../infra/local/lambda-context';
import { signTwilioRequest } from '../../../infra/local/twilio-wire';
import type { CallCommand } from '../../../shared/calls/record';
import type { HttpEvent, HttpResult } from '../../../shared/platform/http/types';
import { eventually } from '../../support/embedded';
import { AUTH_TOKEN, callStatusWebhookOf, voiceHarness, type PlacedCall, type VoiceHarness } from './harness';

/**
 * POST /webhooks/twilio/relay-ended, the TwiML's `<Connect action>`: Twilio's
 * signed report that a call's relay session ended (the Twilio webhook
 * function, functions/webhooks/twilio-call-status.ts, composed with its
 * settings). It requests the post-call summary once, with the socket's
 * close and the status callback, and hangs up.
 */
const RELAY_ENDED = '/webhooks/twilio/relay-ended';
const PUBLIC_BASE_URL = 'https://switchboard.example.com';
const HANGUP = '<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>';

let voice: VoiceHarness;
let webhook: (event: HttpEvent, context: Context) => Promise<HttpResult>;

beforeAll(async () => {
  voice = await voiceHarness();
  webhook = callStatusWebhookOf(voice, PUBLIC_BASE_URL);
}, 60_000);
afterAll(() => voice.stop());

const command = (id: string): Promise<CallCommand> => voice.stakeholder.command(id);

/** The session report as Twilio sends it: form body, signed over PUBLIC_BASE_URL + path + query (`signature` replaces it). */
function report(commandId: string, params: Record<string, string>, signature?: string | null): Promise<HttpResult> {
  const query = `command_id=${commandId}`;
  const signed = signTwilioRequest(AUTH_TOKEN, `${PUBLIC_BASE_URL}${RELAY_ENDED}?${query}`, params);
  const event = {
    routeKey: `POST ${RELAY_ENDED}`,
    rawPath: RELAY_ENDED,
    rawQueryString: query,
    queryStringParameters: { command_id: commandId },
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(signature === null ? {} : { 'x-twilio-signature': signature ?? signed }),
    },
    body: new URLSearchParams(params).toString(),
    isBase64Encoded: false,
  } as unknown as HttpEvent;
  return webhook(event, lambdaContext('twilioCallStatusWebhook', 5));
}

const ended = (call: PlacedCall) => ({
  CallSid: call.callSid,
  SessionId: 'VX0123456789abcdef0123456789abcdef',
  SessionStatus: 'completed',
  SessionDuration: '95',
  HandoffData: JSON.stringify({ reason: 'conversation_ended', command_id: call.commandId }),
});

describe('the relay session report (<Connect action>)', () => {
  it('refuses an unsigned report, or one signed with another token or over other fields (403), and requests nothing', async () => {
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    await caller.say('Yes, now is fine.');
    const params = ended(call);
    for (const signature of [
      null,
      signTwilioRequest('another-token', `${PUBLIC_BASE_URL}${RELAY_ENDED}?command_id=${call.commandId}`, params),
      signTwilioRequest(AUTH_TOKEN, `${PUBLIC_BASE_URL}${RELAY_ENDED}?command_id=${call.commandId}`, { ...params, SessionDuration: '1' }),
    ]) {
      const answer = await report(call.commandId, params, signature);
      expect(answer.statusCode).toBe(403);
      expect(JSON.parse(answer.body)).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
    }
    expect((await command(call.commandId)).meeting_summary).toBeUndefined();
    caller.close();
    await caller.closed;
  });

  it('requests the summary of the call once, however often it is reported and with the socket’s close, and hangs up', async () => {
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    await caller.say('We decided to keep the January budget at 12000 dollars.');

    const answer = await report(call.commandId, ended(call));
    expect(answer).toMatchObject({ statusCode: 200, body: HANGUP, headers: { 'content-type': 'text/xml; charset=utf-8' } });
    const stored = await command(call.commandId);
    expect(stored.meeting_summary).toMatchObject({ status: 'pending', command_id: expect.any(String) });
    const childId = stored.meeting_summary!.command_id!;
    expect(stored.child_ids).toEqual([childId]);

    expect((await report(call.commandId, ended(call))).body).toBe(HANGUP);
    caller.close();
    await caller.closed;
    await eventually(async () => (voice.relay.open() === 0 ? true : undefined), 15_000, 'the socket to close');
    await voice.relay.settled();
    expect((await command(call.commandId)).child_ids).toEqual([childId]);
    const jobs = (await voice.summaryJobs()).filter((job) => job.command_id === childId);
    expect(jobs).toHaveLength(1);
  });

  it('hangs up on a report for a call the command does not hold, and requests nothing', async () => {
    const call = await voice.placedCall();
    const other = await voice.placedCall();
    const caller = await voice.answered(call);
    await caller.say('Hello?');
    expect((await report(call.commandId, { ...ended(call), CallSid: other.callSid })).body).toBe(HANGUP);
    expect((await command(call.commandId)).meeting_summary).toBeUndefined();
    caller.close();
    await caller.closed;
  });

  it.each([
    ['names no command', 'not-a-uuid', (call: PlacedCall) => ended(call)],
    ['names no call', undefined, (call: PlacedCall) => ({ ...ended(call), CallSid: 'nope' })],
  ])('answers 400 INVALID_REQUEST to a signed report that %s', async (_, commandId, params) => {
    const call = await voice.placedCall();
    const answer = await report(commandId ?? call.commandId, params(call));
    expect(answer.statusCode).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'INVALID_REQUEST' } });
    expect((await command(call.commandId)).meeting_summary).toBeUndefined();
  });
});
