import { Logger } from '@aws-lambda-powertools/logger';
import type { SQSRecord } from 'aws-lambda';
import { answerGetCommand } from '../../../shared/api/get-command';
import type { PublishedEvent } from '../../../shared/commands/events';
import { jobNaming } from '../../../shared/commands/job';
import type { CallCommand } from '../../../shared/calls/record';
import { processJobRecord, type WorkerDependencies } from '../../../shared/commands/worker';
import { systemClock } from '../../../shared/platform/clock';
import { createOfflineLlm } from '../../../shared/providers/llm/offline';
import { postCallSummaryJob, runPostCallSummary } from '../../../shared/voice-assistant/summary-phase';
import { dynamoMeetingSummaryStore } from '../../../shared/voice-assistant/summary-store';
import { dynamoSiteWorkStore } from '../../../shared/sites/dynamo-site-work';
import { startOpenAiFake, type OpenAiFake } from '../../fakes/openai';
import { inMemoryTenants } from '../../unit/lead-follow-up/fixtures';
import { DEMO_SITE } from '../stakeholder-coordination/harness';
import { voiceHarness, type VoiceHarness, finishedCall as finishedCallOn } from './harness';

/**
 * The post-call summary: a call's transcript turned into the meeting
 * summary by the post_call_summary worker (offline writer, and the OpenAI
 * loopback fake), stored on the stakeholder command, shown by
 * GET /api/commands/{id}, and published once as meeting_summary.created.
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
const principal = { tenantId: 'tenant-a', siteIds: [DEMO_SITE], keyId: 'key-1' };

/** A call with a short conversation, hung up: its summary is queued. */
const finishedCall = (lines: string[]) => finishedCallOn(voice, lines);

const CONVERSATION = [
  'Yes, this is a good time.',
  'The winter campaign converted at 3 percent. We decided to move 10 percent of the events budget to paid search.',
  'Maya will send the revised plan by Friday. It is urgent.',
  'We need a contractor for the ski guide, about $4,500, which needs approval.',
];

