import type { CallCommand } from '../../../shared/calls/record';
import { startOpenAiFake, type OpenAiFake } from '../../fakes/openai';
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

describe('turns written by the model', () => {
  it('asks with the pre-call prompt and the conversation, and speaks the reply as plain text', async () => {
    openai.respondWith(() => ({
      content: { reply: '**Great** news.\n\n- Let us look at the [figures](https://example.com) now.', end_call: false },
    }));
    const call = await voice.placedCall();
    const before = openai.requests.length;
    const caller = await voice.answered(call);
    const reply = await caller.say('Yes, go ahead.');
    expect(reply).toBe('Great news. Let us look at the figures now.');

    const request = openai.requests[before]!;
    expect(request.headers.authorization).toBe('Bearer test-openai-key');
    expect(request.body).toMatchObject({
      model: 'gpt-voice-test',
      response_format: { type: 'json_schema', json_schema: { name: 'voice_assistant_turn', strict: true } },
    });
    const [system, ...conversation] = request.body.messages as { role: string; content: string }[];
    expect(system!.role).toBe('system');
    expect(system!.content).toContain('Cover these talking points');
    expect(system!.content).toContain('live phone call');
    expect(conversation).toEqual([
      { role: 'assistant', content: expect.stringContaining('Hello, this is') },
      { role: 'user', content: 'Yes, go ahead.' },
    ]);
    expect((await command(call.commandId)).transcript?.at(-1)).toMatchObject({
      role: 'assistant',
      content: reply,
      generated_by: 'openai',
      model: 'gpt-voice-test',
    });
    caller.close();
    await caller.closed;
  });

  it('answers from the offline writer when the model keeps failing (labelled offline), so the caller is never left in silence', async () => {
    openai.respondWith(() => ({ status: 500, error: { message: 'boom', type: 'server_error', code: null } }));
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    const reply = await caller.say('Hello?');
    expect(reply).toMatch(/performance metrics review/i);
    expect((await command(call.commandId)).transcript?.at(-1)).toMatchObject({ generated_by: 'offline' });
    caller.close();
    await caller.closed;
  });

  it('ends the session when the model says the call is over: text, then end', async () => {
    openai.respondWith(() => ({ content: { reply: 'Thank you, goodbye.', end_call: true } }));
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    expect(await caller.say('That is all, bye.')).toBe('Thank you, goodbye.');
    expect(caller.received.map((message) => message.type)).toEqual(['text', 'end']);
    caller.close();
    await caller.closed;
  });

  it('closes the call at the turn limit with a goodbye and end', async () => {
    openai.respondWith(() => ({ content: { reply: 'Noted. What else?', end_call: false } }));
    const call = await voice.placedCall();
    const caller = await voice.answered(call);
    let last: string | undefined;
    let turns = 0;
    while (!caller.received.some((message) => message.type === 'end') && turns < 45) {
      turns += 1;
      last = await caller.say(`Point number ${turns}.`);
    }
    expect(turns).toBe(41);
    expect(last).toMatch(/^We have reached the length limit of this call\. .*Goodbye\.$/);
    caller.close();
    await caller.closed;
  }, 60_000);
});
