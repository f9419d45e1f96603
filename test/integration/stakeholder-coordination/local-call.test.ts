import { startLocalRuntime, type LocalRuntime } from '../../../infra/local/runtime';
import { eventually } from '../../support/embedded';
import { call } from '../../support/http';

/**
 * The local telephony of `npm start` carrying a stakeholder call end to end:
 * labelled `local`, `pending` while it rings, `failed` with a reason when
 * nobody answers in time, `in_progress` then `completed` when answered.
 */
const SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
const API_KEY = 'sbk_stakeholder-local-call-0000000001';

let runtime: LocalRuntime;

beforeAll(async () => {
  runtime = await startLocalRuntime({
    port: 0,
    apiKey: API_KEY,
    scheduleEveryMs: 0,
    localRingTimeoutMs: 1_500,
    settings: {
      LOG_LEVEL: 'SILENT',
      OPENAI_API_KEY: undefined,
      TWILIO_ACCOUNT_SID: undefined,
      TWILIO_AUTH_TOKEN: undefined,
      TWILIO_FROM_NUMBER: undefined,
      PUBLIC_BASE_URL: undefined,
    },
  });
});
afterAll(() => runtime.stop());

async function placeCall(number: string): Promise<{ id: string; sid: string }> {
  const answer = await call(runtime.url, 'POST', '/api/agents/cmo/stakeholder-coordination', {
    key: API_KEY,
    headers: { prefer: 'wait=20' },
    body: { site_id: SITE, lead_id: LEAD, meeting_title: 'Q4 review', meeting_objective: 'Agree on Q1', phone_numbers: [number] },
  });
  expect(answer.body.data).toMatchObject({ status: 'completed', call: { status: 'pending', provider: 'local' } });
  const held = runtime.localTelephony!.calls().find((candidate) => candidate.to === number)!;
  expect(held.twiml).toContain(`<Parameter name="command_id" value="${String(answer.body.data?.command_id)}"/>`);
  return { id: String(answer.body.data?.command_id), sid: held.sid };
}

const liveCall = (id: string, wanted: (call: Record<string, unknown>) => boolean, what: string) =>
  eventually(
    async () => {
      const live = (await call(runtime.url, 'GET', `/api/commands/${id}`, { key: API_KEY })).body.data?.call as
        Record<string, unknown> | undefined;
      return live && wanted(live) ? live : undefined;
    },
    10_000,
    what,
  );

describe('a local call', () => {
  it('fails with a reason when nobody answers in time', async () => {
    const { id } = await placeCall('+14155550150');
    expect(await liveCall(id, (live) => live.status !== 'pending', 'the call to end')).toMatchObject({
      status: 'failed',
      provider: 'local',
      provider_status: 'no-answer',
      reason: 'nobody answered',
    });
  });

  it('is in progress once answered, and completed with its duration once hung up', async () => {
    const { id, sid } = await placeCall('+14155550151');
    await liveCall(id, (live) => live.provider_status === 'ringing', 'the call to ring');
    await runtime.localTelephony!.answer(sid);
    expect(await liveCall(id, (live) => live.status === 'in_progress', 'the call to be answered')).toMatchObject({ provider_call_id: sid });
    await runtime.localTelephony!.hangUp(sid);
    expect(await liveCall(id, (live) => live.status === 'completed', 'the call to end')).toMatchObject({
      duration_seconds: expect.any(Number),
      provider_status: 'completed',
    });
    expect(
      runtime
        .localTelephony!.calls()
        .find((held) => held.sid === sid)!
        .callbacks.every((callback) => callback.httpStatus === 204),
    ).toBe(true);
    // As Twilio does at the end of a relay session: the TwiML's <Connect action> hears of it, signed, and hangs up.
    expect(runtime.localTelephony!.calls().find((held) => held.sid === sid)!.sessionReport).toEqual({ httpStatus: 200 });
  });
});
