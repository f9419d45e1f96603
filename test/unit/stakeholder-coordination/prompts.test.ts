import { postCallPrompt, preCallPrompt, systemPrompts, welcomeGreeting } from '../../../shared/stakeholder-coordination/prompts';
import { contextSummary } from '../../../shared/stakeholder-coordination/context-summary';
import { OTHER, demoContext, inMemorySites, otherSite } from './fixtures';

const MEETING = { title: 'Winter push review', objective: 'Agree on the January budget split' };

/** Every topic the issue lists for PRE_CALL, as it names them. */
const PRE_CALL_TOPICS = [
  'talking points',
  'performance metrics review',
  'channel analysis',
  'opportunities',
  'budget allocation',
  'resource needs',
  'what to do',
  'cite metrics',
  'ask participants for input',
  'propose next steps',
  'link budget to expected return',
  'stay on objectives',
  'what to avoid',
  'personnel matters beyond resources',
  'excessive technical detail',
  'committing budget without approval',
  'competitor topics not cleared',
  'off-agenda roadmap items',
];

describe('PRE_CALL', () => {
  it.each(PRE_CALL_TOPICS)('covers "%s"', async (topic) => {
    expect(preCallPrompt(await demoContext(), MEETING).toLowerCase()).toContain(topic);
  });

  it('names the meeting, objective, agenda, participants and the site’s pending tasks by title', async () => {
    const prompt = preCallPrompt(await demoContext(), MEETING);
    for (const text of [
      'Meeting: Winter push review',
      'Objective: Agree on the January budget split',
      '1. Winter campaign results',
      '2. Budget for January',
      'Participants: maya.chen@northwind-outdoor.example, Sam Ortiz',
      'Refresh winter campaign landing page',
      'Set up abandoned-booking email flow',
    ]) {
      expect(prompt).toContain(text);
    }
  });

  it('cites the site’s own figures: campaign performance, channel split, budget, requirements, content', async () => {
    const prompt = preCallPrompt(await demoContext(), MEETING);
    expect(prompt).toContain('Winter gear rental push (active, impressions 120400, clicks 3180, conversions 142, spend 4200)');
    expect(prompt).toContain('paid search 40%, social 30%, content 20%, events 10%');
    expect(prompt).toContain('the budget on record is 25000 USD');
    expect(prompt).toContain('Point-of-sale integration (pending_approval, priority high, estimated cost 8000)');
    expect(prompt).toContain('Guide: planning a group ski weekend (draft, due 2026-12-05)');
  });

  it('quotes the opening line the call starts with', async () => {
    const context = await demoContext();
    expect(preCallPrompt(context, MEETING)).toContain(`Opening line: ${welcomeGreeting(context, MEETING)}`);
    expect(welcomeGreeting(context, MEETING)).toBe(
      'Hello, this is Morgan (CMO), the marketing assistant of Northwind Outdoor, calling about Winter push review. Is now still a good time to talk?',
    );
  });

  it('says what is missing for a site without data, and invents none', async () => {
    const sites = inMemorySites([otherSite()]);
    const summary = await contextSummary(sites, (await sites.getSite(OTHER.siteId))!);
    const context = await demoContext({
      site: { id: OTHER.siteId, name: 'Harbor Kayaks', url: null },
      summary,
      participants: [],
      agenda: [],
      agent: null,
    });
    const prompt = preCallPrompt(context, MEETING);
    expect(prompt).toContain('Pending tasks: the site has no pending tasks on record.');
    expect(prompt).toContain('no campaign figures are on record');
    expect(prompt).toContain('no budget is on record');
    expect(prompt).toContain('Participants: not named in advance');
    expect(prompt).not.toMatch(/Northwind|Winter gear|Refresh winter/);
    for (const topic of PRE_CALL_TOPICS) expect(prompt.toLowerCase()).toContain(topic);
  });

  it('is plain text: no Markdown headings or emphasis, nothing in brackets or braces', async () => {
    for (const prompt of systemPrompts(await demoContext(), MEETING)) {
      expect(prompt.content).not.toMatch(/[[\]{}]|\*\*|^#/m);
    }
  });
});

describe('POST_CALL', () => {
  it.each([
    'KEY POINTS',
    'DECISIONS',
    'ACTION ITEMS',
    'REQUIREMENTS',
    'assignee',
    'due date',
    'priority',
    'description',
    'cost',
    'owner',
    'needs approval',
    'short title',
    'currency',
  ])('asks for "%s"', async (part) => {
    expect(postCallPrompt(await demoContext(), MEETING)).toContain(part);
  });

  it('names the meeting, objective, agenda and participants', async () => {
    const prompt = postCallPrompt(await demoContext(), MEETING);
    for (const text of [
      'Meeting: Winter push review',
      'Objective: Agree on the January budget split',
      '1. Winter campaign results',
      'Participants: maya.chen@northwind-outdoor.example, Sam Ortiz',
    ]) {
      expect(prompt).toContain(text);
    }
  });
});

describe('systemPrompts', () => {
  it('gives the pre-call and the post-call prompt, each a system prompt with its phase', async () => {
    const prompts = systemPrompts(await demoContext(), MEETING);
    expect(prompts.map(({ id, role, phase }) => ({ id, role, phase }))).toEqual([
      { id: 'pre_call', role: 'system', phase: 'pre_call' },
      { id: 'post_call', role: 'system', phase: 'post_call' },
    ]);
  });
});
