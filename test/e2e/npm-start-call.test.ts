import { eventually } from '../support/embedded';
import { call } from '../support/http';
import { npmStart, settlesWithin, type NpmStart } from '../support/npm-start';

/**
 * `npm start` without Twilio settings: a stakeholder coordination's call
 * goes to the local telephony, labelled `provider: "local"`, and stays
 * `pending` (ringing) until someone answers it; no phone rings anywhere.
 */
const API_KEY = 'sbk_e2e-npm-start-call-key-000001';
const SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';

let run: NpmStart;

beforeAll(async () => {
  run = await npmStart({
    API_KEY,
    TWILIO_ACCOUNT_SID: undefined,
    TWILIO_AUTH_TOKEN: undefined,
    TWILIO_FROM_NUMBER: undefined,
    TWILIO_API_BASE_URL: undefined,
    PUBLIC_BASE_URL: undefined,
  });
});

afterAll(() => run.kill());

describe('npm start: a stakeholder call', () => {
  it('places a local call, labelled provider "local", that stays pending while it rings', async () => {
    const answer = await call(run.url, 'POST', '/api/agents/cmo/stakeholder-coordination', {
      key: API_KEY,
      headers: { prefer: 'wait=20' },
      body: { site_id: SITE, lead_id: LEAD, meeting_agenda: ['Winter campaign results'], phone_numbers: ['+14155550123'] },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      status: 'completed',
      generated_by: 'offline',
      call: { status: 'pending', provider: 'local', phone_number: '+14155550123' },
    });
    const id = String(answer.body.data?.command_id);

    // The local telephony reports initiated and ringing through the signed status webhook; the call stays pending.
    const ringing = await eventually(
      async () => {
        const read = await call(run.url, 'GET', `/api/commands/${id}`, { key: API_KEY });
        const live = read.body.data?.call as Record<string, unknown> | undefined;
        return live?.provider_status === 'ringing' ? live : undefined;
      },
      10_000,
      'the call to ring',
    );
    expect(ringing).toMatchObject({
      status: 'pending',
      provider: 'local',
      provider_call_id: expect.stringMatching(/^CA[0-9a-f]{32}$/),
      last_sequence: 1,
    });
  });

  it('stops cleanly on Ctrl-C', async () => {
    run.signalGroup('SIGINT');
    expect(await settlesWithin(run.closed, 15_000)).toBe(true);
  });
});
