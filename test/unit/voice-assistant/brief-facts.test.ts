import { preCallPrompt } from '../../../shared/stakeholder-coordination/prompts';
import { briefFacts } from '../../../shared/voice-assistant/brief-facts';
import { demoContext } from '../stakeholder-coordination/fixtures';

const MEETING = { title: 'Winter review', objective: 'Agree on the January budget' };
const EMPTY_SUMMARY = { tasks: [], requirements: [], campaigns: [], content: [], resource_allocation: {} };

describe('briefFacts', () => {
  it('reads back every fact the stakeholder pre-call prompt states', async () => {
    const facts = briefFacts({
      preCallPrompt: preCallPrompt(await demoContext({ lead: { id: 'l1', name: 'Lee Park', company: 'Acme' } }), MEETING),
      meeting: MEETING,
    });
    expect(facts).toMatchObject({
      title: 'Winter review',
      objective: 'Agree on the January budget',
      agenda: ['Winter campaign results', 'Budget for January'],
      participants: ['maya.chen@northwind-outdoor.example', 'Sam Ortiz'],
      speaker: 'Morgan (CMO), the marketing assistant of Northwind Outdoor',
      openingLine: expect.stringMatching(/^Hello, this is Morgan/),
      campaigns: [
        {
          title: 'Winter gear rental push',
          status: 'active',
          figures: [
            { name: 'impressions', value: '120400' },
            { name: 'clicks', value: '3180' },
            { name: 'conversions', value: '142' },
            { name: 'spend', value: '4200' },
          ],
        },
      ],
      channels: [
        { name: 'paid search', share: '40%' },
        { name: 'social', share: '30%' },
        { name: 'content', share: '20%' },
        { name: 'events', share: '10%' },
      ],
      content: [{ title: 'Guide: planning a group ski weekend', status: 'draft', due: '2026-12-05' }],
      lead: 'Lee Park of Acme',
      budget: { amount: '25000', currency: 'USD' },
      requirements: [{ title: 'Point-of-sale integration', status: 'pending_approval', priority: 'high', cost: '8000' }],
      tasks: [
        { title: 'Set up abandoned-booking email flow', status: 'pending', owner: 'Sam', due: '2026-12-10' },
        { title: 'Refresh winter campaign landing page', status: 'in_progress', owner: 'Maya Chen', due: '2026-12-01' },
      ],
    });
    expect(facts.points).toHaveLength(5);
  });

  it('states nothing the prompt does not: a site without data gives empty facts, not made-up ones', async () => {
    const context = await demoContext({ summary: EMPTY_SUMMARY, agenda: [], participants: [], agent: null });
    const facts = briefFacts({ preCallPrompt: preCallPrompt(context, MEETING), meeting: MEETING });
    expect(facts).toEqual({
      title: 'Winter review',
      objective: 'Agree on the January budget',
      agenda: [],
      participants: [],
      speaker: 'the marketing assistant of Northwind Outdoor',
      openingLine: expect.any(String),
      points: expect.any(Array),
      campaigns: [],
      channels: [],
      content: [],
      requirements: [],
      tasks: [],
    });
  });

  it('reads a prompt of another shape as the meeting and no facts', () => {
    expect(briefFacts({ preCallPrompt: 'Be helpful.\n- budget: 5', meeting: MEETING })).toEqual({
      title: 'Winter review',
      objective: 'Agree on the January budget',
      agenda: [],
      participants: [],
      points: [],
      campaigns: [],
      channels: [],
      content: [],
      requirements: [],
      tasks: [],
    });
  });
});
