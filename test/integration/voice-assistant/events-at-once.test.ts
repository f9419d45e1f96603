import type { CallCommand } from '../../../shared/calls/record';
import { commandView } from '../../../shared/api/command-responses';
import { NOTHING_SAID_REASON } from '../../../shared/voice-assistant/end-of-call';
import { dynamoTranscriptStore } from '../../../shared/voice-assistant/transcript-store';
import { startOpenAiFake, type OpenAiFake } from '../../fakes/openai';
import { eventually } from '../../support/embedded';
import { voiceHarness, type VoiceHarness } from './harness';

/**
 * A socket's events handed over as they come, as in AWS (API Gateway runs
 * each in an invocation of its own): an `interrupt` or the `$disconnect`
 * runs beside a turn still being answered, whose one write comes at its
 * end. The interrupt's cut is held for that write; with a transcript grace
 * of 2 s the turn's words are kept after the call ended, and the summary,
 * queued that late, reads them.
 */
const GRACE_SECONDS = 2;
let openai: OpenAiFake;
let voice: VoiceHarness;

beforeAll(async () => {
  openai = await startOpenAiFake();
  voice = await voiceHarness(
    {
      OPENAI_API_KEY: 'test-openai-key',
      OPENAI_BASE_URL: openai.baseUrl,
      OPENAI_MODEL: 'gpt-voice-test',
      TRANSCRIPT_GRACE_SECONDS: String(GRACE_SECONDS),
    },
    { events: 'at-once' },
  );
}, 60_000);
afterAll(async () => {
  await voice.stop();
  await openai.close();
});

const command = (id: string): Promise<CallCommand> => voice.stakeholder.command(id);
const requested = (id: string) =>
  eventually(
    async () => {
      const current = await command(id);
      return current.meeting_summary ? current : undefined;
    },
    15_000,
    'the summary to be requested',
  );
/** The summary worker answers offline (no model key): the summary is written from the transcript it reads. */
const drainOffline = () => voice.drainSummaries({ OPENAI_API_KEY: '' });

describe('a turn being answered as the call ends', () => {
  it('keeps the words of the first turn, and the summary queued after the grace reads them rather than skip the call', async () => {
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    await eventually(async () => ((await command(call.commandId)).transcript?.length ? true : undefined), 15_000, 'the greeting');
    // The model takes a second to answer: the caller hangs up meanwhile, and the $disconnect claims the summary first.
    openai.enqueue({ hangMs: 1_000, then: { content: 'Thank you, noted.' } });
    caller.prompt('We agreed to move 5000 dollars to the January search campaign.');
    await eventually(async () => (openai.requests.length > 0 ? true : undefined), 15_000, 'the turn to ask the model');
    caller.close();

    const claimed = await requested(call.commandId);
    expect(claimed.meeting_summary).toMatchObject({ status: 'pending', command_id: expect.any(String) });
    expect(claimed.transcript?.some((entry) => entry.role === 'user')).toBe(false);
    // The child's job waits out the grace on the queue.
    expect(await voice.summaryJobs()).toEqual([]);

    await voice.relay.settled();
    const afterTurn = await command(call.commandId);
    expect(afterTurn.transcript?.filter((entry) => entry.role === 'user').map((entry) => entry.content)).toEqual([
      'We agreed to move 5000 dollars to the January search campaign.',
    ]);

    await drainOffline();
    const summarized = await command(call.commandId);
    expect(summarized.meeting_summary).toMatchObject({ status: 'completed', command_id: claimed.meeting_summary!.command_id });
    expect(summarized.meeting_summary!.reason).toBeUndefined();
    expect(await command(claimed.meeting_summary!.command_id!)).toMatchObject({ status: 'completed' });
    expect(Date.parse(summarized.meeting_summary!.created_at!) - Date.parse(claimed.meeting_summary!.requested_at)).toBeGreaterThanOrEqual(
      GRACE_SECONDS * 1000,
    );
  });

  it('skips the summary of a call in which nothing was said, decided by the child once the grace is over', async () => {
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    await eventually(async () => ((await command(call.commandId)).transcript?.length ? true : undefined), 15_000, 'the greeting');
    caller.close();
    const claimed = await requested(call.commandId);
    expect(claimed.meeting_summary).toMatchObject({ status: 'pending' });

    await drainOffline();
    const stored = await command(call.commandId);
    expect(stored.meeting_summary).toEqual({
      status: 'skipped',
      command_id: claimed.meeting_summary!.command_id,
      requested_at: claimed.meeting_summary!.requested_at,
      reason: NOTHING_SAID_REASON,
      key_points: [],
      decisions: [],
      action_items: [],
      requirements: [],
    });
    const child = await command(claimed.meeting_summary!.command_id!);
    expect(child).toMatchObject({ status: 'completed', result: { parent_id: call.commandId, meeting_summary: stored.meeting_summary } });
    // The grace is an internal bound: GET shows no trace of it.
    expect(JSON.stringify(commandView(stored))).not.toContain('transcript_open_until');
  });

  it('takes writes until the grace is over, and none after', async () => {
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    await eventually(async () => ((await command(call.commandId)).transcript?.length ? true : undefined), 15_000, 'the greeting');
    await caller.say('Yes, now is fine.');
    caller.close();
    const claimed = await requested(call.commandId);
    await voice.relay.settled();
    const openUntil = (claimed as unknown as { transcript_open_until: number }).transcript_open_until;
    expect(openUntil - Date.parse(claimed.meeting_summary!.requested_at)).toBe(GRACE_SECONDS * 1000);

    const { db } = voice.services;
    const { tableName } = voice.services.aws;
    const fixedClock = (ms: number) => ({ now: () => ms });
    const entry = { role: 'user' as const, content: 'One more thing.', at: new Date().toISOString() };
    const within = dynamoTranscriptStore(db, tableName, fixedClock(openUntil - 1));
    const after = dynamoTranscriptStore(db, tableName, fixedClock(openUntil));
    expect(await after.read(call.commandId, call.callSid)).toBe('closed');
    expect(await after.append(call.commandId, call.callSid, [entry])).toBe('closed');
    expect(await within.append(call.commandId, call.callSid, [entry])).toBe('appended');
    expect(await within.read(call.commandId, call.callSid)).toMatchObject({ entries: expect.arrayContaining([entry]) });
    // Its summary job waits out the grace on the queue; nothing here runs it (the harness's worker runs when a test drains).
  });
});

