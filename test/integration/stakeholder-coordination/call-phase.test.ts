import { createHash } from 'node:crypto';
import { readRelayVoice } from '../../../shared/providers/telephony/relay-settings';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { JobEnvelope } from '../../../shared/commands/job';
import { environmentSecrets } from '../../../shared/platform/secrets';
import { createOfflineLlm } from '../../../shared/providers/llm/offline';
import { createOpenAiLlm } from '../../../shared/providers/llm/openai';
import { configuredTelephony } from '../../../shared/providers/telephony/from-settings';
import type { Telephony } from '../../../shared/providers/telephony/port';
import { ABANDONED_CALL_REASON, NOT_CONFIGURED_REASON } from '../../../shared/stakeholder-coordination/call-phase';
import type { CallStore } from '../../../shared/stakeholder-coordination/call-store';
import { offlineMeetingDetails } from '../../../shared/stakeholder-coordination/offline-meeting';
import { readStakeholderCommand } from '../../../shared/stakeholder-coordination/command-object';
import { commandView } from '../../../shared/api/command-responses';
import { startOpenAiFake, type OpenAiFake } from '../../fakes/openai';
import { startFakeTwilio, type FakeTwilio } from '../../fakes/twilio';
import { PUBLIC_BASE_URL, stakeholderHarness, type StakeholderHarness } from './harness';

/**
 * The call worker's phase against the embedded DynamoDB: the meeting
 * details settled with the OpenAI fake or the offline writer, the call
 * placed through the real twilio library talking to the loopback Twilio
 * fake, never twice.
 */
let harness: StakeholderHarness;
let twilio: FakeTwilio;
let openai: OpenAiFake;

beforeAll(async () => {
  harness = await stakeholderHarness();
  twilio = await startFakeTwilio({ pathPrefix: '/twilio' });
  openai = await startOpenAiFake();
});
afterAll(async () => {
  await twilio.close();
  await openai.close();
  await harness.stop();
});

const viaTwilio = () => configuredTelephony({ settings: twilio.settings, secrets: environmentSecrets(twilio.settings) });
const callsTo = (number: string) => twilio.calls.filter((call) => call.to === number);

describe('the meeting details', () => {
  it('are written by the model when the title and objective are missing, and replace the provisional ones before the command completes', async () => {
    openai.enqueue({
      content: { title: 'Winter results and the January budget', objective: 'Agree how to split the January budget across channels.' },
    });
    const accepted = await harness.accept({ meeting_agenda: ['Winter campaign results', 'Budget for January'] });
    expect(accepted.status).toBe(202);
    expect(accepted.data.meeting_details).toEqual({
      title: 'Winter campaign results and budget for January',
      objective: expect.stringMatching(/^Review winter campaign results/),
    });

    await harness.deliver(accepted.job!, { llm: createOpenAiLlm({ apiKey: 'sk-test', baseUrl: openai.baseUrl, model: 'gpt-4o-mini' }) });
    const command = await harness.command(accepted.data.command_id as string);
    expect(command.status).toBe('completed');
    const stored = readStakeholderCommand(command);
    expect(stored.meeting).toEqual({
      title: 'Winter results and the January budget',
      objective: 'Agree how to split the January budget across channels.',
      dynamic: true,
    });
    expect(stored.prompts[0]!.content).toContain('Meeting: Winter results and the January budget');
    expect(stored.prompts[1]!.content).toContain('Objective: Agree how to split the January budget across channels.');
    // The result keeps what the phase decided; GET shows the prompts (and the rest of the command object) from the command.
    expect(Object.keys(command.result!).sort()).toEqual(['conversation_id', 'generated_by', 'meeting_details']);
    expect(commandView(command).data).toMatchObject({
      meeting_details: {
        title: 'Winter results and the January budget',
        objective: 'Agree how to split the January budget across channels.',
      },
      generated_by: 'openai',
      system_prompts: [
        expect.objectContaining({ phase: 'pre_call', content: expect.stringContaining('Winter results and the January budget') }),
        expect.any(Object),
      ],
    });
    const request = openai.requests.at(-1)!.body as ChatCompletionCreateParamsNonStreaming & {
      response_format: { json_schema: { name: string } };
    };
    expect(request.response_format.json_schema.name).toBe('stakeholder_meeting_details');
    expect(JSON.stringify(request.messages)).toContain('Budget for January');
  });

  it('are written by the offline writer through the offline LLM, deterministically', async () => {
    const accepted = await harness.accept({ meeting_objective: 'Decide the January split', meeting_agenda: 'Winter campaign results' });
    await harness.deliver(accepted.job!, { llm: createOfflineLlm() });
    const command = await harness.command(accepted.data.command_id as string);
    const stored = readStakeholderCommand(command);
    expect(stored.meeting).toEqual({ ...offlineMeetingDetails(stored.context, { objective: 'Decide the January split' }), dynamic: true });
    expect(stored.meeting.title).toBe('Winter campaign results');
    expect(command.result).toMatchObject({
      generated_by: 'offline',
      meeting_details: { title: 'Winter campaign results', objective: 'Decide the January split' },
    });
  });

  it('are kept as given, without asking the model', async () => {
    const before = openai.requests.length;
    const accepted = await harness.accept({ meeting_title: 'Q4 review', meeting_objective: 'Agree on Q1' });
    await harness.deliver(accepted.job!, { llm: createOpenAiLlm({ apiKey: 'sk-test', baseUrl: openai.baseUrl, model: 'gpt-4o-mini' }) });
    const command = await harness.command(accepted.data.command_id as string);
    expect(readStakeholderCommand(command).meeting).toEqual({ title: 'Q4 review', objective: 'Agree on Q1', dynamic: false });
    expect(openai.requests.length).toBe(before);
  });
});

