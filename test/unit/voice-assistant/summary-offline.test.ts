import type { TranscriptEntry } from '../../../shared/calls/record';
import { offlineMeetingSummary } from '../../../shared/voice-assistant/summary-offline';
import { meetingSummarySchema } from '../../../shared/voice-assistant/summary-schema';
import { transcriptText } from '../../../shared/voice-assistant/summary-phase';

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
        assignee: 'Sam Ortiz',
        due_date: '2026-12-04',
        priority: 'high',
        description: 'Sam Ortiz will draft the new brief by 2026-12-04, high priority.',
      },
    ]);
    expect(summary.requirements).toEqual([
      expect.objectContaining({
        description: 'We need another designer for two months, roughly 8k dollars.',
        cost: '8k dollars',
        approval_needed: true,
      }),
      expect.objectContaining({ description: 'Nice to have: a new analytics tool.', cost: null, priority: 'low', approval_needed: false }),
    ]);
    expect(summary.objective_outcome).toBe(
      'Objective: Agree on the January budget. The participants spoke 3 times; 1 decision, 1 action item and 2 requirements were noted.',
    );
  });

  it('has empty sections, not made-up ones, when little was said', () => {
    expect(offlineMeetingSummary([said('Hello.')], 'Review.')).toMatchObject({
      key_points: ['The participant said: Hello.'],
      decisions: [],
      action_items: [],
      requirements: [],
    });
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
