import type { RelayAnswer, RelayCaller } from '../../../infra/local/relay-caller';
import type { CallCommand } from '../../../shared/calls/record';
import { MIDWAY_APOLOGY } from '../../../shared/voice-assistant/voice-turn';
import { startOpenAiFake, type OpenAiFake } from '../../fakes/openai';
import { startCountingProxy, type CountingProxy } from '../../support/counting-proxy';
import { eventually } from '../../support/embedded';
import { voiceHarness, type VoiceHarness } from './harness';

/**
 * Streamed replies on the relay socket: the OpenAI loopback fake streams
 * its answer in chunks, the real socket function forwards them as `text`
 * tokens over the local WebSocket, and the socket function's DynamoDB
 * requests go through a counting proxy.
 */
let openai: OpenAiFake;
let voice: VoiceHarness;
let dynamodb: CountingProxy;

beforeAll(async () => {
  openai = await startOpenAiFake();
  dynamodb = await startCountingProxy();
  voice = await voiceHarness({
    OPENAI_API_KEY: 'test-openai-key',
    OPENAI_BASE_URL: openai.baseUrl,
    OPENAI_MODEL: 'gpt-voice-test',
    AWS_ENDPOINT_URL_DYNAMODB: dynamodb.url,
  });
  dynamodb.forwardTo(voice.services.aws.dynamodbEndpoint);
}, 60_000);
afterAll(async () => {
  await voice.stop();
  await openai.close();
  await dynamodb.close();
});

const command = (id: string): Promise<CallCommand> => voice.stakeholder.command(id);

const REPLY =
  'Thank you for the update on the winter campaign. The conversions look strong, and the spend stayed within the plan we agreed. ' +
  'Shall we move on to the budget for January now?';

type Text = Extract<RelayAnswer, { type: 'text' }>;

/** Sends a final prompt; resolves with the text messages up to `last: true`, and when the first and the last arrived. */
async function turn(caller: RelayCaller, words: string): Promise<{ texts: Text[]; firstAt: number; lastAt: number }> {
  caller.prompt(words);
  const texts: Text[] = [];
  let firstAt = 0;
  for (;;) {
    const message = await caller.next('text');
    if (!message || message.type !== 'text') throw new Error('The socket closed before the reply ended');
    if (texts.length === 0) firstAt = performance.now();
    texts.push(message);
    if (message.last) return { texts, firstAt, lastAt: performance.now() };
  }
}

