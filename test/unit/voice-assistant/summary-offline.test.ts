import type { TranscriptEntry } from '../../../shared/calls/record';
import { offlineMeetingSummary } from '../../../shared/voice-assistant/summary-offline';
import { meetingSummarySchema } from '../../../shared/voice-assistant/summary-schema';
import { transcriptText } from '../../../shared/voice-assistant/summary-phase';
import { usableStatements } from '../../../shared/voice-assistant/summary-usable';

const at = '2026-11-23T10:00:00.000Z';
const said = (content: string): TranscriptEntry => ({ role: 'user', content, at });

describe('the offline meeting summary', () => {
  const transcript: TranscriptEntry[] = [
    { role: 'assistant', content: 'Hello, shall we start?', at, source: 'welcome_greeting' },
    said('Yes. Paid search brought most of the bookings.'),
    { role: 'assistant', content: 'Thank you.', at, generated_by: 'offline' },
    said('We agreed to pause the events spend. Sam Ortiz will draft the new brief by 2026-12-04, high priority.'),
    { role: 'user', content: 'Pressed 1 on the keypad.', at, dtmf: '1' },
    said('We need another designer for two months, roughly 8k dollars. Nice to have: a new analytics tool.'),
  ];

  it('keeps what the participant said, finds decisions, action items and requirements, and invents nothing', () => {
    const summary = offlineMeetingSummary(transcript, 'Agree on the January budget.');
    expect(meetingSummarySchema.parse(summary)).toEqual(summary);
    expect(summary.key_points).toHaveLength(3);
    expect(summary.key_points.join(' ')).not.toContain('keypad');
    expect(summary.decisions).toEqual(['We agreed to pause the events spend.']);
    expect(summary.action_items).toEqual([
      {
        title: 'Sam Ortiz will draft the new brief by 2026-12-04, high priority',
        assignee: 'Sam Ortiz',
        due_date: '2026-12-04',
        priority: 'high',
        description: 'Sam Ortiz will draft the new brief by 2026-12-04, high priority.',
      },
    ]);
    expect(summary.requirements).toEqual([
      expect.objectContaining({
        title: 'We need another designer for two months, roughly 8k dollars',
        description: 'We need another designer for two months, roughly 8k dollars.',
        estimated_cost: 8000,
        currency: 'USD',
        needs_approval: true,
      }),
      expect.objectContaining({
        title: 'Nice to have: a new analytics tool',
        description: 'Nice to have: a new analytics tool.',
        estimated_cost: null,
        currency: null,
        priority: 'low',
        needs_approval: false,
      }),
    ]);
    expect(summary.objective_outcome).toBe(
      'Objective: Agree on the January budget. The participants spoke 3 times; 1 decision, 1 action item and 2 requirements were noted.',
    );
  });

  it('takes a question for none of them, with or without its question mark, but a request for a task', () => {
    const summary = offlineMeetingSummary(
      [
        said('whats the budget'),
        said('What is the spend on paid search?'),
        said('Should we hire an agency?'),
        said('Can you send the deck by Friday?'),
      ],
      'Agree on the January budget.',
    );
    expect(summary.key_points).toHaveLength(4);
    expect(summary.requirements).toEqual([]);
    expect(summary.decisions).toEqual([]);
    expect(summary.action_items).toEqual([expect.objectContaining({ title: 'Can you send the deck by Friday', due_date: 'Friday' })]);
  });

  it('has empty sections, not made-up ones, when little was said', () => {
    expect(offlineMeetingSummary([said('Hello.'), said('The numbers look fine.')], 'Review.')).toMatchObject({
      key_points: ['The participant said: The numbers look fine.'],
      decisions: [],
      action_items: [],
      requirements: [],
    });
  });

  it('reads each sum said as an amount in its currency', () => {
    const amounts = (sentence: string) =>
      offlineMeetingSummary([said(sentence)], 'Budget.').requirements.map(({ estimated_cost, currency }) => ({ estimated_cost, currency }));
    expect(amounts('The agency costs $4,500.')).toEqual([{ estimated_cost: 4500, currency: 'USD' }]);
    expect(amounts('A licence at €1.2 million a year.')).toEqual([{ estimated_cost: 1_200_000, currency: 'EUR' }]);
    expect(amounts('Printing comes to 300 pounds.')).toEqual([{ estimated_cost: 300, currency: 'GBP' }]);
    expect(amounts('We need a bigger budget.')).toEqual([{ estimated_cost: null, currency: null }]);
  });

  it('writes an empty summary from a transcript with nothing usable: only greetings, fillers or noise', () => {
    const summary = offlineMeetingSummary(
      [
        { role: 'assistant', content: 'Hello, shall we start?', at, source: 'welcome_greeting' },
        said('Hello?'),
        said('Um... uh.'),
        said('...'),
        { role: 'user', content: '', at, dtmf: '5' },
      ],
      'Review.',
    );
    expect(summary).toMatchObject({ key_points: [], decisions: [], action_items: [], requirements: [] });
  });

  it('uses the turns with a word of content, and leaves out keypresses, greetings, fillers and noise', () => {
    expect(
      usableStatements([
        said('Hi, yes.'),
        said('  '),
        said('Hmm, okay, thank you.'),
        said('?!'),
        { role: 'user', content: '1', at, dtmf: '1' },
        { role: 'assistant', content: 'The budget is 5,000 dollars.', at },
        said('Yes, the budget is fine.'),
      ]),
    ).toEqual(['Yes, the budget is fine.']);
  });

  it('renders the transcript for the model, speaker by speaker, marking keypresses and interruptions', () => {
    const text = transcriptText([...transcript, { role: 'assistant', content: 'So we', at, interrupted: true }]);
    expect(text.split('\n')).toEqual([
      'Assistant: Hello, shall we start?',
      'Participant: Yes. Paid search brought most of the bookings.',
      'Assistant: Thank you.',
      'Participant: We agreed to pause the events spend. Sam Ortiz will draft the new brief by 2026-12-04, high priority.',
      'Participant: (pressed 1 on the keypad)',
      'Participant: We need another designer for two months, roughly 8k dollars. Nice to have: a new analytics tool.',
      'Assistant: So we (interrupted)',
    ]);
  });
});
