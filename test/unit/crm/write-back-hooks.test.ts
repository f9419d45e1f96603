import type { JobEnvelope } from '../../../shared/commands/job';
import type { StoredCommand } from '../../../shared/commands/record';
import {
  crmSyncProducerOf,
  historyWithCrmSync,
  leadFollowUpFinishHook,
  meetingSummaryFinishHook,
  stepsWithCrmSync,
} from '../../../shared/composition/crm-sync';
import type { CrmSyncRequest } from '../../../shared/crm/sync/job';
import type { LeadHistory } from '../../../shared/lead-follow-up/history';
import type { StoredStep } from '../../../shared/lead-follow-up/sequences/step';
import type { StepStore } from '../../../shared/lead-follow-up/sequences/step-store';

const SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
const AT = '2026-11-20T10:00:00.000Z';

/** A queue that keeps what is sent to it, and can be made to refuse. */
function recordingQueue() {
  const sent: JobEnvelope[] = [];
  const state = { refuse: false };
  return {
    sent,
    state,
    requests: () => sent.map((job) => job.request as CrmSyncRequest),
    send: async (queue: string, job: JobEnvelope) => {
      if (state.refuse) throw new Error('SQS is down');
      expect(queue).toBe('crmsync');
      sent.push(job);
    },
  };
}

const quietLogger = () => {
  const warned: unknown[] = [];
  return { warned, warn: (...args: unknown[]) => void warned.push(args) };
};

/** The tenants connected to a CRM here: acme is, globex is not. */
const connectedTenants = async (tenantId: string) => tenantId === 'acme';

const commandsOf = (commands: Partial<StoredCommand>[]) => ({
  get: async (id: string) => commands.find((command) => command.id === id) as StoredCommand | undefined,
});

const step: StoredStep = {
  id: 'step-1',
  type: 'email',
  subject: 'A quick question',
  content: 'Hi Jordan, would Tuesday suit you?',
  scheduled_for: AT,
  status: 'sent',
  site_id: SITE,
  lead_id: LEAD,
  user_id: null,
  metadata: { next_steps: '', lead_stage: null, sequence_position: 1, template_used: 'intro' },
  tenant_id: 'acme',
  command_id: 'command-1',
  created_at: AT,
  sent_at: AT,
};

