/**
 * Every item that grows with use, or is built from a caller's request and a
 * site's data, built at its worst: each text at its limit in three-byte
 * characters (the widest a JavaScript character can be in UTF-8), each list
 * at its longest, each budget filled; then measured as DynamoDB counts it.
 * Each stays below 350 KB, a margin under DynamoDB's 400 KB item limit (docs/data-and-keys.md
 * "Item sizes" lists each bound). Items are written by the real code
 * (the stores through a client that keeps what it is sent, the use cases on
 * their in-memory ports) wherever one builds them.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { MAX_BODY_BYTES } from '../../shared/catalogue/limits';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../../shared/api/idempotency-key';
import { dynamoIdempotencyStore } from '../../shared/commands/idempotency';
import type { TranscriptEntry } from '../../shared/calls/record';
import { runResearchPhase } from '../../shared/deep-research/research-phase';
import { parseDeepResearchRequest } from '../../shared/deep-research/schema';
import { dynamoFollowUpStore, type StoredFollowUp } from '../../shared/lead-follow-up/follow-up-store';
import { dynamoLeadHistory } from '../../shared/lead-follow-up/history';
import { CONTENT_LIMIT, SUBJECT_LIMIT } from '../../shared/lead-follow-up/channels';
import { NEXT_STEPS_LIMIT } from '../../shared/lead-follow-up/sequence';
import { dynamoLeadEventRecords, type AppliedChange } from '../../shared/lead-follow-up/sequences/event-records';
import { MAX_REASON_LENGTH } from '../../shared/lead-follow-up/sequences/edit';
import type { PlannedChange } from '../../shared/lead-follow-up/sequences/adaptation';
import { MAX_EVENT_SUMMARY_LENGTH } from '../../shared/lead-follow-up/sequences/lead-events';
import { HISTORY_WINDOW } from '../../shared/lead-follow-up/writing-limits';
import { itemSize, valueSize } from '../../shared/platform/item-size';
import { itemKey } from '../../shared/sites/dynamo-directory';
import type { Lead } from '../../shared/sites/schema';
import { acceptStakeholderCoordination, ACCEPTED_MEETING_MAX_BYTES } from '../../shared/stakeholder-coordination/accept';
import { stakeholderData } from '../../shared/stakeholder-coordination/presenter';
import { parseStakeholderCoordinationRequest } from '../../shared/stakeholder-coordination/schema';
import { RELAY_LIMITS } from '../../shared/voice-assistant/limits';
import { boundedMeetingSummary } from '../../shared/voice-assistant/summary-schema';
import { EXCERPT_CHARACTERS } from '../../shared/webhooks/http-post';
import { KEPT_ATTEMPTS, type StoredDelivery } from '../../shared/webhooks/delivery-store';
import { widest } from '../support/item-size';
import {
  DEMO,
  demoSite,
  fixedClock,
  inMemoryCommands,
  inMemoryIdempotency,
  leadFollowUpHarness,
  recordingQueue,
} from './lead-follow-up/fixtures';
import { inMemoryConversations, inMemorySites, principalFor } from './stakeholder-coordination/fixtures';

/** The margin every item keeps under DynamoDB's 400 KB. */
const BOUND = 350 * 1024;
const AT = '2026-12-01T09:00:00.000Z';
const ID = '01a2089c-61b9-7628-80f6-bfab1a2ceaa4';

/** Text of exactly `length` characters, three bytes each but for a short distinct prefix (so no two are repeats). */
const text = (length: number, tag: string | number = '') => `${tag}${widest(length - String(tag).length)}`;
const many = <T>(count: number, make: (index: number) => T): T[] => Array.from({ length: count }, (_, index) => make(index));

/** A document client that keeps what it is sent and answers every request with nothing (every write succeeds). */
function keepingClient(): { db: DynamoDBDocumentClient; sent: { input: Record<string, unknown> }[] } {
  const sent: { input: Record<string, unknown> }[] = [];
  const db = { send: async (command: { input: Record<string, unknown> }) => (sent.push(command), {}) };
  return { db: db as unknown as DynamoDBDocumentClient, sent };
}

const written = (sent: { input: Record<string, unknown> }[]) =>
  sent.map((command) => command.input.Item as Record<string, unknown>).filter(Boolean);

