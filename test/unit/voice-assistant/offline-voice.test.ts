import type { TranscriptEntry } from '../../../shared/calls/record';
import { preCallPrompt } from '../../../shared/stakeholder-coordination/prompts';
import { offlineVoiceReply, openingLine, talkingPoints } from '../../../shared/voice-assistant/offline-voice';
import { plainSpeech } from '../../../shared/voice-assistant/speech';
import { demoContext } from '../stakeholder-coordination/fixtures';

const MEETING = { title: 'Winter review', objective: 'Agree on the January budget' };
const at = '2026-11-23T10:00:00.000Z';
const user = (content: string): TranscriptEntry => ({ role: 'user', content, at });
const assistant = (content: string): TranscriptEntry => ({ role: 'assistant', content, at });

describe('the offline writer of the assistant', () => {
  let prompt: string;
  beforeAll(async () => {
    prompt = preCallPrompt(await demoContext(), MEETING);
  });

  it('reads the talking points and the opening line of the pre-call prompt', () => {
    expect(talkingPoints(prompt).map((point) => point.topic)).toEqual([
      'performance metrics review',
      'channel analysis',
      'opportunities',
      'budget allocation',
      'resource needs',
    ]);
    expect(openingLine(prompt)).toMatch(/^Hello, this is .* calling about Winter review\. Is now still a good time to talk\?$/);
  });

  it('walks the talking points in order, one per caller turn, with the site’s own figures and without the prompt’s instructions', () => {
    const brief = { preCallPrompt: prompt, meeting: MEETING };
    const transcript: TranscriptEntry[] = [assistant('Hello'), user('Yes.')];
    const replies: string[] = [];
    for (let turn = 0; turn < 5; turn++) {
      const { reply, end_call } = offlineVoiceReply(brief, transcript);
      expect(end_call).toBe(false);
      replies.push(reply);
      transcript.push(assistant(reply), user(`Answer ${turn}.`));
    }
    expect(replies[0]).toMatch(/^Thank you\. Let's start with performance metrics review: .*\. What is your view\?$/);
    expect(replies[1]).toMatch(/^Thank you, I have noted that\. Next, channel analysis: /);
    expect(replies[3]).toMatch(/budget allocation/);
    for (const reply of replies) {
      expect(reply).not.toMatch(/\bask\b|\bdiscuss how\b/i);
      expect(plainSpeech(reply, 600)).toBe(reply);
    }
    // Then decisions and next steps, then the goodbye that ends the call.
    expect(offlineVoiceReply(brief, transcript)).toEqual({ reply: expect.stringMatching(/decisions and next steps/), end_call: false });
    transcript.push(assistant('…'), user('Maya owns the plan.'));
    expect(offlineVoiceReply(brief, transcript)).toEqual({ reply: expect.stringMatching(/Goodbye\.$/), end_call: true });
  });

  it('gives the same reply to the same transcript', () => {
    const brief = { preCallPrompt: prompt, meeting: MEETING };
    const transcript = [assistant('Hello'), user('Yes.'), assistant('Point one'), user('Fine.')];
    expect(offlineVoiceReply(brief, transcript)).toEqual(offlineVoiceReply(brief, transcript));
  });

  it.each(['Goodbye!', 'OK bye', "That's all, thanks", 'Please hang up now'])('ends the call when the caller says %p', (words) => {
    expect(offlineVoiceReply({ preCallPrompt: prompt, meeting: MEETING }, [user(words)])).toEqual({
      reply: expect.stringMatching(/Goodbye\.$/),
      end_call: true,
    });
  });

  it('still answers from a prompt without talking points', () => {
    expect(offlineVoiceReply({ preCallPrompt: 'Be helpful.', meeting: MEETING }, [user('Hi')])).toEqual({
      reply: expect.stringContaining('That covers our talking points for Winter review'),
      end_call: false,
    });
  });
});

describe('plainSpeech', () => {
  it.each([
    ['**Bold** and _italic_ `code`', 'Bold and italic code'],
    ['# Heading\n- one\n- two', 'Heading one two'],
    ['See [the report](https://example.com/r) now.', 'See the report now.'],
    ['Braces {name} and <b>tags</b>', 'Braces name and b tags /b'],
    ['Line\u0007 with control', 'Line with control'],
  ])('turns %p into plain speech', (text, spoken) => {
    expect(plainSpeech(text, 600)).toBe(spoken);
  });

  it('cuts after the last whole sentence that fits', () => {
    const text = `${'One sentence here. '.repeat(10)}And a last one that is long.`;
    const cut = plainSpeech(text, 60);
    expect(cut.length).toBeLessThanOrEqual(60);
    expect(cut).toMatch(/here\.$/);
  });

  it('is idempotent', () => {
    const once = plainSpeech('**A** [b](c) # d\n- e', 600);
    expect(plainSpeech(once, 600)).toBe(once);
  });
});