describe('a streamed reply', () => {
  it('is sent as whole-word tokens in order, the first before the model finished, exactly one last, and kept whole', async () => {
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    const before = openai.streams.length;
    openai.enqueue({ stream: { text: REPLY, chunks: 30, intervalMs: 20 } });
    const { texts, firstAt } = await turn(caller, 'The campaign went well.');
    const timing = openai.streams[before]!;

    expect(firstAt).toBeLessThan(timing.doneAt!);
    expect(texts.map((text) => text.last)).toEqual([...texts.slice(1).map(() => false), true]);
    const tokens = texts.map((text) => text.token);
    expect(tokens.join('')).toBe(REPLY);
    // Never half a word: each token after the first starts at a space or a punctuation mark.
    expect(tokens.slice(1).every((token) => /^[\s,.;:!?]/.test(token))).toBe(true);
    // Natural chunks: more than one, fewer than the model's 30 pieces (a few per sentence).
    expect(texts.length).toBeGreaterThan(2);
    expect(texts.length).toBeLessThan(30);

    await voice.relay.settled();
    expect((await command(call.commandId)).transcript?.slice(-2)).toEqual([
      { role: 'user', content: 'The campaign went well.', at: expect.any(String) },
      { role: 'assistant', content: REPLY, at: expect.any(String), generated_by: 'openai', model: 'gpt-voice-test' },
    ]);
    caller.close();
    await caller.closed;
  });

  it('takes one table write per turn for the transcript (the caller’s words and the reply together), one for its tokens', async () => {
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    // The setup is done once its greeting is kept.
    await eventually(async () => ((await command(call.commandId)).transcript?.length ? true : undefined), 15_000, 'the greeting');
    await voice.relay.settled();
    openai.respondWith(() => ({ stream: { text: 'Noted. What else should I write down?', intervalMs: 5 } }));
    dynamodb.reset();
    await turn(caller, 'The budget stays at twelve thousand.');
    await voice.relay.settled();
    const counts = dynamodb.counts();
    const writes = ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems'].reduce(
      (total, operation) => total + (counts[operation] ?? 0),
      0,
    );
    expect({ writes, counts }).toEqual({ writes: 2, counts: expect.any(Object) });
    expect(counts.UpdateItem).toBe(1);
    // After the reply is spoken, the model's tokens count on the command and its tenant's totals (one transaction).
    expect(counts.TransactWriteItems).toBe(1);
    // The socket's session, then the transcript alone; then the command's usage labels.
    expect(counts.GetItem).toBe(3);
    expect((await command(call.commandId)).transcript?.slice(-2).map((entry) => entry.content)).toEqual([
      'The budget stays at twelve thousand.',
      'Noted. What else should I write down?',
    ]);
    caller.close();
    await caller.closed;
  });

  it('honours end_call after the whole reply is spoken and kept: last, then end', async () => {
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    openai.enqueue({ stream: { text: 'Thank you for your time today. Goodbye.', intervalMs: 5, toolCalls: ['end_call'] } });
    const { texts } = await turn(caller, 'That is all from me, bye.');
    expect(texts.map((text) => text.token).join('')).toBe('Thank you for your time today. Goodbye.');
    const end = await caller.next();
    expect(end).toMatchObject({ type: 'end' });
    expect(JSON.parse((end as { handoffData: string }).handoffData)).toMatchObject({ reason: 'conversation_ended' });
    expect(caller.received.filter((message) => message.type === 'text' && message.last)).toHaveLength(1);
    expect((await command(call.commandId)).transcript?.at(-1)).toMatchObject({ content: 'Thank you for your time today. Goodbye.' });
    caller.close();
    await caller.closed;
  });

  it('keeps what was spoken when the model fails midway, and closes the reply with an apology (last: true)', async () => {
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    openai.enqueue({ stream: { text: REPLY, chunks: 30, intervalMs: 5, dropAfter: 12 } });
    const { texts } = await turn(caller, 'How did the campaign do?');
    const reply = texts.map((text) => text.token).join('');
    expect(texts.at(-1)).toEqual({ type: 'text', token: ` ${MIDWAY_APOLOGY}`, last: true });
    expect(texts.filter((text) => text.last)).toHaveLength(1);
    const spoken = reply.slice(0, -` ${MIDWAY_APOLOGY}`.length);
    expect(spoken.length).toBeGreaterThan(0);
    expect(REPLY.startsWith(spoken)).toBe(true);
    expect(spoken.length).toBeLessThan(REPLY.length);

    await voice.relay.settled();
    expect((await command(call.commandId)).transcript?.slice(-2)).toEqual([
      expect.objectContaining({ role: 'user', content: 'How did the campaign do?' }),
      expect.objectContaining({ role: 'assistant', content: reply, generated_by: 'openai' }),
    ]);
    // The call goes on.
    openai.enqueue({ stream: { text: 'As I was saying, the conversions look strong.', intervalMs: 5 } });
    expect(await caller.say('Sorry, go on.')).toBe('As I was saying, the conversions look strong.');
    caller.close();
    await caller.closed;
  });

  it('cuts a kept reply only to words it begins with: an interrupt naming other words leaves it whole', async () => {
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    openai.enqueue({ stream: { text: REPLY, intervalMs: 2 } });
    await turn(caller, 'Go on.');
    // Words of another reply (in AWS, an interrupt of a reply still streaming, before its turn was kept).
    caller.interrupt('Shall we move on', 900);
    caller.press('1');
    const kept = await eventually(
      async () => {
        const current = (await command(call.commandId)).transcript;
        return current?.some((entry) => entry.dtmf === '1') ? current : undefined;
      },
      15_000,
      'the keypress',
    );
    expect(kept.at(-2)).toMatchObject({ role: 'assistant', content: REPLY });
    expect(kept.at(-2)).not.toHaveProperty('interrupted');

    openai.enqueue({ stream: { text: REPLY, intervalMs: 2 } });
    await turn(caller, 'Noted.');
    caller.interrupt('Thank you for the update', 900);
    const cut = await eventually(
      async () => {
        const last = (await command(call.commandId)).transcript?.at(-1);
        return last?.interrupted ? last : undefined;
      },
      15_000,
      'the cut',
    );
    expect(cut).toMatchObject({ role: 'assistant', content: 'Thank you for the update', interrupted: true });
    caller.close();
    await caller.closed;
  });

  it('keeps the caller’s words and what was sent when the socket drops while the reply streams', async () => {
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    openai.enqueue({ stream: { text: REPLY, chunks: 30, intervalMs: 20 } });
    caller.prompt('We should talk about the budget.');
    const first = await caller.next('text');
    caller.drop();
    const stored = await eventually(
      async () => {
        const current = await command(call.commandId);
        return current.meeting_summary ? current : undefined;
      },
      15_000,
      'the summary to be requested',
    );
    const [heard, said] = stored.transcript!.slice(-2);
    expect(heard).toMatchObject({ role: 'user', content: 'We should talk about the budget.' });
    expect(said).toMatchObject({ role: 'assistant', generated_by: 'openai' });
    expect(said!.content.startsWith((first as Text).token)).toBe(true);
    expect(REPLY.startsWith(said!.content)).toBe(true);
    expect(said!.content.length).toBeLessThan(REPLY.length);
  });
});
