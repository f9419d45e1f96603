import { createOfflineLlm } from '../../../shared/providers/llm/offline';
import { LlmUnavailableError, LlmRefusalError } from '../../../shared/providers/llm/port';
import { settleMeetingDetails } from '../../../shared/stakeholder-coordination/meeting-details';
import { isDynamic, offlineMeetingDetails } from '../../../shared/stakeholder-coordination/offline-meeting';
import { scriptedLlm } from '../lead-follow-up/fixtures';
import { demoContext } from './fixtures';

describe('offlineMeetingDetails', () => {
  it('writes a title and an objective from the agenda', async () => {
    expect(offlineMeetingDetails(await demoContext(), {})).toEqual({
      title: 'Winter campaign results and budget for January',
      objective:
        'Review winter campaign results and budget for January, check progress on 2 pending tasks, and agree on next steps, owners and budget.',
    });
  });

  it('without an agenda, writes them from the site’s context', async () => {
    const written = offlineMeetingDetails(await demoContext({ agenda: [] }), {});
    expect(written.title).toBe('Winter gear rental push results, 2 pending tasks and 1 more topic');
    expect(written.objective).toBe(
      'Review winter gear rental push results, 2 pending tasks and the requirement Point-of-sale integration, and agree on next steps, owners and budget.',
    );
  });

  it('names a site without agenda or context', async () => {
    const context = await demoContext({
      agenda: [],
      summary: { tasks: [], requirements: [], campaigns: [], content: [], resource_allocation: {} },
    });
    expect(offlineMeetingDetails(context, {})).toEqual({
      title: 'Northwind Outdoor stakeholder meeting',
      objective: 'Review where Northwind Outdoor stands and agree on next steps, owners and budget.',
    });
  });

  it('keeps what was given', async () => {
    expect(offlineMeetingDetails(await demoContext(), { title: 'Q4 review' })).toMatchObject({ title: 'Q4 review' });
    expect(offlineMeetingDetails(await demoContext(), { objective: 'Decide' })).toMatchObject({ objective: 'Decide' });
  });

  it('is deterministic', async () => {
    const context = await demoContext();
    expect(offlineMeetingDetails(context, {})).toEqual(offlineMeetingDetails(context, {}));
  });
});

describe('settleMeetingDetails', () => {
  it('asks nothing when both were given', async () => {
    const llm = scriptedLlm([]);
    expect(await settleMeetingDetails(llm.client, await demoContext(), { title: 'T', objective: 'O' })).toEqual({
      title: 'T',
      objective: 'O',
      dynamic: false,
      generated_by: null,
      model: null,
    });
    expect(llm.requests).toHaveLength(0);
    expect(isDynamic({ title: 'T', objective: 'O' })).toBe(false);
  });

  it('lets the model write the missing title, keeps the given objective, and marks the details dynamic', async () => {
    const llm = scriptedLlm([{ value: { title: 'Winter push: results and January budget', objective: 'ignored' } }]);
    const settled = await settleMeetingDetails(llm.client, await demoContext(), { objective: 'Agree on January' });
    expect(settled).toEqual({
      title: 'Winter push: results and January budget',
      objective: 'Agree on January',
      dynamic: true,
      generated_by: 'openai',
      model: 'scripted-model',
    });
    const [request] = llm.requests;
    expect(request?.schemaName).toBe('stakeholder_meeting_details');
    expect(request?.messages[1]?.content).toContain('Winter campaign results');
    expect(request?.messages[1]?.content).toContain('Refresh winter campaign landing page');
  });

  it('uses the offline writer through the offline LLM', async () => {
    const context = await demoContext();
    expect(await settleMeetingDetails(createOfflineLlm(), context, {})).toEqual({
      ...offlineMeetingDetails(context, {}),
      dynamic: true,
      generated_by: 'offline',
      model: 'offline-writer-v1',
    });
  });

  it.each([
    [
      'unavailable',
      { error: new LlmUnavailableError('The provider answered 503', 503) },
      /could not write them: The provider answered 503/,
    ],
    ['refusing', { error: new LlmRefusalError('declined') }, /could not write them/],
    ['answering with markup', { value: { title: '**Winter** [TBD]', objective: 'Review' } }, /unusable: markup or placeholders/],
    ['answering with an empty title', { value: { title: ' ', objective: 'Review' } }, /unusable: an empty title/],
  ])('falls back to the deterministic writer when the model is %s', async (_, answer, reason) => {
    const context = await demoContext();
    const settled = await settleMeetingDetails(scriptedLlm([answer]).client, context, {});
    expect(settled).toMatchObject({ ...offlineMeetingDetails(context, {}), dynamic: true, generated_by: 'offline' });
    expect(settled.fallback_reason).toMatch(reason);
  });
});
