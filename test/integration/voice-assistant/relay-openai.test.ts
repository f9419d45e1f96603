import type { CallCommand } from '../../../shared/calls/record';
import { startOpenAiFake, type OpenAiFake } from '../../fakes/openai';
import { usageView } from '../../../shared/usage/usage';
import { eventually } from '../../support/embedded';
import { voiceHarness, type VoiceHarness } from './harness';

/**
 * The assistant's turns with a model: the OpenAI loopback fake reached by
 * the real openai library, through the socket function's voice policy.
 */
let openai: OpenAiFake;
let voice: VoiceHarness;

beforeAll(async () => {
  openai = await startOpenAiFake();
  voice = await voiceHarness({ OPENAI_API_KEY: 'test-openai-key', OPENAI_BASE_URL: openai.baseUrl, OPENAI_MODEL: 'gpt-voice-test' });
}, 60_000);
afterAll(async () => {
  await voice.stop();
  await openai.close();
});

const command = (id: string): Promise<CallCommand> => voice.stakeholder.command(id);
/** The model tokens counted on a command so far (the voice model's). */
const tokensOf = async (id: string) =>
  usageView(await voice.stakeholder.commands.usageOf(id)).model_tokens.by_model['gpt-voice-test'] ?? { input: 0, output: 0 };
/** The command once the turn's one write, which comes after the reply's last word, has kept the reply. */
const replyKept = (id: string): Promise<CallCommand> =>
  eventually(
    async () => {
      const current = await command(id);
      return current.transcript?.at(-1)?.role === 'assistant' && (current.transcript?.length ?? 0) >= 3 ? current : undefined;
    },
    15_000,
    'the reply to be kept',
  );

describe('turns written by the model', () => {
  it('asks for a stream with the pre-call prompt, the conversation and the end_call tool, and speaks the reply as plain text', async () => {
    openai.respondWith(() => ({ content: '**Great** news.\n\n- Let us look at the [figures](https://example.com) now.' }));
    const call = await voice.placedCall();
    const before = openai.requests.length;
    const caller = await voice.answered(call);
    const tokensBefore = await tokensOf(call.commandId);
    const reply = await caller.say('Yes, go ahead.');
    expect(reply).toBe('Great news. Let us look at the figures now.');

    const request = openai.requests[before]!;
    expect(request.headers.authorization).toBe('Bearer test-openai-key');
    expect(request.body).toMatchObject({
      model: 'gpt-voice-test',
      stream: true,
      tools: [{ type: 'function', function: { name: 'end_call', strict: true } }],
    });
    expect(request.body).not.toHaveProperty('response_format');
    const [system, ...conversation] = request.body.messages as { role: string; content: string }[];
    expect(system!.role).toBe('system');
    expect(system!.content).toContain('Cover these talking points');
    expect(system!.content).toContain('live phone call');
    expect(conversation).toEqual([
      { role: 'assistant', content: expect.stringContaining('Hello, this is') },
      { role: 'user', content: 'Yes, go ahead.' },
    ]);
    expect((await replyKept(call.commandId)).transcript?.at(-1)).toMatchObject({
      role: 'assistant',
      content: reply,
      generated_by: 'openai',
      model: 'gpt-voice-test',
    });
    // The turn's tokens (the stream's last chunk: 42 in, one a piece out) count on the call's command.
    const counted = await eventually(
      async () => {
        const after = await tokensOf(call.commandId);
        return after.input > tokensBefore.input ? after : undefined;
      },
      10_000,
      'the turn counted',
    );
    expect(counted.input - tokensBefore.input).toBe(42);
    expect(counted.output).toBeGreaterThan(tokensBefore.output);
    caller.close();
    await caller.closed;
  });

  it('answers from the offline writer when the model keeps failing (labelled offline), so the caller is never left in silence', async () => {
    openai.respondWith(() => ({ status: 500, error: { message: 'boom', type: 'server_error', code: null } }));
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    const reply = await caller.say('Hello?');
    expect(reply).toMatch(/performance metrics review/i);
    expect((await replyKept(call.commandId)).transcript?.at(-1)).toMatchObject({ generated_by: 'offline' });
    caller.close();
    await caller.closed;
  });

  it('ends the session when the model says the call is over: text, then end', async () => {
    openai.respondWith(() => ({ stream: { text: 'Thank you, goodbye.', toolCalls: ['end_call'] } }));
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    expect(await caller.say('That is all, bye.')).toBe('Thank you, goodbye.');
    await caller.next('end');
    const types = caller.received.map((message) => (message.type === 'text' ? `text${message.last ? ':last' : ''}` : message.type));
    expect(types.at(-2)).toBe('text:last');
    expect(types.at(-1)).toBe('end');
    expect(types.filter((type) => type === 'text:last')).toHaveLength(1);
    caller.close();
    await caller.closed;
  });

  it('closes the call at the turn limit with a goodbye and end', async () => {
    openai.respondWith(() => ({ content: 'Noted. What else?' }));
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    let last: string | undefined;
    let turns = 0;
    while (!caller.received.some((message) => message.type === 'end') && turns < 45) {
      turns += 1;
      last = await caller.say(`Point number ${turns}.`);
      // The turn is kept after its last token, and `end` follows that write.
      await voice.relay.settled();
    }
    expect(turns).toBe(41);
    expect(last).toMatch(/^We have reached the length limit of this call\. .*Goodbye\.$/);
    caller.close();
    await caller.closed;
  }, 60_000);
});
