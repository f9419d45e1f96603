import * as z from 'zod';
import { valueSize } from '../../../shared/platform/item-size';
import {
  boundedMeetingSummary,
  MEETING_SUMMARY_BOUNDS,
  meetingSummarySchema,
  type WrittenMeetingSummary,
} from '../../../shared/voice-assistant/summary-schema';

const ordinary: WrittenMeetingSummary = {
  key_points: ['The winter push converted well.'],
  decisions: ['Keep the January budget at 12,000 dollars.'],
  action_items: [
    { title: 'Media plan', assignee: 'Maya', due_date: 'Friday', priority: 'high', description: 'Send the updated media plan.' },
  ],
  requirements: [
    {
      title: 'POS integration',
      description: 'Two-way sync of rentals.',
      estimated_cost: 8000,
      currency: 'USD',
      priority: 'medium',
      owner: null,
      needs_approval: true,
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
      action_items: long.map((description) => ({
        title: description,
        assignee: description,
        due_date: null,
        priority: 'low',
        description,
      })),
      requirements: [],
      objective_outcome: long[0]!,
    });
    expect(valueSize(bounded)).toBeLessThanOrEqual(MEETING_SUMMARY_BOUNDS.maxBytes);
    expect(bounded.objective_outcome).toHaveLength(MEETING_SUMMARY_BOUNDS.maxCharacters);
    expect(bounded.key_points.length).toBeGreaterThan(0);
    expect(bounded.key_points[0]).toBe(long[0]!.slice(0, MEETING_SUMMARY_BOUNDS.maxCharacters));
    expect(bounded.decisions).toHaveLength(2);
    expect(bounded.action_items.every((item) => item.title.length <= MEETING_SUMMARY_BOUNDS.titleCharacters)).toBe(true);
  });

  it('keeps an amount only when it is a number of zero or more, and a currency only as a three-letter code', () => {
    const requirement = ordinary.requirements[0]!;
    const bounded = boundedMeetingSummary({
      ...ordinary,
      requirements: [
        { ...requirement, estimated_cost: -5, currency: 'dollars' },
        { ...requirement, estimated_cost: 1200.5, currency: ' eur ' },
      ],
    });
    expect(bounded.requirements.map(({ estimated_cost, currency }) => ({ estimated_cost, currency }))).toEqual([
      { estimated_cost: null, currency: null },
      { estimated_cost: 1200.5, currency: 'EUR' },
    ]);
  });
});

describe('meetingSummarySchema', () => {
  it('asks the model for every field (strict structured output): titles, the amount as a number, its currency, needs_approval', () => {
    const schema = z.toJSONSchema(meetingSummarySchema) as {
      properties: Record<string, { items: { required: string[]; properties: Record<string, { type: unknown }> } }>;
    };
    expect(schema.properties.action_items!.items.required).toEqual(['title', 'assignee', 'due_date', 'priority', 'description']);
    const requirement = schema.properties.requirements!.items;
    expect(requirement.required).toEqual(['title', 'description', 'estimated_cost', 'currency', 'priority', 'owner', 'needs_approval']);
    expect(JSON.stringify(requirement.properties.estimated_cost)).toContain('"number"');
    expect(JSON.stringify(requirement.properties.needs_approval)).toContain('"boolean"');
    expect(
      meetingSummarySchema.safeParse({ ...ordinary, requirements: [{ ...ordinary.requirements[0], estimated_cost: '$8,000' }] }).success,
    ).toBe(false);
  });
});