describe('the post-call summary', () => {
  it('is written by the offline writer without a model, stored on the stakeholder command and shown by GET', async () => {
    const { commandId, childId } = await finishedCall(CONVERSATION);
    await voice.drainSummaries({ OPENAI_API_KEY: '' });

    const answer = await answerGetCommand(voice.stakeholder.commands, principal, commandId, undefined, 0);
    const data = (JSON.parse(answer.body) as { data: Record<string, unknown> }).data;
    expect(answer.statusCode).toBe(200);
    expect(data.child_ids).toEqual([childId]);
    expect(data.meeting_summary).toMatchObject({
      status: 'completed',
      command_id: childId,
      generated_by: 'offline',
      model: 'offline-writer-v1',
      created_at: expect.any(String),
      key_points: expect.arrayContaining([expect.stringContaining('converted at 3 percent')]),
      decisions: ['We decided to move 10 percent of the events budget to paid search.'],
      action_items: [
        {
          title: 'Maya will send the revised plan by Friday',
          assignee: 'Maya',
          due_date: 'Friday',
          priority: 'medium',
          description: 'Maya will send the revised plan by Friday.',
        },
      ],
      requirements: [
        {
          title: 'We need a contractor for the ski guide, about $4,500, which needs approval',
          description: 'We need a contractor for the ski guide, about $4,500, which needs approval.',
          estimated_cost: 4500,
          currency: 'USD',
          priority: 'medium',
          owner: null,
          needs_approval: true,
        },
      ],
    });
    expect(String((data.meeting_summary as Record<string, unknown>).objective_outcome)).toMatch(/spoke 4 times/);
    expect(data.transcript).toHaveLength(9);

    const child = await command(childId);
    expect(child).toMatchObject({
      type: 'post_call_summary',
      status: 'completed',
      parent_id: commandId,
      result: { parent_id: commandId, meeting_summary: { status: 'completed' } },
    });
  });

  it('is written by the model from the POST_CALL prompt and the transcript (structured output), made plain', async () => {
    const written = {
      key_points: ['**Winter campaign** converted at 3 percent.'],
      decisions: ['Move 10 percent of the events budget to paid search.'],
      action_items: [
        { title: 'Revised plan', assignee: 'Maya', due_date: '2026-12-04', priority: 'high', description: 'Send the revised plan.' },
      ],
      requirements: [
        {
          title: 'Contractor for the ski guide',
          description: 'A writer for the guide.',
          estimated_cost: 4500,
          currency: 'USD',
          priority: 'medium',
          owner: null,
          needs_approval: true,
        },
      ],
      objective_outcome: 'The call met its objective.',
    };
    openai.enqueue({ content: written });
    const { commandId } = await finishedCall(CONVERSATION);
    const before = openai.requests.length;
    await voice.drainSummaries({ OPENAI_API_KEY: 'test-openai-key', OPENAI_BASE_URL: openai.baseUrl, OPENAI_MODEL: 'gpt-summary-test' });

    const request = openai.requests[before]!;
    expect(request.body).toMatchObject({
      model: 'gpt-summary-test',
      response_format: { json_schema: { name: 'post_call_meeting_summary', strict: true } },
    });
    const [system, user] = request.body.messages as { role: string; content: string }[];
    expect(system!.content).toContain('KEY POINTS');
    expect(system!.content).toContain('ACTION ITEMS: every task agreed on the call, each with a short title');
    expect(system!.content).toContain('estimated_cost as a number, currency as an ISO 4217 code');
    expect(user!.content).toContain('Participant: Maya will send the revised plan by Friday. It is urgent.');
    expect(user!.content).toMatch(/^Transcript of the call:\nAssistant: Hello, this is/);

    expect((await command(commandId)).meeting_summary).toEqual({
      status: 'completed',
      command_id: expect.any(String),
      requested_at: expect.any(String),
      created_at: expect.any(String),
      ...written,
      key_points: ['Winter campaign converted at 3 percent.'],
      generated_by: 'openai',
      model: 'gpt-summary-test',
    });
  });

  it('falls back to the offline writer, labelled, when the model declines', async () => {
    openai.enqueue({ refusal: 'I cannot help with that.' });
    const { commandId } = await finishedCall(CONVERSATION.slice(0, 2));
    await voice.drainSummaries({ OPENAI_API_KEY: 'test-openai-key', OPENAI_BASE_URL: openai.baseUrl });
    expect((await command(commandId)).meeting_summary).toMatchObject({
      status: 'completed',
      generated_by: 'offline',
      decisions: [expect.stringContaining('We decided')],
    });
  });

  it('publishes meeting_summary.created once, with the command as GET shows it; a redelivered job changes nothing', async () => {
    const { commandId, childId } = await finishedCall(CONVERSATION.slice(0, 3));
    const published: PublishedEvent[] = [];
    const deps: WorkerDependencies = {
      commands: voice.stakeholder.commands,
      idempotency: { claim: async () => ({ kind: 'first' }), release: async () => undefined },
      tenants: inMemoryTenants({ 'tenant-a': [DEMO_SITE] }),
      queue: { send: async () => undefined, sendAgain: async () => undefined, sendToDeadLetter: async () => undefined },
      clock: systemClock,
      logger: new Logger({ logLevel: 'SILENT' }),
      leaseMs: 60_000,
      maxReceiveCount: 5,
      retryDelaysSeconds: [0],
    };
    const job = postCallSummaryJob({
      commands: voice.stakeholder.commands,
      summaries: dynamoMeetingSummaryStore(voice.services.db, voice.services.aws.tableName),
      siteWork: dynamoSiteWorkStore(voice.services.db, voice.services.aws.tableName),
      clock: systemClock,
      llm: async () => createOfflineLlm(),
      events: {
        publish: async (event) => void published.push(event),
        stage: async (drafts) => ({ items: [], deliver: async () => void published.push(...(drafts as PublishedEvent[])) }),
      },
      maxReceiveCount: 5,
    });
    const record = (id: string) =>
      ({
        messageId: id,
        body: JSON.stringify(jobNaming('post_call_summary', 'tenant-a', childId)),
        attributes: { ApproximateReceiveCount: '1' },
        messageAttributes: {},
      }) as unknown as SQSRecord;
    await processJobRecord(job, deps, record('m-1'));
    const first = await command(commandId);
    await processJobRecord(job, deps, record('m-2'));

    expect(published).toEqual([
      {
        tenantId: 'tenant-a',
        type: 'meeting_summary.created',
        idempotencyKey: `${commandId}:meeting_summary.created`,
        data: {
          command_id: commandId,
          meeting_summary: first.meeting_summary,
          command: expect.objectContaining({
            command_id: commandId,
            type: 'stakeholder_coordination',
            meeting_summary: first.meeting_summary,
          }),
        },
      },
    ]);
    expect((await command(commandId)).meeting_summary).toEqual(first.meeting_summary);
  });

  it('refuses a summary job whose stakeholder command did not ask for it (another child id)', async () => {
    const { childId } = await finishedCall(CONVERSATION.slice(0, 2));
    const child = await command(childId);
    // A forged child of the same tenant naming the parent: the parent's summary names another command.
    const forged = { ...child, id: '0194f5c2-7b1e-7c3d-9a2b-000000000001', status: 'in_progress' as const, attempts: 0 };
    await voice.stakeholder.commands.create(forged);
    const outcome = await runPostCallSummary(
      {
        commands: voice.stakeholder.commands,
        summaries: dynamoMeetingSummaryStore(voice.services.db, voice.services.aws.tableName),
        siteWork: dynamoSiteWorkStore(voice.services.db, voice.services.aws.tableName),
        clock: systemClock,
        llm: async () => createOfflineLlm(),
        maxReceiveCount: 5,
      },
      {
        command: { ...forged, request: { parent_id: child.parent_id! }, progress: {} },
        request: { parent_id: child.parent_id! },
        job: jobNaming('post_call_summary', 'tenant-a', forged.id),
        attempt: 1,
      },
    ).catch((error: unknown) => error);
    expect(outcome).toMatchObject({ code: 'INVALID_OPERATION' });
  });
});