describe('an interrupt while the reply still streams', () => {
  it('cuts the reply the turn keeps to what was spoken, in the turn’s one write', async () => {
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    await eventually(async () => ((await command(call.commandId)).transcript?.length ? true : undefined), 15_000, 'the greeting');
    const reply = 'Thank you for the update on the winter campaign. The conversions look strong this month. Shall we go on?';
    openai.enqueue({ stream: { text: reply, intervalMs: 60 } });
    caller.prompt('The campaign did well.');
    expect(await caller.next('text')).toMatchObject({ type: 'text', last: false });
    caller.interrupt('Thank you for the', 700);
    await eventually(
      async () => ((await command(call.commandId)).transcript?.some((entry) => entry.role === 'user') ? true : undefined),
      15_000,
      'the turn to be kept',
    );
    await voice.relay.settled();
    const stored = await command(call.commandId);
    expect(stored.transcript?.slice(-2)).toEqual([
      expect.objectContaining({ role: 'user', content: 'The campaign did well.' }),
      expect.objectContaining({ role: 'assistant', content: 'Thank you for the', interrupted: true }),
    ]);
    expect(stored).not.toHaveProperty('transcript_held_cut');

    // A keypress between an interrupt and its reply's write leaves the cut for that reply.
    openai.enqueue({ stream: { text: reply, intervalMs: 60 } });
    caller.prompt('What next?');
    await caller.next('text');
    caller.interrupt('Thank you for the update', 900);
    await eventually(
      async () => ((await command(call.commandId)) as unknown as Record<string, unknown>).transcript_held_cut,
      15_000,
      'the cut',
    );
    caller.press('5');
    await voice.relay.settled();
    const after = await command(call.commandId);
    expect(after.transcript?.slice(-3)).toEqual([
      expect.objectContaining({ role: 'user', dtmf: '5' }),
      expect.objectContaining({ role: 'user', content: 'What next?' }),
      expect.objectContaining({ role: 'assistant', content: 'Thank you for the update', interrupted: true }),
    ]);
    caller.close();
  });
});
