import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { answerDeleteCommand } from '../../../shared/api/delete-command';
import type { CallCommand } from '../../../shared/calls/record';
import { dynamoIdempotencyStore } from '../../../shared/commands/idempotency';
import { jobNaming } from '../../../shared/commands/job';
import { systemClock } from '../../../shared/platform/clock';
import { createOfflineLlm } from '../../../shared/providers/llm/offline';
import { dynamoSiteWorkStore, siteWorkPartition } from '../../../shared/sites/dynamo-site-work';
import { requestMeetingSummary } from '../../../shared/voice-assistant/end-of-call';
import { callWorkLeftovers } from '../../../shared/voice-assistant/summary-erase';
import { runPostCallSummary, type PostCallSummaryDependencies } from '../../../shared/voice-assistant/summary-phase';
import { dynamoMeetingSummaryStore } from '../../../shared/voice-assistant/summary-store';
import { NOTHING_USABLE_REASON } from '../../../shared/voice-assistant/summary-usable';
import { startOpenAiFake, type OpenAiFake } from '../../fakes/openai';
import { recordingQueue } from '../../unit/lead-follow-up/fixtures';
import { DEMO_SITE } from '../stakeholder-coordination/harness';
import { voiceHarness, type VoiceHarness, finishedCall as finishedCallOn } from './harness';

/**
 * A call's meeting summary becomes the site's data, for the tenant whose
 * call it was: its action items as tasks and its requirements as
 * requirements (SITEWORK#<tenant>#<site>), written once with the summary
 * however often the job or the end of the call runs, shown in that tenant's
 * next context summary only, and erased with the command.
 */
let voice: VoiceHarness;
let openai: OpenAiFake;

beforeAll(async () => {
  voice = await voiceHarness();
  openai = await startOpenAiFake();
}, 60_000);
afterAll(async () => {
  await voice.stop();
  await openai.close();
});

const command = (id: string): Promise<CallCommand> => voice.stakeholder.command(id);
const owner = (tenantId = 'tenant-a') => ({ tenantId, siteId: DEMO_SITE });

/** Every call-made item of the tenant on the demo site, as stored. */
async function storedWork(tenantId = 'tenant-a'): Promise<Record<string, unknown>[]> {
  const { Items = [] } = await voice.services.db.send(
    new QueryCommand({
      TableName: voice.services.aws.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': siteWorkPartition(owner(tenantId)) },
      ConsistentRead: true,
    }),
  );
  return Items;
}

/** A call with a short conversation, hung up: its summary is queued. */
const finishedCall = (lines: string[]) => finishedCallOn(voice, lines);

const CONVERSATION = [
  'Yes, this is a good time.',
  'Maya will send the revised plan by Friday. It is urgent.',
  'Leo will book the photographer by next week.',
  'We need a contractor for the ski guide, about $4,500, which needs approval.',
  'Nice to have: a new analytics tool.',
];

function summaryDeps(): PostCallSummaryDependencies {
  const { db, aws } = voice.services;
  return {
    commands: voice.stakeholder.commands,
    summaries: dynamoMeetingSummaryStore(db, aws.tableName),
    siteWork: dynamoSiteWorkStore(db, aws.tableName),
    clock: systemClock,
    llm: async () => createOfflineLlm(),
    maxReceiveCount: 5,
  };
}

let summarized: { commandId: string; childId: string };

