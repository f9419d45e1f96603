import fc from 'fast-check';
import type { TranscriptEntry } from '../../../shared/calls/record';
import { unsafeCharactersIn } from '../../../shared/platform/text';
import { preCallPrompt } from '../../../shared/stakeholder-coordination/prompts';
import { RELAY_LIMITS } from '../../../shared/voice-assistant/limits';
import { offlineVoiceReply, openingLine, talkingPoints, type VoiceReply } from '../../../shared/voice-assistant/offline-voice';
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
    expect(offlineVoiceReply({ preCallPrompt: 'Be helpful.', meeting: MEETING }, [user('Yes, go ahead.')])).toEqual({
      reply: expect.stringContaining('That covers our talking points for Winter review'),
      end_call: false,
    });
    expect(offlineVoiceReply({ preCallPrompt: 'Be helpful.', meeting: MEETING }, [user('Hi')]).reply).toBe(
      'Hello, this is the marketing assistant, calling about Winter review. Shall we go through the decisions and next steps?',
    );
  });
});

describe('plain speech', () => {
  it('is the same when made plain again, even where dropping a mark uncovers another', () => {
    for (const text of ['-> is i x', '#> heading', '>- > * item', '[a](x) -> b']) {
      const once = plainSpeech(text, 600);
      expect([text, plainSpeech(once, 600)]).toEqual([text, once]);
    }
    expect(plainSpeech('-> is i x', 600)).toBe('is i x');
  });
});

