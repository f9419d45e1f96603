import { valueSize } from '../../../shared/platform/item-size';
import { boundedMeetingSummary, MEETING_SUMMARY_BOUNDS, type WrittenMeetingSummary } from '../../../shared/voice-assistant/summary-schema';

const ordinary: WrittenMeetingSummary = {
  key_points: ['The winter push converted well.'],
  decisions: ['Keep the January budget at 12,000 dollars.'],
  action_items: [{ assignee: 'Maya', due_date: 'Friday', priority: 'high', description: 'Send the updated media plan.' }],
  requirements: [
    {
      title: 'POS integration',
      description: 'Two-way sync of rentals.',
      cost: '$8,000',
      priority: 'medium',
      owner: null,
      approval_needed: true,
    },
  ],
  objective_outcome: 'The budget was agreed.',
};

describe('boundedMeetingSummary', () => {
  it('keeps an ordinary summary as it is', () => {
    expect(boundedMeetingSummary(ordinary)).toEqual(ordinary);
  });

  it('cuts each list and text, then drops the last entries of the largest list until the whole fits its bytes', () => {
    const long = Array.from({ length: 60 }, (_, index) => `${index} ${'語'.repeat(3_000)}`);
    const bounded = boundedMeetingSummary({
      key_points: long,
      decisions: long.slice(0, 2),
      action_items: long.map((description) => ({ assignee: description, due_date: null, priority: 'low', description })),
      requirements: [],
      objective_outcome: long[0]!,
    });
    expect(valueSize(bounded)).toBeLessThanOrEqual(MEETING_SUMMARY_BOUNDS.maxBytes);
    expect(bounded.objective_outcome).toHaveLength(MEETING_SUMMARY_BOUNDS.maxCharacters);
    expect(bounded.key_points.length).toBeGreaterThan(0);
    expect(bounded.key_points[0]).toBe(long[0]!.slice(0, MEETING_SUMMARY_BOUNDS.maxCharacters));
    expect(bounded.decisions).toHaveLength(2);
  });
});
