import { commandView } from '../../shared/api/command-responses';
import { liveFieldsOf } from '../../shared/catalogue/features';
import { commandTypesRun } from '../../shared/catalogue/job-types';
import type { StoredCommand } from '../../shared/commands/record';
import { deepResearchKind } from '../../shared/deep-research/kinds';
import { copywriterKind, leadFollowUpKind } from '../../shared/lead-follow-up/kinds';
import { stakeholderCoordinationKind } from '../../shared/stakeholder-coordination/kinds';
import { postCallSummaryKind } from '../../shared/voice-assistant/kinds';
import { crmImportKind } from '../../shared/crm/kinds';

const KINDS = [leadFollowUpKind, copywriterKind, stakeholderCoordinationKind, deepResearchKind, postCallSummaryKind, crmImportKind];

function stored(type: StoredCommand['type'], extra: Record<string, unknown>): StoredCommand {
  return {
    id: 'c-1',
    type,
    status: 'completed',
    tenant_id: 'acme',
    request: {},
    result: { summary: 'done', call: { id: 'snapshot', status: 'pending' } },
    created_at: '2026-11-26T00:00:00.000Z',
    updated_at: '2026-11-26T00:00:00.000Z',
    attempts: 1,
    ...extra,
  };
}

const call = { id: 'k-1', status: 'completed', phone_number: '+14155550123', last_sequence: 3, updated_at: '2026-11-26T00:01:00.000Z' };

describe('GET /api/commands/{id} and live fields', () => {
  it('has a kind for every command type, and each kind’s live fields are the ones the catalogue lists for its type', () => {
    expect(KINDS.map((kind) => kind.type).sort()).toEqual([...commandTypesRun()].sort());
    for (const kind of KINDS) expect([kind.type, liveFieldsOf(kind.type)]).toEqual([kind.type, kind.live]);
  });

  it('shows a stakeholder coordination’s call, transcript, summary and targets as they are now, over the result’s snapshot', () => {
    const transcript = [{ role: 'user', content: 'hello', at: '2026-11-26T00:00:30.000Z' }];
    const view = commandView(
      stored('stakeholder_coordination', {
        call,
        transcript,
        targets: ['prompt'],
        meeting_summary: { status: 'pending', requested_at: 'x' },
        context: { secret: 1 },
      }),
    );
    expect(view.data).toMatchObject({
      summary: 'done',
      call,
      transcript,
      targets: ['prompt'],
      meeting_summary: { status: 'pending', requested_at: 'x' },
    });
    // Kept on the command, never shown by GET.
    expect(view.data).not.toHaveProperty('context');
  });

  it('shows no live field for a command type that keeps none', () => {
    const view = commandView(stored('deep_research', { call, targets: ['prompt'] }));
    expect(view.data).toMatchObject({ call: { id: 'snapshot', status: 'pending' } });
    expect(view.data).not.toHaveProperty('targets');
  });
});
