import { createHash } from 'node:crypto';
import { RelayRefusedError } from '../../../infra/local/relay-caller';
import { signTwilioRequest } from '../../../infra/local/twilio-wire';
import type { CallCommand } from '../../../shared/calls/record';
import { eventually } from '../../support/embedded';
import { AUTH_TOKEN, voiceHarness, type VoiceHarness } from './harness';

/**
 * The ConversationRelay socket against the real socket function
 * (functions/webhooks/relay.ts) over a real local WebSocket, the embedded
 * DynamoDB and SQS: Twilio's protocol (setup, prompt, interrupt, dtmf,
 * error; text and end back), the signed upgrade, refusals, the transcript
 * kept as the call goes, and the post-call job queued once.
 */
let voice: VoiceHarness;

beforeAll(async () => {
  voice = await voiceHarness();
}, 60_000);
afterAll(() => voice.stop());

const command = (id: string): Promise<CallCommand> => voice.stakeholder.command(id);

describe('the relay socket', () => {
  it('answers each final prompt with a text reply, plain and short, from the pre-call prompt (offline writer, labelled)', async () => {
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    const reply = await caller.say('Yes, this is a good time.');
    expect(reply).toMatch(/performance metrics review/i);
    expect(reply).not.toMatch(/[*#`[\]{}]/);
    expect(reply!.length).toBeLessThanOrEqual(600);
    // The offline writer's reply comes as a few chunks, the last one closing it.
    const texts = caller.received.filter((message) => message.type === 'text');
    expect(texts.map((message) => message.token).join('')).toBe(reply);
    expect(texts.map((message) => message.last)).toEqual([...texts.slice(1).map(() => false), true]);
    expect(texts.length).toBeLessThanOrEqual(12);

    // A partial prompt (last: false) is not answered; the final one is.
    caller.prompt('The campaign', false);
    const second = await caller.say('The campaign converted well.');
    expect(second).toMatch(/channel analysis/i);
    expect(caller.received.filter((message) => message.type === 'text' && message.last)).toHaveLength(2);

    // The turn's one write comes after its reply's last word.
    const stored = await eventually(
      async () => {
        const current = await command(call.commandId);
        return (current.transcript?.length ?? 0) >= 5 ? current : undefined;
      },
      15_000,
      'the second turn to be kept',
    );
    expect(stored.transcript?.map((entry) => [entry.role, entry.content])).toEqual([
      ['assistant', expect.stringContaining('Hello, this is')],
      ['user', 'Yes, this is a good time.'],
      ['assistant', reply],
      ['user', 'The campaign converted well.'],
      ['assistant', second],
    ]);
    expect(stored.transcript?.[0]).toMatchObject({ source: 'welcome_greeting' });
    expect(stored.transcript?.[2]).toMatchObject({ generated_by: 'offline', model: 'offline-writer-v1', at: expect.any(String) });
    caller.close();
    await caller.closed;
  });

  it('cuts the interrupted reply in the transcript to what was spoken, and keeps keypresses', async () => {
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    const reply = await caller.say('Go ahead.');
    const spoken = reply!.split(' ').slice(0, 4).join(' ');
    caller.interrupt(spoken, 900);
    caller.press('5');
    const stored = await eventually(
      async () => {
        const current = await command(call.commandId);
        return current.transcript?.some((entry) => entry.dtmf === '5') ? current : undefined;
      },
      15_000,
      'the keypress to be kept',
    );
    expect(stored.transcript?.[2]).toMatchObject({ role: 'assistant', content: spoken, interrupted: true });
    expect(stored.transcript?.[3]).toMatchObject({ role: 'user', dtmf: '5', content: 'Pressed 5 on the keypad.' });
    caller.close();
    await caller.closed;
  });

  it('logs an error message from Twilio and carries on', async () => {
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    caller.sendRaw(JSON.stringify({ type: 'error', description: 'Invalid message received' }));
    caller.sendRaw(JSON.stringify({ type: 'info', something: 'new' }));
    expect(await caller.say('Hello?')).toMatch(/performance metrics review/i);
    caller.close();
    await caller.closed;
  });

  it('refuses an unsigned upgrade, and one signed with another token or for another URL (403, never opened)', async () => {
    const { relayUrl } = await voice.placedCall();
    await expect(voice.connect(null, relayUrl)).rejects.toEqual(new RelayRefusedError(403));
    await expect(voice.connect(signTwilioRequest('another-token', relayUrl, {}), relayUrl)).rejects.toEqual(new RelayRefusedError(403));
    await expect(voice.connect(signTwilioRequest(AUTH_TOKEN, voice.relayUrl, {}), relayUrl)).rejects.toEqual(new RelayRefusedError(403));
    await expect(
      voice.connect(signTwilioRequest(AUTH_TOKEN, `wss://elsewhere.example.com/relay${new URL(relayUrl).search}`, {}), relayUrl),
    ).rejects.toEqual(new RelayRefusedError(403));
  });

  it('refuses a signed upgrade whose URL carries no relay token, or a malformed one (403, never opened)', async () => {
    await expect(voice.connect()).rejects.toEqual(new RelayRefusedError(403));
    await expect(voice.connect(undefined, `${voice.relayUrl}?token=short`)).rejects.toEqual(new RelayRefusedError(403));
    await expect(voice.connect(undefined, `${voice.relayUrl}?command_id=x`)).rejects.toEqual(new RelayRefusedError(403));
  });

  it('gives each call its own relay URL, with a 256-bit token of which the call keeps only the hash', async () => {
    const first = await voice.placedCall();
    const second = await voice.placedCall();
    const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;
    expect(new URL(first.relayUrl).origin + new URL(first.relayUrl).pathname).toBe(voice.relayUrl);
    expect(tokenOf(first.relayUrl)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tokenOf(first.relayUrl)).not.toBe(tokenOf(second.relayUrl));
    const stored = await command(first.commandId);
    expect(stored.relay).toEqual({
      token_hash: createHash('sha256').update(tokenOf(first.relayUrl)).digest('hex'),
      issued_at: stored.call!.requested_at,
    });
    expect(JSON.stringify(stored)).not.toContain(tokenOf(first.relayUrl));
  });

  it('spends the token at setup: a second socket for the live call is refused (1008), and so is the URL replayed later', async () => {
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    await caller.say('Hello?');
    const spent = await command(call.commandId);
    expect(spent.relay).toMatchObject({ spent_at: expect.any(String), connection_id: expect.any(String) });

    const second = await voice.answered(call);
    second.prompt('Is anybody there?');
    expect(await second.closed).toEqual({ code: 1008, reason: 'the relay token was used already: one socket per call' });
    // The live socket carries on, untouched.
    expect(await caller.say('Still here.')).toEqual(expect.any(String));
    expect((await command(call.commandId)).relay).toEqual(spent.relay);
    expect((await command(call.commandId)).transcript?.filter((entry) => entry.role === 'user')).toHaveLength(2);

    caller.drop();
    await caller.closed;
    const replayed = await voice.answered(call);
    expect(await replayed.closed).toEqual({ code: 1008, reason: expect.stringMatching(/used already|the call has ended/) });
  });

  it('refuses a socket whose token is another call’s (1008), and spends neither token', async () => {
    const call = await voice.placedCall();
    const other = await voice.placedCall();
    const caller = await voice.connect(undefined, other.relayUrl);
    caller.setup(call.callSid, { command_id: call.commandId });
    expect(await caller.closed).toEqual({ code: 1008, reason: 'the relay token is not the token of this call' });
    expect((await command(call.commandId)).relay?.spent_at).toBeUndefined();
    expect((await command(other.commandId)).relay?.spent_at).toBeUndefined();
    // Its own call's socket still opens.
    const own = await voice.answered(call);
    expect(await own.say('Hello?')).toEqual(expect.any(String));
    own.close();
    await own.closed;
  });

  it.each([
    [
      'an unknown command',
      (call: { commandId: string; callSid: string }) => [call.callSid, '0194f5c2-7b1e-7c3d-9a2b-1c2d3e4f5a6b'],
      'unknown command',
    ],
    [
      'a call that is not the command’s',
      (call: { commandId: string; callSid: string }) => [`CA${'f'.repeat(32)}`, call.commandId],
      'the call is not the call of this command',
    ],
    [
      'no command id',
      (call: { commandId: string; callSid: string }) => [call.callSid, 'not-a-uuid'],
      'setup names no command (command_id)',
    ],
  ])('closes a socket whose setup names %s (1008, with the reason), and keeps nothing', async (_, pick, reason) => {
    const call = await voice.placedCall();
    const [callSid, commandId] = pick(call);
    const caller = await voice.connect(undefined, call.relayUrl);
    caller.setup(callSid!, { command_id: commandId! });
    caller.prompt('Hello?');
    expect(await caller.closed).toEqual({ code: 1008, reason });
    expect((await command(call.commandId)).transcript).toBeUndefined();
  });

  it('closes a socket whose setup names a command that is not a stakeholder coordination', async () => {
    const call = await voice.placedCall();
    const other = { ...(await command(call.commandId)), id: '0194f5c2-7b1e-7c3d-9a2b-00000000aaaa', type: 'lead_follow_up' as const };
    await voice.stakeholder.commands.create(other);
    const caller = await voice.connect(undefined, call.relayUrl);
    caller.setup(call.callSid, { command_id: other.id });
    expect(await caller.closed).toEqual({ code: 1008, reason: 'the command is not a stakeholder call' });
  });

  it('closes a socket whose first message is not a setup', async () => {
    const caller = await voice.connect(undefined, (await voice.placedCall()).relayUrl);
    caller.prompt('Hello?');
    expect(await caller.closed).toEqual({ code: 1008, reason: 'the first message must be a setup' });
  });

  it('keeps the transcript when the socket drops, and queues the summary job once', async () => {
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    await caller.say('Yes, now is fine.');
    await caller.say('We decided to keep the January budget at 12000 dollars.');
    caller.drop();
    const stored = await eventually(
      async () => {
        const current = await command(call.commandId);
        return current.meeting_summary ? current : undefined;
      },
      15_000,
      'the summary to be requested',
    );
    expect(stored.transcript?.filter((entry) => entry.role === 'user').map((entry) => entry.content)).toEqual([
      'Yes, now is fine.',
      'We decided to keep the January budget at 12000 dollars.',
    ]);
    expect(stored.transcript).toHaveLength(5);
    expect(stored.meeting_summary).toMatchObject({ status: 'pending', command_id: expect.any(String) });
    expect(stored.child_ids).toEqual([stored.meeting_summary!.command_id]);
    // The job is queued after the child command is written: wait for it rather than read the queue once.
    const summaryJobs = async () => (await voice.summaryJobs()).filter((job) => job.command_id === stored.meeting_summary!.command_id);
    await eventually(async () => ((await summaryJobs()).length > 0 ? true : undefined), 15_000, 'the summary job to be queued');
    expect(await summaryJobs()).toEqual([expect.objectContaining({ type: 'post_call_summary' })]);
    const child = await command(stored.meeting_summary!.command_id!);
    expect(child).toMatchObject({
      type: 'post_call_summary',
      status: 'in_progress',
      parent_id: call.commandId,
      request: { parent_id: call.commandId },
    });
  });

  it('queues the summary once when the assistant ends the call (end) and the socket then closes', async () => {
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    await caller.say('Sure.');
    const goodbye = await caller.say('That is all for today, goodbye.');
    expect(goodbye).toMatch(/Goodbye\.$/);
    const end = await caller.next('end');
    expect(end).toMatchObject({ type: 'end' });
    expect(JSON.parse((end as { handoffData: string }).handoffData)).toEqual({ reason: 'conversation_ended', command_id: call.commandId });
    caller.close();
    await caller.closed;
    // The $disconnect has been handled: it found the summary requested and queued nothing more.
    await eventually(async () => (voice.relay.open() === 0 ? true : undefined), 15_000, 'the socket to close');
    await voice.relay.settled();
    const stored = await command(call.commandId);
    const jobs = (await voice.summaryJobs()).filter((job) => job.command_id === stored.meeting_summary!.command_id);
    expect(jobs).toHaveLength(1);
    expect((await command(call.commandId)).child_ids).toEqual([stored.meeting_summary!.command_id]);

    // After the end, the call takes nothing more: a late socket for it is refused.
    const late = await voice.answered(call);
    expect(await late.closed).toEqual({ code: 1008, reason: 'the call has ended' });
  });

  it('queues no job for a call in which the person called said nothing: the summary is skipped, with the reason', async () => {
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    await eventually(
      async () => ((await command(call.commandId)).transcript?.length ? true : undefined),
      15_000,
      'the greeting to be kept',
    );
    caller.close();
    const stored = await eventually(
      async () => {
        const current = await command(call.commandId);
        return current.meeting_summary ? current : undefined;
      },
      15_000,
      'the summary to be decided',
    );
    expect(stored.meeting_summary).toEqual({
      status: 'skipped',
      requested_at: expect.any(String),
      reason: 'Nothing was said on the call by the person called, so there is nothing to summarize.',
      key_points: [],
      decisions: [],
      action_items: [],
      requirements: [],
    });
    expect(stored.child_ids).toBeUndefined();
  });
});