describe('the offline writer answering what the caller asks', () => {
  const BACK = 'Back to performance metrics review: what is your view?';
  let brief: { preCallPrompt: string; meeting: typeof MEETING };
  let bare: { preCallPrompt: string; meeting: typeof MEETING };
  beforeAll(async () => {
    brief = { preCallPrompt: preCallPrompt(await demoContext(), MEETING), meeting: MEETING };
    const empty = { tasks: [], requirements: [], campaigns: [], content: [], resource_allocation: {} };
    bare = { preCallPrompt: preCallPrompt(await demoContext({ summary: empty, agenda: [], participants: [] }), MEETING), meeting: MEETING };
  });

  /** The replies to the caller's lines, one turn after another, after the opening line. */
  function talk(on: typeof brief, lines: readonly string[]): VoiceReply[] {
    const transcript: TranscriptEntry[] = [{ ...assistant('Hello, this is Morgan.'), source: 'welcome_greeting' }];
    return lines.map((line) => {
      transcript.push(user(line));
      const answer = offlineVoiceReply(on, transcript);
      transcript.push(assistant(answer.reply));
      return answer;
    });
  }
  /** The reply to `line` once the first talking point is on the table. */
  const answerTo = (line: string, on = brief) => talk(on, ['Yes.', line])[1]!;

  it.each([
    ["What's on the agenda?", 'The agenda is Winter campaign results and Budget for January.'],
    ['whats the budget', 'The budget on record is 25,000 US dollars.'],
    [
      'how many tasks are open',
      'I have 2 pending tasks on record: Set up abandoned-booking email flow, due December 10, 2026 and Refresh winter campaign landing page, due December 1, 2026.',
    ],
    ['When is the landing page due?', 'Refresh winter campaign landing page is due December 1, 2026.'],
    ['when is the email flow due', 'Set up abandoned-booking email flow is due December 10, 2026.'],
    ['who owns the landing page', 'Refresh winter campaign landing page is owned by Maya Chen.'],
    [
      "What's the status of the winter campaign?",
      'Winter gear rental push is active, with impressions 120,400, clicks 3,180, conversions 142 and spend 4,200.',
    ],
    ['how many clicks did we get', 'Winter gear rental push is active, with clicks 3,180.'],
    [
      'How is the budget split?',
      'The budget on record is 25,000 US dollars. The spend by channel is paid search 40%, social 30%, content 20% and events 10%.',
    ],
    ['what about paid search', 'Paid search has 40% of the spend by channel.'],
    ['How much does the point of sale integration cost?', 'Point-of-sale integration has an estimated cost of 8,000.'],
    [
      'tell me about the requirements',
      'I have 1 open requirement on record. Point-of-sale integration is pending approval, priority high, estimated cost 8,000.',
    ],
    ['what content do we have', 'Content in the works: Guide: planning a group ski weekend, due December 5, 2026.'],
    ['Who is this?', 'This is Morgan (CMO), the marketing assistant of Northwind Outdoor.'],
    ['why are you calling', 'This call is about Winter review. The objective is: Agree on the January budget.'],
    ['who else is on the call', 'The participants named for this meeting are maya.chen@northwind-outdoor.example and Sam Ortiz.'],
    ['Am I talking to a robot?', 'I am an automated assistant. I take notes of this call, and a summary goes to the team afterwards.'],
    ['Is there a lead for this?', 'No lead is named for this meeting.'],
    [
      'What is the stock price of Acme?',
      'I am sorry, I do not have that in my notes for this call. I will note the question for the follow-up.',
    ],
    ['Can you hear me?', 'Yes, I can hear you.'],
    ['hello?', 'Hello, I am still here.'],
    ['…', 'Sorry, I did not catch that.'],
  ])('answers %p from the brief, then brings the call back to its point', (line, answer) => {
    expect(answerTo(line)).toEqual({ reply: `${answer} ${BACK}`, end_call: false });
  });

  it.each([
    ['whats the budget', 'I have no budget on record for this meeting.'],
    ['how many tasks are open', 'I have no pending tasks on record.'],
    ['How are the campaigns performing?', 'I have no campaign figures on record.'],
    ['what is the channel split', 'I have no channel split on record.'],
    ['any requirements', 'I have no open requirements on record.'],
    ['what content do we have', 'I have no content in the works on record.'],
    ['who is on the call', 'No participants were named for this meeting in advance.'],
    [
      "what's on the agenda",
      'No agenda was set, so I am following the talking points: performance metrics review, channel analysis, opportunities, budget allocation and resource needs.',
    ],
    [
      'When is the landing page due?',
      'I am sorry, I do not have that in my notes for this call. I will note the question for the follow-up.',
    ],
  ])('says plainly when the brief lacks what %p asks, inventing nothing', (line, answer) => {
    const { reply } = answerTo(line, bare);
    expect(reply).toBe(`${answer} ${BACK}`);
    expect(reply).not.toMatch(/\d/);
  });

  it.each([
    [
      "What's the budget?",
      'whats the budget',
      'WHAT IS THE BUDGET',
      'um so what’s the uh budget',
      'yes and what is the budget',
      'Okay. What’s the budget?',
    ],
  ])('reads ASR-like variants of a question alike: %p', (...variants) => {
    const replies = variants.map((line) => answerTo(line).reply);
    expect(new Set(replies)).toEqual(new Set([`The budget on record is 25,000 US dollars. ${BACK}`]));
  });

  it('asks which item is meant when the words fit several, and takes the reply as the answer', () => {
    const replies = talk(brief, ['Yes.', 'what about winter', 'the campaign', 'The figures look right to us.']);
    expect(replies[1]).toEqual({ reply: 'Do you mean Refresh winter campaign landing page, or Winter gear rental push?', end_call: false });
    expect(replies[2]!.reply).toBe(
      `Winter gear rental push is active, with impressions 120,400, clicks 3,180, conversions 142 and spend 4,200. ${BACK}`,
    );
    expect(replies[3]!.reply).toMatch(/^Thank you, I have noted that\. Next, channel analysis: /);
    // A longer reply is an answer that moves on, even when it names the campaign.
    const [, , moved] = talk(brief, ['Yes.', 'what about winter', 'We think the winter campaign should run for two more weeks.']);
    expect(moved!.reply).toMatch(/^Thank you, I have noted that\. Next, channel analysis: /);
  });

  it('names a whole agenda of up to six items', async () => {
    const agenda = ['Results', 'Budget', 'Channels', 'Content', 'Hiring plan'];
    const long = { preCallPrompt: preCallPrompt(await demoContext({ agenda }), MEETING), meeting: MEETING };
    expect(answerTo('what is on the agenda', long).reply).toBe(`The agenda is Results, Budget, Channels, Content and Hiring plan. ${BACK}`);
  });

  it('tells items apart by a number in their titles', async () => {
    const task = (id: string, title: string, due: string) => ({
      id,
      title,
      status: 'pending',
      owner: null,
      due_date: due,
      description: null,
    });
    const summary = {
      ...(await demoContext()).summary,
      tasks: [task('t1', 'Launch wave 1', '2026-12-01'), task('t2', 'Launch wave 2', '2026-12-15')],
    };
    const waves = { preCallPrompt: preCallPrompt(await demoContext({ summary }), MEETING), meeting: MEETING };
    expect(answerTo('when is launch wave 2 due', waves).reply).toBe(`Launch wave 2 is due December 15, 2026. ${BACK}`);
    expect(answerTo('when is the launch wave due', waves).reply).toBe('Do you mean Launch wave 1, or Launch wave 2?');
  });

  it('answers a statement that names a topic as an answer, not as a question', () => {
    const [, reply] = talk(brief, [
      'Yes.',
      'We decided to move 10 percent of the events budget to paid search. Maya will send the plan by Friday.',
    ]);
    expect(reply!.reply).toMatch(/^Thank you, I have noted that\. Next, channel analysis: The current spend by channel is paid search 40%/);
  });

  it('walks the agenda on answers, yes, no, "I don’t know" and "next", and holds its place on questions', () => {
    const replies = talk(brief, [
      'hello',
      'who is this',
      'yeah sure go ahead',
      "what's the budget",
      'We should shift spend to social.',
      "I don't know",
      'yes',
      'hold on a second',
      'no',
      "what's next",
      'Maya owns the plan, due Friday.',
    ]).map((answer) => answer.reply);
    expect(replies).toEqual([
      'Hello, this is Morgan (CMO), the marketing assistant of Northwind Outdoor, calling about Winter review. Shall we start with performance metrics review?',
      'This is Morgan (CMO), the marketing assistant of Northwind Outdoor. Shall we start with performance metrics review?',
      expect.stringMatching(/^Thank you\. Let's start with performance metrics review: Winter gear rental push \(active, /),
      `The budget on record is 25,000 US dollars. ${BACK}`,
      expect.stringMatching(/^Thank you, I have noted that\. Next, channel analysis: /),
      expect.stringMatching(
        /^That is fine, I will note it as an open question\. Next, opportunities: .*due December 5, 2026\)\. What is your view\?$/,
      ),
      'Good, I have noted your agreement. Next, budget allocation: The budget on record is 25000 US dollars. What is your view?',
      'Of course, take your time.',
      expect.stringMatching(
        /^Understood, I have noted your objection\. Next, resource needs: Point-of-sale integration \(pending approval/,
      ),
      expect.stringMatching(/^Sure\. That covers our talking points for Winter review\. Before we close, which decisions/),
      expect.stringMatching(/Goodbye\.$/),
    ]);
  });

  it('says its last line again on "repeat that", without the acknowledgement', () => {
    const replies = talk(brief, ['Yes.', 'Sorry, can you repeat that?', 'say that again']).map((answer) => answer.reply);
    expect(replies[1]).toBe(`Of course. ${replies[0]!.replace(/^Thank you\. /, '')}`);
    expect(replies[2]).toBe(replies[1]);
  });

  it('lets a caller who has no time go, and only then', () => {
    expect(talk(brief, ['No.'])[0]).toEqual({
      reply: expect.stringMatching(/^No problem, I will let you go\..*Goodbye\.$/),
      end_call: true,
    });
    expect(talk(brief, ['Yes.', 'im busy call me later'])[1]).toMatchObject({ end_call: true });
    expect(talk(brief, ['No, we decided to keep the spend on social media as it is'])[0]).toEqual({
      reply: expect.stringMatching(/^Thank you\. Let's start with performance metrics review/),
      end_call: false,
    });
  });

  it('does not count keypresses as answers', () => {
    const transcript: TranscriptEntry[] = [user('Yes.'), assistant('Point one'), { ...user('5'), dtmf: '5' }];
    expect(offlineVoiceReply(brief, [...transcript, user('Fine.')]).reply).toMatch(/Next, channel analysis/);
  });

  it('never says back what the caller said, nor markup or control characters', () => {
    for (const line of [
      'What about <script>alert(1)</script> zxqv\u0007?',
      '**zxqv** [link](http://zxqv.example)',
      'zxqv\u202E when is it due',
    ]) {
      const { reply } = answerTo(line);
      expect(reply).not.toMatch(/zxqv|[<>*[\]{}`]|https?:/i);
      expect(unsafeCharactersIn(reply)).toEqual([]);
    }
  });

  it('gives any caller, on any brief, a short plain reply, the same each time (property)', async () => {
    const fragment = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.string({ unit: 'grapheme', maxLength: 20 }),
      fc.constantFrom(
        'ZXQV',
        'what is the',
        'budget',
        'when is',
        'due',
        'repeat',
        '?',
        'yes',
        'no',
        'bye',
        '<b>',
        '</script>',
        '**',
        '[a](http://x)',
        '\u0000',
        '\u202E',
        '\r\n',
        '{x}',
        '# ',
        '- ',
        '…',
        'winter',
        'campaign',
      ),
    );
    const line = fc.array(fragment, { maxLength: 12 }).map((parts) => parts.join(' '));
    const text = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.constantFrom('<i>x</i>', '**a**', 'a; ask b', 'x (y, z)', '2026-12-05', '\u0007'),
    );
    const site = fc.record({
      title: text,
      status: text,
      figure: text,
      value: fc.oneof(text, fc.integer()),
      budget: fc.oneof(text, fc.integer()),
      agenda: fc.array(text, { maxLength: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(site, fc.array(line, { minLength: 1, maxLength: 6 }), async (data, lines) => {
        const context = await demoContext({
          agenda: data.agenda,
          summary: {
            tasks: [{ id: 't1', title: data.title, status: data.status, owner: data.status, due_date: data.title, description: null }],
            requirements: [{ id: 'r1', title: data.title, status: null, estimated_cost: data.status, priority: null, description: null }],
            campaigns: [{ id: 'c1', title: data.title, status: data.status, performance: { [data.figure]: data.value } }],
            content: [{ id: 'n1', title: data.title, status: data.status, description: null, target_completion: data.status }],
            resource_allocation: { budget: data.budget, currency: data.status, distribution: { [data.figure]: 0.5 } },
          },
        });
        const onBrief = { preCallPrompt: preCallPrompt(context, MEETING), meeting: MEETING };
        const transcript = lines.flatMap((said) => [assistant('Go on.'), user(said)]);
        const answer = offlineVoiceReply(onBrief, transcript);
        expect(answer.reply.length).toBeGreaterThan(0);
        expect(answer.reply.length).toBeLessThanOrEqual(RELAY_LIMITS.maxReplyCharacters);
        expect(plainSpeech(answer.reply, RELAY_LIMITS.maxReplyCharacters)).toBe(answer.reply);
        expect(unsafeCharactersIn(answer.reply)).toEqual([]);
        expect(answer.reply).not.toMatch(/ZXQV|\n/);
        expect(typeof answer.end_call).toBe('boolean');
        expect(offlineVoiceReply(onBrief, transcript)).toEqual(answer);
      }),
      { numRuns: 150 },
    );
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