describe('the worst case of every item that grows', () => {
  it('a lead history entry: one event, its summary at its limit', async () => {
    const { db, sent } = keepingClient();
    await dynamoLeadHistory(db, 'table').record(
      { tenantId: 't'.repeat(63), siteId: ID, leadId: ID },
      { event_id: ID, date: AT, type: 'meeting_booked', channel: 'professional_network_message', summary: text(MAX_EVENT_SUMMARY_LENGTH) },
      2_000_000_000,
    );
    const [item] = written(sent);
    expect(itemSize(item!)).toBeLessThan(8 * 1024);
  });

  it('a lead event record: the summary, a plan for every open step it looks at, and what they came to', async () => {
    const { db, sent } = keepingClient();
    const records = dynamoLeadEventRecords(db, 'table');
    const plan: PlannedChange[] = many(200, (index) => ({
      follow_up_id: `${ID.slice(0, -3)}${String(index).padStart(3, '0')}`,
      action: 'reschedule',
      from_status: 'scheduled',
      scheduled_for: AT,
      to_scheduled_for: AT,
    }));
    await records.create({
      id: ID,
      tenant_id: 't'.repeat(63),
      site_id: ID,
      lead_id: ID,
      event: { type: 'clicked', occurred_at: AT, channel: 'professional_network_message', summary: text(MAX_EVENT_SUMMARY_LENGTH) },
      plan,
      created_at: AT,
      expires_at: 2_000_000_000,
    });
    const changes: AppliedChange[] = plan.map((step) => ({
      follow_up_id: step.follow_up_id,
      change: 'rescheduled',
      previous_status: 'scheduled',
      status: 'scheduled',
      previous_scheduled_for: AT,
      scheduled_for: AT,
    }));
    await records.keepOutcome(ID, { changes, interaction_recorded: true });
    const item = { ...written(sent)[0]!, outcome: (sent[1]!.input.ExpressionAttributeValues as Record<string, unknown>)[':outcome'] };
    expect(itemSize(item)).toBeLessThan(100 * 1024);
  });

  it("a sequence step: its copy at the limits, the model's note cut, its reason and every trace of a change", () => {
    const { db } = keepingClient();
    const step: StoredFollowUp = {
      id: ID,
      type: 'professional_network_message',
      subject: text(SUBJECT_LIMIT),
      content: text(CONTENT_LIMIT),
      scheduled_for: AT,
      status: 'scheduled',
      site_id: ID,
      lead_id: ID,
      user_id: ID,
      metadata: { next_steps: text(NEXT_STEPS_LIMIT), lead_stage: text(64), sequence_position: 5, template_used: 'x'.repeat(64) },
      tenant_id: 't'.repeat(63),
      command_id: ID,
      created_at: AT,
      updated_at: AT,
      expires_at: 2_000_000_000,
    };
    const put = (dynamoFollowUpStore(db, 'table').firstSaveItems([step]) as { Put: { Item: Record<string, unknown> } }[])[0]!.Put.Item;
    const changed = {
      ...put,
      status: 'cancelled',
      status_reason: text(MAX_REASON_LENGTH),
      due_at: AT,
      announced_at: AT,
      cancelled_at: AT,
      edited_at: AT,
      previous_scheduled_for: AT,
      adapted_by: { event_id: ID, event_type: 'meeting_booked', at: AT },
    };
    expect(itemSize(changed)).toBeLessThan(24 * 1024);
  });

  it('a webhook delivery: the attempts it keeps, each with its error and the excerpt of the answer', () => {
    const attempt = (number: number) => ({
      number,
      at: AT,
      trigger: 'redelivery' as const,
      status_code: 500,
      duration_ms: 10_000,
      error: text(200),
      response_excerpt: `${text(EXCERPT_CHARACTERS)}…`,
    });
    const delivery: StoredDelivery = {
      endpoint_id: 'we_'.padEnd(40, 'x'),
      event_id: 'evt_'.padEnd(40, 'x'),
      tenant_id: 't'.repeat(63),
      event_type: 'meeting_summary.created',
      event_key: `EVENT#${'f'.repeat(64)}`,
      status: 'pending',
      attempt_count: 1_000,
      round_start: 990,
      attempts: many(KEPT_ATTEMPTS, attempt),
      next_attempt_at: AT,
      lease_until: 1_800_000_000_000,
      redelivery_requested_at: AT,
      created_at: AT,
      updated_at: AT,
      delivered_at: AT,
    };
    expect(
      itemSize({ pk: `DELIVERY#${delivery.endpoint_id}`, sk: delivery.event_id, ...delivery, expires_at: 2_000_000_000 }),
    ).toBeLessThan(40 * 1024);
  });

  it('an idempotency record: the key is hashed, so it is the same size for any key', async () => {
    const { db, sent } = keepingClient();
    await dynamoIdempotencyStore(db, 'table').claim({
      tenantId: 't'.repeat(63),
      scope: 'lead_event',
      key: text(MAX_IDEMPOTENCY_KEY_LENGTH),
      bodyHash: 'f'.repeat(64),
      commandId: ID,
      now: Date.parse(AT),
    });
    expect(itemSize(written(sent)[0]!)).toBeLessThan(1024);
  });

  it('a lead follow-up command: the largest request and lead, a full history window, in progress and completed', async () => {
    const site = demoSite();
    const lead = site.leads!.find((item) => item.id === DEMO.leadId)!;
    Object.assign(lead, {
      name: text(10_000, 'n'),
      company: text(10_000, 'c'),
      position: text(10_000, 'p'),
      pain_points: many(50, (index) => text(1_000, `pain ${index}`)),
      preferences: Object.fromEntries(many(40, (index) => [`preference_${index}`, text(300, index)])),
      interactions: many(100, (index) => ({
        date: `2026-01-01T00:00:${String(index % 60).padStart(2, '0')}Z#${index}`,
        type: text(64, index),
        summary: text(250, index),
      })),
    } satisfies Partial<Lead>);
    // The lead is one item: it may hold no more than DynamoDB takes.
    expect(itemSize({ ...itemKey(site.id, 'leads', lead.id), ...lead })).toBeLessThan(400 * 1024);
    const body = {
      previousInteractions: many(60, (index) => ({ date: text(64, `2026-02-${index}`), type: text(64, index), summary: text(700, index) })),
      leadData: {
        name: text(500),
        company: text(500),
        position: text(500),
        budget_range: text(200),
        pain_points: many(50, (index) => text(390, `given ${index}`)),
      },
      productInterest: many(50, (index) => text(290, `product ${index}`)),
      leadStage: text(64),
    };
    expect(Buffer.byteLength(JSON.stringify({ siteId: DEMO.siteId, leadId: DEMO.leadId, ...body }))).toBeLessThanOrEqual(MAX_BODY_BYTES);
    expect(Buffer.byteLength(JSON.stringify(body))).toBeGreaterThan(MAX_BODY_BYTES - 8 * 1024);

    const harness = leadFollowUpHarness({ sites: [site], script: [{ offline: true }, { offline: true }] });
    for (let index = 0; index < 30; index++) {
      await harness.history.record(
        { tenantId: 'tenant-a', siteId: DEMO.siteId, leadId: DEMO.leadId },
        {
          event_id: `e-${index}`,
          date: `2026-11-${String(index + 1).padStart(2, '0')}T00:00:00.000Z`,
          type: 'replied',
          channel: 'email',
          summary: text(MAX_EVENT_SUMMARY_LENGTH, index),
        },
        2_000_000_000,
      );
    }
    const { command, job } = await harness.accept(body);
    await harness.deliverSales(job);
    const handedOff = harness.commands.records.get(command.id)!;
    expect(handedOff.status).toBe('in_progress');
    const progress = handedOff.progress as { sales: { context: { interactions: { summary: string }[] } } };
    expect(progress.sales.context.interactions.reduce((total, item) => total + item.summary.length, 0)).toBeLessThanOrEqual(
      HISTORY_WINDOW.maxCharacters,
    );
    // What WRITING_LIMITS promises: the context and the kept request, each bounded.
    expect(valueSize(progress.sales.context)).toBeLessThan(64 * 1024);
    expect(valueSize(handedOff.request)).toBeLessThan(48 * 1024);
    expect(itemSize({ pk: `CMD#${command.id}`, sk: 'CMD', ...handedOff })).toBeLessThan(BOUND);

    for (const sent of harness.queue.sent.filter((item) => item.queue === 'copywriter')) await harness.deliverCopywriter(sent.job);
    const done = harness.commands.records.get(command.id)!;
    expect(done.status).toBe('completed');
    expect(itemSize({ pk: `CMD#${command.id}`, sk: 'CMD', ...done })).toBeLessThan(BOUND);
  });

  it('a stakeholder command: the largest request taken on the largest site, its result, a full transcript and meeting summary', async () => {
    const site = demoSite();
    site.name = text(10_000);
    const cmo = site.agents!.find((agent) => agent.role === 'cmo')!;
    Object.assign(cmo, { name: text(10_000), instructions: text(10_000) });
    const lead = site.leads!.find((item) => item.id === DEMO.leadId)!;
    Object.assign(lead, { name: text(10_000), company: text(10_000) });
    site.tasks = many(50, (index) => ({
      id: `task-${index}`,
      title: text(10_000, index),
      status: text(64, index),
      owner: text(10_000, index),
      due_date: text(64, index),
      description: text(10_000, index),
    }));
    site.requirements = many(50, (index) => ({
      id: `requirement-${index}`,
      title: text(10_000, index),
      estimated_cost: text(64),
      priority: text(32),
      description: text(10_000, index),
    }));
    site.campaigns = many(50, (index) => ({
      id: `campaign-${index}`,
      title: text(10_000, index),
      performance: { notes: text(10_000, index) },
    }));
    site.content = many(50, (index) => ({
      id: `content-${index}`,
      title: text(10_000, index),
      description: text(10_000, index),
      target_completion: text(64),
    }));
    site.resource_allocation = { budget: 25_000, notes: text(50_000) };
    const commands = inMemoryCommands();
    const conversations = inMemoryConversations();
    const deps = {
      commands,
      idempotency: inMemoryIdempotency(),
      queue: recordingQueue(),
      clock: fixedClock(),
      sites: inMemorySites([site]),
      conversations,
      siteWork: { listTasks: async () => [], listRequirements: async () => [] },
      maxWaitSeconds: 0,
    };
    const body = (agendaItem: number) => ({
      site_id: DEMO.siteId,
      lead_id: DEMO.leadId,
      meeting_title: text(200),
      meeting_objective: text(2_000),
      participants: many(50, (index) => text(80, index)),
      meeting_agenda: many(50, (index) => text(agendaItem, index)),
      phone_numbers: many(10, (index) => `+1415555012${index}`),
      include_context_summary: true,
    });
    const accept = (agendaItem: number) =>
      acceptStakeholderCoordination(deps, { principal: principalFor([DEMO.siteId]), body: body(agendaItem), headers: {} });

    // Every limit at once, in wide characters, would make a command past its share: refused, nothing kept.
    await expect(accept(200)).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      details: [expect.objectContaining({ path: ['meeting_agenda'] })],
    });
    expect(commands.records.size).toBe(0);
    expect(conversations.items.size).toBe(0);
    // The largest agenda that is taken (in steps of 10 characters an item).
    let agendaItem = 200;
    let answer: Awaited<ReturnType<typeof accept>> | undefined;
    while (!answer) answer = await accept((agendaItem -= 10)).catch(() => undefined);
    expect(answer.statusCode).toBe(202);
    const [accepted] = [...commands.records.values()];
    const { targets: _targets, ...shown } = stakeholderData(accepted!, await parseStakeholderCoordinationRequest(body(agendaItem)));

    // The transcript at its byte budget (widest caller turns and replies), and the largest meeting summary.
    const transcript: TranscriptEntry[] = [];
    let bytes = 0;
    for (let index = 0; ; index++) {
      const entry: TranscriptEntry =
        index % 2 === 0
          ? { role: 'user', content: text(RELAY_LIMITS.maxPromptCharacters, index), at: AT }
          : {
              role: 'assistant',
              content: text(RELAY_LIMITS.maxReplyCharacters, index),
              at: AT,
              generated_by: 'openai',
              model: 'gpt-4o-mini',
            };
      if (bytes + 1 + valueSize(entry) > RELAY_LIMITS.maxTranscriptBytes) break;
      bytes += 1 + valueSize(entry);
      transcript.push(entry);
    }
    const long = many(50, (index) => text(5_000, index));
    const summary = boundedMeetingSummary({
      key_points: long,
      decisions: long,
      action_items: long.map((description) => ({
        title: description,
        assignee: description,
        due_date: description,
        priority: 'high',
        description,
      })),
      requirements: long.map((description) => ({
        title: description,
        description,
        estimated_cost: 1e15,
        currency: 'USD',
        priority: 'low',
        owner: description,
        needs_approval: true,
      })),
      objective_outcome: text(5_000),
    });
    const ended = {
      pk: `CMD#${accepted!.id}`,
      sk: 'CMD',
      ...accepted!,
      status: 'completed',
      result: { ...shown, generated_by: 'openai' },
      transcript,
      transcript_bytes: bytes,
      meeting_summary: {
        status: 'completed',
        command_id: ID,
        requested_at: AT,
        ...summary,
        generated_by: 'openai',
        model: 'gpt-4o-mini',
        created_at: AT,
      },
      child_ids: [ID],
    };
    expect(itemSize(ended)).toBeLessThan(BOUND);
  });

  it('a stakeholder request at every limit in plain Latin text is taken on an ordinary site', async () => {
    const commands = inMemoryCommands();
    const deps = {
      commands,
      idempotency: inMemoryIdempotency(),
      queue: recordingQueue(),
      clock: fixedClock(),
      sites: inMemorySites([demoSite()]),
      conversations: inMemoryConversations(),
      siteWork: { listTasks: async () => [], listRequirements: async () => [] },
      maxWaitSeconds: 0,
    };
    const latin = (length: number, index: number) => `${index} ${'a'.repeat(length - String(index).length - 1)}`;
    const body = {
      site_id: DEMO.siteId,
      lead_id: DEMO.leadId,
      meeting_title: latin(200, 0),
      meeting_objective: latin(2_000, 0),
      participants: many(50, (index) => latin(80, index)),
      meeting_agenda: many(50, (index) => latin(200, index)),
      phone_numbers: many(10, (index) => `+1415555012${index}`),
      include_context_summary: true,
    };
    expect((await acceptStakeholderCoordination(deps, { principal: principalFor([DEMO.siteId]), body, headers: {} })).statusCode).toBe(202);
    expect(itemSize({ ...[...commands.records.values()][0]! })).toBeLessThan(ACCEPTED_MEETING_MAX_BYTES / 2);
  });

  it('a deep research command: a hundred results at every limit, each with the longest analysis', async () => {
    const request = parseDeepResearchRequest({
      operation_type: 'general_news',
      query: text(500),
      max_results: 100,
      include_content_analysis: true,
      keywords: many(20, (index) => text(100, index)),
      sources: many(20, (index) => `source-${index}.example`),
    });
    const hits = many(100, (index) => ({
      title: text(300, index),
      url: `https://news-${index}.example/${'a'.repeat(2_000)}`,
      snippet: text(1_000, index),
      publishedDate: '2026-11-20',
    }));
    const outcome = await runResearchPhase(
      {
        commands: { recordProgress: async () => true },
        clock: { now: () => Date.parse(AT) },
        providers: async () => [{ name: 'google', search: async () => ({ hits: [], requests: 0 }) }],
        localCorpus: () => ({ name: 'local-corpus', search: async () => ({ hits: [], requests: 0 }) }),
        allowOffline: false,
        chain: async () => ({ provider: 'google', hits, providerRequests: 10, passedOver: [] }),
        cache: { get: async () => undefined, put: async () => undefined },
        analyze: async ({ results }) =>
          results.map((result, index) => ({
            ...result,
            content_analysis: {
              summary: text(600, index),
              key_points: many(5, (point) => text(200, point)),
              sentiment: 'neutral',
              relevance_score: 10,
            },
          })),
      },
      {
        command: {
          id: ID,
          type: 'deep_research',
          status: 'in_progress',
          tenant_id: 't'.repeat(63),
          request,
          created_at: AT,
          updated_at: AT,
          attempts: 1,
        },
        request,
        job: {} as never,
        attempt: 1,
      },
    );
    if (outcome.status !== 'completed') throw new Error(`research ended ${outcome.status}`);
    const result = outcome.result as { results: unknown[] };
    expect(result.results.length).toBeGreaterThan(10);
    expect(
      itemSize({
        pk: `CMD#${ID}`,
        sk: 'CMD',
        id: ID,
        type: 'deep_research',
        status: 'completed',
        tenant_id: 't'.repeat(63),
        request,
        result,
        created_at: AT,
        updated_at: AT,
        attempts: 1,
        expires_at: 2_000_000_000,
      }),
    ).toBeLessThan(BOUND);
  });
});