describe('the write-back producers', () => {
  it('queues nothing from a function whose catalogue entry does not send to the crm queue', async () => {
    const queue = recordingQueue();
    await crmSyncProducerOf('listFollowUpsApi', queue, quietLogger(), connectedTenants).queue('acme', [
      { site_id: SITE, lead_id: LEAD, source: 'lead_event', source_id: 'e1', write: { kind: 'lead_status', trigger: 'replied' } },
    ]);
    expect(queue.sent).toEqual([]);
  });

  it('queues nothing for a tenant without a CRM connection, and a failed check is told, never thrown', async () => {
    const queue = recordingQueue();
    const request: CrmSyncRequest = {
      site_id: SITE,
      lead_id: LEAD,
      source: 'lead_event',
      source_id: 'e1',
      write: { kind: 'lead_status', trigger: 'replied' },
    };
    await crmSyncProducerOf('leadEventsApi', queue, quietLogger(), connectedTenants).queue('globex', [request]);
    await crmSyncProducerOf('copywriterWorker', queue, quietLogger(), connectedTenants).queueOrThrow('globex', [request]);
    expect(queue.sent).toEqual([]);

    const logger = quietLogger();
    const failing = async () => {
      throw new Error('DynamoDB is unavailable');
    };
    await crmSyncProducerOf('leadEventsApi', queue, logger, failing).queue('acme', [request]);
    expect(logger.warned).toHaveLength(1);
    await expect(crmSyncProducerOf('copywriterWorker', queue, logger, failing).queueOrThrow('acme', [request])).rejects.toThrow(
      'DynamoDB is unavailable',
    );
    expect(queue.sent).toEqual([]);
  });

  it('queues a step reported sent as its copy and the first-step lead status; other changes queue nothing', async () => {
    const queue = recordingQueue();
    const crm = crmSyncProducerOf('updateFollowUpApi', queue, quietLogger(), connectedTenants);
    let current = step;
    const steps = stepsWithCrmSync({ change: async () => current } as unknown as StepStore, crm);

    current = { ...step, status: 'due' };
    await steps.change(step.id, { at: AT, content: 'New copy' }, { tenantId: 'acme', statuses: ['due'] });
    expect(queue.sent).toEqual([]);

    current = step;
    await steps.change(step.id, { at: AT, status: 'sent' }, { tenantId: 'acme', statuses: ['due'] });
    expect(queue.sent.map((job) => job.tenant_id)).toEqual(['acme', 'acme']);
    expect(queue.requests()).toEqual([
      {
        site_id: SITE,
        lead_id: LEAD,
        source: 'step',
        source_id: 'step-1',
        write: { kind: 'engagement', engagement: 'email', subject: 'A quick question', body: step.content, at: AT },
      },
      { site_id: SITE, lead_id: LEAD, source: 'step', source_id: 'first', write: { kind: 'lead_status', trigger: 'first_step_sent' } },
    ]);
  });

  it('never fails a request for a send that failed: it tells the log instead', async () => {
    const queue = recordingQueue();
    queue.state.refuse = true;
    const logger = quietLogger();
    const steps = stepsWithCrmSync(
      { change: async () => step } as unknown as StepStore,
      crmSyncProducerOf('updateFollowUpApi', queue, logger, connectedTenants),
    );

    await expect(steps.change(step.id, { at: AT, status: 'sent' }, { tenantId: 'acme', statuses: ['due'] })).resolves.toEqual(step);
    expect(logger.warned).toHaveLength(2);
  });

  it('queues the lead status of the events that move one, and none for the others', async () => {
    const queue = recordingQueue();
    const history = historyWithCrmSync(
      { record: async () => 'recorded' } as unknown as LeadHistory,
      crmSyncProducerOf('leadEventsApi', queue, quietLogger(), connectedTenants),
    );
    const owner = { tenantId: 'acme', siteId: SITE, leadId: LEAD };
    for (const type of ['opened', 'clicked', 'bounced', 'replied'])
      await history.record(owner, { event_id: `event-${type}`, date: AT, type, channel: 'email', summary: type }, 0);

    expect(queue.requests().map((request) => [request.source_id, request.write])).toEqual([
      ['event-bounced', { kind: 'lead_status', trigger: 'bounced' }],
      ['event-replied', { kind: 'lead_status', trigger: 'replied' }],
    ]);
  });

  it("notes a lead follow-up's messages when it completes with them, and fails the hook when the send fails", async () => {
    const queue = recordingQueue();
    const hook = leadFollowUpFinishHook(crmSyncProducerOf('copywriterWorker', queue, quietLogger(), connectedTenants), {
      now: () => Date.parse(AT),
    });
    // The finishing command carries its request: the hook reads nothing.
    const command = { id: 'command-1', type: 'lead_follow_up' as const, tenant_id: 'acme', request: { siteId: SITE, leadId: LEAD } };
    const messages = { email: { title: 'Tuesday?', message: 'Hi Jordan, would Tuesday suit you?' } };

    await hook(command, { status: 'failed', error: { code: 'SYSTEM_ERROR', message: 'x' } });
    await hook(command, { status: 'completed', result: { follow_ups: [] } });
    expect(queue.sent).toEqual([]);

    await hook(command, { status: 'completed', result: { messages } });
    expect(queue.requests()).toEqual([
      {
        site_id: SITE,
        lead_id: LEAD,
        source: 'follow_up',
        source_id: 'command-1',
        write: {
          kind: 'engagement',
          engagement: 'note',
          body: 'Follow-up messages prepared\n\nemail: Tuesday?\nHi Jordan, would Tuesday suit you?',
          at: AT,
        },
      },
    ]);

    queue.state.refuse = true;
    await expect(hook(command, { status: 'completed', result: { messages } })).rejects.toThrow('SQS is down');
  });

  it('logs a call summary for a call about a lead, and nothing for a call with no lead or a summary with nothing in it', async () => {
    const queue = recordingQueue();
    const hook = meetingSummaryFinishHook(
      commandsOf([
        { id: 'call-1', site_id: SITE, request: { site_id: SITE, lead_id: LEAD }, updated_at: AT },
        { id: 'call-2', site_id: SITE, request: { site_id: SITE }, updated_at: AT },
      ]),
      crmSyncProducerOf('postCallSummaryWorker', queue, quietLogger(), connectedTenants),
    );
    const summary = {
      status: 'completed',
      requested_at: AT,
      created_at: AT,
      objective_outcome: 'Agreed on a site visit.',
      key_points: ['Budget approved'],
      decisions: [],
      action_items: [{ title: 'Send the plan', assignee: 'Sam', due_date: 'Friday', priority: 'high', description: '' }],
      requirements: [],
    };
    const ofCall = (parent: string) => ({
      id: `summary-of-${parent}`,
      type: 'post_call_summary' as const,
      tenant_id: 'acme',
      parent_id: parent,
      request: { parent_id: parent },
    });

    await hook(ofCall('call-2'), { status: 'completed', result: { meeting_summary: summary } });
    await hook(ofCall('call-1'), { status: 'completed', result: { meeting_summary: { status: 'skipped', requested_at: AT } } });
    expect(queue.sent).toEqual([]);

    await hook(ofCall('call-1'), { status: 'completed', result: { meeting_summary: summary } });
    expect(queue.requests()).toEqual([
      {
        site_id: SITE,
        lead_id: LEAD,
        source: 'meeting_summary',
        source_id: 'call-1',
        write: {
          kind: 'engagement',
          engagement: 'call',
          subject: 'Call summary',
          body: 'Outcome: Agreed on a site visit.\n\nKey points:\n- Budget approved\n\nAction items:\n- Send the plan (Sam, Friday)',
          at: AT,
        },
      },
    ]);
  });
});