describe('the call', () => {
  it('is placed through Twilio: Basic auth, the form fields, the TwiML to the relay socket, a signed status callback per event', async () => {
    const accepted = await harness.accept({
      meeting_title: 'Q4 review',
      meeting_objective: 'Agree on Q1',
      phone_numbers: ['+14155550123', '+442071838750'],
    });
    expect(accepted.data.call).toMatchObject({
      status: 'pending',
      phone_number: '+14155550123',
      note: expect.stringContaining('Only the first number'),
    });
    const commandId = accepted.data.command_id as string;
    await harness.deliver(accepted.job!, { telephony: viaTwilio() });

    const creates = twilio.requests.filter((request) => request.path.endsWith('/Calls.json'));
    const create = creates.at(-1)!;
    expect(create.path).toBe(`/twilio/2010-04-01/Accounts/${twilio.accountSid}/Calls.json`);
    expect(create.headers.authorization).toBe(`Basic ${Buffer.from(`${twilio.accountSid}:${twilio.authToken}`).toString('base64')}`);
    expect(create.form).toMatchObject({
      To: '+14155550123',
      From: twilio.fromNumber,
      StatusCallback: `${PUBLIC_BASE_URL}/webhooks/twilio/call-status?command_id=${commandId}`,
      StatusCallbackMethod: 'POST',
      StatusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
    });
    const twiml = String(create.form.Twiml);
    const token = /<ConversationRelay url="wss:\/\/switchboard\.example\.com\/prod\/relay\?token=([A-Za-z0-9_-]{43})"/.exec(twiml)?.[1];
    expect(token).toBeDefined();
    expect(twiml).toContain(
      `<Connect action="${PUBLIC_BASE_URL}/webhooks/twilio/relay-ended?command_id=${commandId}"><ConversationRelay url=`,
    );
    expect(twiml).toContain('language="en-US" interruptible="any" welcomeGreetingInterruptible="any" dtmfDetection="true">');
    expect(twiml).toContain(`<Parameter name="command_id" value="${commandId}"/>`);
    expect(twiml).toContain(
      'welcomeGreeting="Hello, this is Morgan (CMO), the marketing assistant of Northwind Outdoor, calling about Q4 review.',
    );
    expect(callsTo('+442071838750')).toHaveLength(0);

    const command = await harness.command(commandId);
    const sid = twilio.calls.at(-1)!.sid;
    expect(command.status).toBe('completed');
    expect(command.call).toMatchObject({
      status: 'pending',
      provider: 'twilio',
      provider_call_id: sid,
      provider_status: 'queued',
      requested_at: expect.any(String),
    });
    expect(commandView(command).data).toMatchObject({ call: { provider_call_id: sid, phone_number: '+14155550123' } });
    // The call keeps the hash of its relay token, granted with the request; never the token, and nothing shows it.
    expect(command.relay).toEqual({
      token_hash: createHash('sha256').update(token!).digest('hex'),
      issued_at: command.call!.requested_at,
    });
    expect(JSON.stringify(command)).not.toContain(token);
    expect(JSON.stringify(command.result)).not.toContain(command.relay!.token_hash);
  });

  it('speaks and listens as the RELAY_* settings say', async () => {
    const accepted = await harness.accept({ phone_numbers: ['+14155550123'] });
    const relayVoice = readRelayVoice({
      RELAY_LANGUAGE: 'es-ES',
      RELAY_TTS_PROVIDER: 'Google',
      RELAY_VOICE: 'es-ES-Neural2-B',
      RELAY_TRANSCRIPTION_PROVIDER: 'Deepgram',
      RELAY_SPEECH_MODEL: 'nova-3-general',
      RELAY_INTERRUPTIBLE: 'speech',
      RELAY_WELCOME_GREETING_INTERRUPTIBLE: 'none',
    });
    await harness.deliver(accepted.job!, { telephony: viaTwilio(), relayVoice });
    const twiml = String(twilio.requests.filter((request) => request.path.endsWith('/Calls.json')).at(-1)!.form.Twiml);
    expect(twiml).toContain(
      'language="es-ES" ttsProvider="Google" voice="es-ES-Neural2-B" transcriptionProvider="Deepgram" speechModel="nova-3-general" ' +
        'interruptible="speech" welcomeGreetingInterruptible="none" dtmfDetection="true">',
    );
  });

  it('is placed once when the job is delivered twice', async () => {
    const accepted = await harness.accept({ meeting_title: 'T', meeting_objective: 'O', phone_numbers: ['+14155550124'] });
    await harness.deliver(accepted.job!, { telephony: viaTwilio() });
    await harness.deliver(accepted.job!, { telephony: viaTwilio() }, 2);
    await harness.deliver(accepted.job!, { telephony: viaTwilio() });
    expect(callsTo('+14155550124')).toHaveLength(1);
    expect((await harness.command(accepted.data.command_id as string)).call?.provider_call_id).toBe(callsTo('+14155550124')[0]!.sid);
  });

  it.each([
    ['an invalid number (21211)', 'invalid-to' as const, /Twilio answered 400 \(error 21211\)/],
    ['refused credentials (20003)', 'unauthorized' as const, /Twilio answered 401 .*the account SID or auth token was refused/],
    ['a Twilio outage (5xx)', 'server-error' as const, /Twilio answered 500 .*not tried again/],
  ])('fails with the reason on %s, and the command still completes', async (_, how, reason) => {
    twilio.failNext(how);
    const accepted = await harness.accept({ meeting_title: 'T', meeting_objective: 'O', phone_numbers: ['+14155550125'] });
    await harness.deliver(accepted.job!, { telephony: viaTwilio() });
    const command = await harness.command(accepted.data.command_id as string);
    expect(command.status).toBe('completed');
    expect(command.call).toMatchObject({ status: 'failed', reason: expect.stringMatching(reason) });
    expect(command.call?.provider_call_id).toBeUndefined();
    expect(command.call?.reason).not.toContain(twilio.authToken);
    expect(commandView(command).data).toMatchObject({ system_prompts: expect.any(Array), call: { status: 'failed' } });
  });

  it('fails as "telephony not configured" without Twilio settings, dialling nothing', async () => {
    const accepted = await harness.accept({ meeting_title: 'T', meeting_objective: 'O', phone_numbers: ['+14155550126'] });
    const unconfigured = configuredTelephony({ settings: { PUBLIC_BASE_URL }, secrets: environmentSecrets({}) });
    await harness.deliver(accepted.job!, { telephony: unconfigured });
    const command = await harness.command(accepted.data.command_id as string);
    expect(command).toMatchObject({ status: 'completed', call: { status: 'failed', reason: NOT_CONFIGURED_REASON } });
    expect(command.call?.requested_at).toBeUndefined();
  });

  it('fails as "telephony not configured" without PUBLIC_BASE_URL (Twilio could not call back), dialling nothing', async () => {
    const accepted = await harness.accept({ meeting_title: 'T', meeting_objective: 'O', phone_numbers: ['+14155550129'] });
    await harness.deliver(accepted.job!, { telephony: viaTwilio(), publicBaseUrl: undefined });
    expect(await harness.command(accepted.data.command_id as string)).toMatchObject({
      status: 'completed',
      call: { status: 'failed', reason: NOT_CONFIGURED_REASON },
    });
    expect(callsTo('+14155550129')).toHaveLength(0);
  });

  it('a worker killed between "call requested" and the provider’s answer leaves the call failed with a reason, and nothing dials again', async () => {
    const accepted = await harness.accept({ meeting_title: 'T', meeting_objective: 'O', phone_numbers: ['+14155550127'] });
    let dialled = 0;
    const twilioOnce = viaTwilio();
    const counting = async (): Promise<Telephony> => {
      const real = (await twilioOnce())!;
      return { provider: real.provider, placeCall: (call) => ((dialled += 1), real.placeCall(call)) };
    };
    // The first attempt dies right after its "call requested" write (the process is gone before it dials).
    const crashing: CallStore = {
      ...harness.calls,
      async markRequested(...args) {
        await harness.calls.markRequested(...args);
        throw new Error('worker killed');
      },
    };
    await harness.deliver(accepted.job!, { telephony: counting, calls: crashing });
    const between = await harness.command(accepted.data.command_id as string);
    expect(between).toMatchObject({ status: 'in_progress', call: { status: 'pending', requested_at: expect.any(String) } });
    expect(between.call?.provider_call_id).toBeUndefined();

    const retry = harness.queue.resent.pop()!;
    await harness.deliver(JSON.parse(retry.body) as JobEnvelope, { telephony: counting });
    const after = await harness.command(accepted.data.command_id as string);
    expect(after).toMatchObject({ status: 'completed', call: { status: 'failed', reason: ABANDONED_CALL_REASON } });
    expect(dialled).toBe(0);
    expect(callsTo('+14155550127')).toHaveLength(0);
  });

  it('a provider that took the call but whose answer was lost: failed with the reason, never dialled twice', async () => {
    const accepted = await harness.accept({ meeting_title: 'T', meeting_objective: 'O', phone_numbers: ['+14155550128'] });
    let dialled = 0;
    const lost: Telephony = {
      provider: 'twilio',
      async placeCall() {
        dialled += 1;
        throw new Error('socket hang up');
      },
    };
    await harness.deliver(accepted.job!, { telephony: async () => lost });
    await harness.deliver(accepted.job!, { telephony: async () => lost }, 2);
    const command = await harness.command(accepted.data.command_id as string);
    expect(command).toMatchObject({
      status: 'completed',
      call: { status: 'failed', reason: expect.stringMatching(/not dialled again to avoid a second ring/) },
    });
    expect(dialled).toBe(1);
  });

  it('is not made when no number was given', async () => {
    const accepted = await harness.accept({ meeting_title: 'T', meeting_objective: 'O' });
    expect(accepted.data.call).toBeUndefined();
    await harness.deliver(accepted.job!, { telephony: viaTwilio() });
    const command = await harness.command(accepted.data.command_id as string);
    expect(command.status).toBe('completed');
    expect(command.call).toBeUndefined();
    expect(command.result?.call).toBeUndefined();
    expect((commandView(command).data as Record<string, unknown>).call).toBeUndefined();
  });
});
