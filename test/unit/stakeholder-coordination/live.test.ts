import { readStakeholderCommand, stakeholderTargets } from '../../../shared/stakeholder-coordination/command-object';
import type { CallCommand } from '../../../shared/calls/record';
import { completedFromCommand, stakeholderCoordinationLive } from '../../../shared/stakeholder-coordination/live';
import { demoContext } from './fixtures';

/** A stakeholder command as stored once its call phase completed: the slim result, the command object beside it. */
const stored = (overrides: Record<string, unknown> = {}) => ({
  result: { conversation_id: 'c-1', meeting_details: { title: 'Q4 review', objective: 'Agree on Q1' }, generated_by: 'offline' },
  request: { include_context_summary: true, phone_numbers: ['+14155550123'] },
  site_id: 'site-1',
  context: { conversation_id: 'c-1', summary: 'Three open tasks, one campaign.' },
  targets: [
    { meeting_details: { title: 'Q4 review', objective: 'Agree on Q1', dynamic: false } },
    { messages: [{ role: 'system', content: 'Before the call: be brief.' }] },
    { messages: [{ role: 'system', content: 'After the call: summarise.' }] },
  ],
  supervisors: [{ role: 'cmo' }],
  task: 'stakeholder_coordination',
  description: 'Stakeholder coordination for Demo.',
  call: { id: 'call-1', status: 'completed' },
  ...overrides,
});

describe('a completed stakeholder coordination, shown from its command object', () => {
  it('shows both system prompts from the targets, and the context summary, supervisors, task and description', () => {
    expect(completedFromCommand(stored())).toEqual({
      system_prompts: [
        { id: 'pre_call', role: 'system', phase: 'pre_call', content: 'Before the call: be brief.' },
        { id: 'post_call', role: 'system', phase: 'post_call', content: 'After the call: summarise.' },
      ],
      context_summary: 'Three open tasks, one campaign.',
      site_id: 'site-1',
      supervisors: [{ role: 'cmo' }],
      task: 'stakeholder_coordination',
      description: 'Stakeholder coordination for Demo.',
    });
  });

  it('shows the context summary only when the request asked for it', () => {
    const shown = completedFromCommand(stored({ request: { include_context_summary: false, phone_numbers: [] } }));
    expect(shown).not.toHaveProperty('context_summary');
    expect(shown).toHaveProperty('system_prompts');
  });

  it('shows no prompts from targets that do not hold them, without throwing', () => {
    expect(completedFromCommand(stored({ targets: 'not a list' }))).not.toHaveProperty('system_prompts');
    expect(completedFromCommand(stored({ targets: [{}, { messages: [{ role: 'user', content: 'x' }] }] }))).not.toHaveProperty(
      'system_prompts',
    );
  });

  it('is what GET shows once the command completed, over the result, and nothing of it before', () => {
    const view = stakeholderCoordinationLive.view!(stored());
    expect(view).toMatchObject({ system_prompts: expect.any(Array), context_summary: expect.any(String), call: { status: 'completed' } });
    const { result: _result, ...inProgress } = stored();
    expect(stakeholderCoordinationLive.view!(inProgress)).not.toHaveProperty('system_prompts');
    expect(stakeholderCoordinationLive.view!(inProgress)).not.toHaveProperty('targets');
  });

  it('reads the same prompts from real targets as the schema read of the command object does', async () => {
    const context = await demoContext();
    const targets = stakeholderTargets(context, { title: 'Q4 review', objective: 'Agree on Q1', dynamic: false });
    const command = { ...stored({ context, targets }) } as unknown as CallCommand;
    expect(completedFromCommand(command).system_prompts).toEqual(readStakeholderCommand(command).prompts);
  });
});