describe("the meeting summary's tasks and requirements", () => {
  it('are written once, with the summary, however often the end of the call is reported and the job runs', async () => {
    summarized = await finishedCall(CONVERSATION);
    const { commandId, childId } = summarized;
    // The completed status callback (the backstop) reports the end again: nothing more is queued.
    const queue = recordingQueue();
    const endOfCall = {
      commands: voice.stakeholder.commands,
      idempotency: dynamoIdempotencyStore(voice.services.db, voice.services.aws.tableName),
      queue,
      clock: systemClock,
      summaries: dynamoMeetingSummaryStore(voice.services.db, voice.services.aws.tableName),
    };
    expect(await requestMeetingSummary(endOfCall, commandId)).toBe('already_requested');
    expect(queue.sent).toEqual([]);

    // The job, run three times: twice by hand (a redelivery that writes its summary again), then from the queue.
    const child = await command(childId);
    const input = {
      command: { ...child, request: { parent_id: commandId }, progress: {} },
      request: { parent_id: commandId },
      job: jobNaming('post_call_summary', 'tenant-a', childId),
      attempt: 1,
    };
    await runPostCallSummary(summaryDeps(), input);
    const first = await storedWork();
    await runPostCallSummary(summaryDeps(), input);
    await voice.drainSummaries({ OPENAI_API_KEY: '' });

    const work = await storedWork();
    expect(work).toEqual(first);
    expect(work.map((item) => item.id).sort()).toEqual([
      `${commandId}-requirement-01`,
      `${commandId}-requirement-02`,
      `${commandId}-task-01`,
      `${commandId}-task-02`,
    ]);
    const tasks = await dynamoSiteWorkStore(voice.services.db, voice.services.aws.tableName).listTasks(owner(), 10);
    expect(tasks).toEqual([
      {
        id: `${commandId}-task-01`,
        title: 'Maya will send the revised plan by Friday',
        status: 'open',
        owner: 'Maya',
        due_date: 'Friday',
        priority: 'medium',
        description: 'Maya will send the revised plan by Friday.',
        source_command_id: commandId,
        created_at: expect.any(String),
      },
      expect.objectContaining({ id: `${commandId}-task-02`, owner: 'Leo', due_date: 'next week', status: 'open' }),
    ]);
    const requirements = await dynamoSiteWorkStore(voice.services.db, voice.services.aws.tableName).listRequirements(owner(), 10);
    expect(requirements).toEqual([
      expect.objectContaining({
        id: `${commandId}-requirement-01`,
        status: 'pending_approval',
        estimated_cost: 4500,
        currency: 'USD',
        needs_approval: true,
        source_command_id: commandId,
      }),
      expect.objectContaining({
        id: `${commandId}-requirement-02`,
        status: 'proposed',
        estimated_cost: null,
        priority: 'low',
        needs_approval: false,
      }),
    ]);
    // The summary shows the same items, in the same order.
    expect((await command(commandId)).meeting_summary).toMatchObject({
      status: 'completed',
      action_items: [expect.objectContaining({ title: tasks[0]!.title }), expect.objectContaining({ title: tasks[1]!.title })],
    });
  });

  it("appear in the tenant's next context summary and pre-call prompt, labelled as from a call; never in another tenant's", async () => {
    const { commandId } = summarized;
    const next = await voice.stakeholder.accept({ meeting_agenda: ['Follow-up'] });
    const summary = next.data.context_summary as { tasks: Record<string, unknown>[]; requirements: Record<string, unknown>[] };
    expect(summary.tasks.filter((task) => task.source === 'call')).toEqual([
      {
        id: `${commandId}-task-01`,
        title: 'Maya will send the revised plan by Friday',
        status: 'open',
        owner: 'Maya',
        due_date: 'Friday',
        description: 'Maya will send the revised plan by Friday.',
        source: 'call',
        source_command_id: commandId,
      },
      expect.objectContaining({ id: `${commandId}-task-02`, source: 'call' }),
    ]);
    expect(summary.tasks.some((task) => task.source === undefined)).toBe(true);
    expect(summary.requirements.filter((requirement) => requirement.source === 'call')).toEqual([
      expect.objectContaining({ id: `${commandId}-requirement-01`, estimated_cost: '4500 USD', status: 'pending_approval' }),
      expect.objectContaining({ id: `${commandId}-requirement-02`, estimated_cost: null, status: 'proposed' }),
    ]);
    const prompts = next.data.system_prompts as { id: string; content: string }[];
    expect(prompts[0]!.content).toContain(
      'Maya will send the revised plan by Friday (status open, owner Maya, due Friday, from an earlier call)',
    );

    const other = await voice.stakeholder.accept({ meeting_agenda: ['Follow-up'] }, {}, 'tenant-b');
    const otherSummary = other.data.context_summary as { tasks: Record<string, unknown>[]; requirements: Record<string, unknown>[] };
    expect(JSON.stringify(otherSummary)).not.toContain(commandId);
    expect(otherSummary.tasks.length).toBeGreaterThan(0);
    expect([...otherSummary.tasks, ...otherSummary.requirements].some((item) => item.source === 'call')).toBe(false);
    expect((other.data.system_prompts as { content: string }[])[0]!.content).not.toContain('from an earlier call');
  });

  it("are erased with their command (DELETE /api/commands/{id}), the tenant's own only", async () => {
    const { commandId } = summarized;
    const store = dynamoSiteWorkStore(voice.services.db, voice.services.aws.tableName);
    // Another tenant's erase of an id it does not own reaches nothing of tenant-a.
    expect(await callWorkLeftovers(store)({ ...(await command(commandId)), tenant_id: 'tenant-b' })).toEqual({
      task_ids: [],
      requirement_ids: [],
    });
    expect(await storedWork()).toHaveLength(4);

    const principal = { tenantId: 'tenant-a', siteIds: [DEMO_SITE], keyId: 'key-1' };
    const eraser = callWorkLeftovers(store);
    const answer = await answerDeleteCommand(voice.stakeholder.commands, principal, commandId, Date.now(), eraser);
    expect(answer.statusCode).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({
      data: {
        deleted_ids: [commandId, summarized.childId],
        deleted_task_ids: [`${commandId}-task-01`, `${commandId}-task-02`],
        deleted_requirement_ids: [`${commandId}-requirement-01`, `${commandId}-requirement-02`],
      },
    });
    expect(await storedWork()).toEqual([]);
  });

  it('are none from a transcript with nothing usable: an empty summary with its reason, and no model asked', async () => {
    const { commandId } = await finishedCall(['Hello?', 'Um... uh.', '...']);
    const before = openai.requests.length;
    await voice.drainSummaries({ OPENAI_API_KEY: 'test-openai-key', OPENAI_BASE_URL: openai.baseUrl });
    expect(openai.requests.length).toBe(before);
    expect((await command(commandId)).meeting_summary).toMatchObject({
      status: 'completed',
      key_points: [],
      decisions: [],
      action_items: [],
      requirements: [],
      reason: NOTHING_USABLE_REASON,
      generated_by: 'offline',
    });
    expect((await storedWork()).filter((item) => item.source_command_id === commandId)).toEqual([]);
  });
});
