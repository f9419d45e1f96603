import * as z from 'zod';
import { buildOpenApiDocument } from '../../../infra/api-docs/document';
import { EVENTS, OPERATIONS } from '../../../infra/api-docs/operations';
import { ERROR_CODE_MEANINGS, codesOfStatus, errorSchemaName, errorStatuses } from '../../../shared/api/openapi/errors';
import { webhookEvent } from '../../../shared/api/openapi/operation';
import { API_REFERENCE_PATHS } from '../../../shared/api/reference';
import { ROUTES } from '../../../shared/catalogue/routes';
import { DEEP_RESEARCH_OPERATIONS } from '../../../shared/deep-research/openapi';
import { deepResearchRequestSchema, parseDeepResearchRequest } from '../../../shared/deep-research/schema';
import { LEAD_FOLLOW_UP_OPERATIONS, leadFollowUpRequestSchema } from '../../../shared/lead-follow-up/openapi';
import { idsSchema, parseLeadFollowUpRequest, structureSchema } from '../../../shared/lead-follow-up/schema';
import { FOLLOW_UP_TYPES, isFollowUpType, OUTPUTS } from '../../../shared/lead-follow-up/vocabulary';
import { followUpEditSchema, MAX_REASON_LENGTH, parseFollowUpEdit } from '../../../shared/lead-follow-up/sequences/edit';
import type { AppliedChange, LeadEventRecord } from '../../../shared/lead-follow-up/sequences/event-records';
import { followUpDueEvent, sequenceAdaptedEvent } from '../../../shared/lead-follow-up/sequences/events';
import {
  leadEventRequestSchema,
  MAX_EVENT_SUMMARY_LENGTH,
  parseLeadEventRequest,
} from '../../../shared/lead-follow-up/sequences/lead-events';
import { answerListFollowUps, listQuerySchema, MAX_PAGE_SIZE } from '../../../shared/lead-follow-up/sequences/list';
import {
  FOLLOW_UP_SEQUENCE_EVENTS,
  FOLLOW_UP_SEQUENCE_OPERATIONS,
  followUpStepSchema,
  listFollowUpsQuerySchema,
} from '../../../shared/lead-follow-up/sequences/openapi';
import { CONTENT_LIMIT } from '../../../shared/lead-follow-up/channels';
import { STEP_SUBJECT_LIMIT, stepView, type StoredStep } from '../../../shared/lead-follow-up/sequences/step';
import { HTTP_STATUS_OF, type ErrorCode } from '../../../shared/platform/errors';
import { statusCallbackParams } from '../../../shared/providers/telephony/call-status';
import { STAKEHOLDER_COORDINATION_OPERATIONS } from '../../../shared/stakeholder-coordination/openapi';
import { parseStakeholderCoordinationRequest, requestSchema as stakeholderSchema } from '../../../shared/stakeholder-coordination/schema';
import { registrationSchema, rotationSchema } from '../../../shared/webhooks/endpoint-bodies';
import { EVENT_TYPES } from '../../../shared/webhooks/event-types';
import { WEBHOOK_OPERATIONS } from '../../../shared/webhooks/openapi';

/**
 * The reference covers the service exactly: one documented operation per
 * route of the catalogue (so a route added without its `openapi.ts` entry
 * fails here), every error code under its status, and request schemas that
 * name the fields the features' own parsers read.
 */
const document = buildOpenApiDocument();
const key = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

type Operation = { operationId?: string; responses: Record<string, { content?: Record<string, { schema?: unknown; example?: unknown }> }> };
const operationsOf = (): [string, Operation][] =>
  Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>)
      .filter(([method]) => ['get', 'head', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, operation]) => [key(method, path), operation] as [string, Operation]),
  );

describe('every route is documented', () => {
  it('documents each route of the catalogue once, and nothing else', () => {
    const routes = ROUTES.map((route) => key(route.method, route.path)).sort();
    const documented = OPERATIONS.map((operation) => key(operation.method, operation.path)).sort();
    expect(documented).toEqual(routes);
    expect(new Set(documented).size).toBe(documented.length);
  });

  it('puts every documented operation in the document, under its route', () => {
    expect(
      operationsOf()
        .map(([route]) => route)
        .sort(),
    ).toEqual(ROUTES.map((route) => key(route.method, route.path)).sort());
  });

  it('names each operation once (the typed client and generators call it by this name)', () => {
    const ids = operationsOf().map(([, operation]) => operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('serves the reference on routes of the catalogue', () => {
    for (const path of Object.values(API_REFERENCE_PATHS)) expect(ROUTES).toContainEqual({ method: 'GET', path, function: 'apiDocsApi' });
  });

  it('puts every operation in a described section', () => {
    const sections = new Map((document.tags ?? []).map((tag) => [tag.name, tag.description]));
    for (const [route, operation] of operationsOf()) {
      const [tag] = (operation as unknown as { tags: string[] }).tags;
      expect([route, sections.get(tag!)?.length]).toEqual([route, expect.any(Number)]);
    }
  });

  it('asks for a key on every /api route and on no other', () => {
    for (const [route, operation] of operationsOf()) {
      const { security } = operation as { security?: unknown[] };
      if (route.split(' ')[1]!.startsWith('/api/')) expect([route, security]).toEqual([route, [{ bearerAuth: [] }, { apiKeyHeader: [] }]]);
      else expect([route, security]).toEqual([route, []]);
    }
  });
});

describe('errors', () => {
  const schemas = document.components?.schemas as Record<string, { properties: { error: { properties: { code: { enum: string[] } } } } }>;

  it('has an envelope per status, holding exactly the codes of that status', () => {
    for (const status of errorStatuses()) {
      expect([status, schemas[errorSchemaName(status)]!.properties.error.properties.code.enum]).toEqual([status, codesOfStatus(status)]);
    }
  });

  it('lists every code of shared/platform/errors.ts, each under its own status, with a meaning', () => {
    const listed = errorStatuses().flatMap((status) => schemas[errorSchemaName(status)]!.properties.error.properties.code.enum);
    expect(listed.sort()).toEqual(Object.keys(HTTP_STATUS_OF).sort());
    for (const code of Object.keys(HTTP_STATUS_OF) as ErrorCode[]) expect(ERROR_CODE_MEANINGS[code].length).toBeGreaterThan(10);
  });

  it("answers each error status of an operation with that status's envelope", () => {
    for (const [route, operation] of operationsOf()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!/^[45]\d\d$/.test(status) || status === '429') continue;
        expect([route, status, response.content?.['application/json']?.schema]).toEqual([
          route,
          status,
          { $ref: `#/components/schemas/${errorSchemaName(Number(status))}` },
        ]);
      }
    }
  });

  it('documents 401 on every /api route, and a default error answer everywhere', () => {
    for (const [route, operation] of operationsOf()) {
      expect([route, 'default' in operation.responses]).toEqual([route, true]);
      if (route.split(' ')[1]!.startsWith('/api/')) expect([route, '401' in operation.responses]).toEqual([route, true]);
    }
  });
});

/** The JSON body schema an operation documents. */
const bodySchemaOf = (operations: readonly { route: { request?: { body?: { content: Record<string, unknown> } } } }[]) => {
  const media = operations[0]!.route.request?.body?.content['application/json'];
  return media && typeof media === 'object' && 'schema' in media ? media.schema : undefined;
};

type PropertyLimits = { maxLength?: number; maxItems?: number; enum?: string[]; format?: string; anyOf?: PropertyLimits[] };
const propertiesOf = (component: string) =>
  (document.components?.schemas?.[component] as { properties: Record<string, PropertyLimits> }).properties;

/** The documented limit is the parser's: a value at it is taken, one past it refused. */
async function expectLimit(
  parse: (body: object) => unknown,
  base: object,
  field: string,
  limit: number | undefined,
  make: (size: number) => unknown,
) {
  const taken = async (size: number) => {
    try {
      await parse({ ...base, [field]: make(size) });
      return true;
    } catch {
      return false;
    }
  };
  expect([field, limit, await taken(limit ?? Number.NaN), await taken((limit ?? Number.NaN) + 1)]).toEqual([
    field,
    expect.any(Number),
    true,
    false,
  ]);
}

describe("requests: the features' own fields", () => {
  it("lead follow-up: the reference shows the runtime stages' own field schemas (structure, then ids); only followUpType and phone_number are narrowed", () => {
    expect(Object.keys(leadFollowUpRequestSchema.shape)).toEqual(Object.keys(structureSchema.shape));
    expect(bodySchemaOf(LEAD_FOLLOW_UP_OPERATIONS)).toBe(leadFollowUpRequestSchema);
    const narrowed = ['followUpType', 'phone_number'];
    for (const [name, schema] of Object.entries(leadFollowUpRequestSchema.shape)) {
      if (narrowed.includes(name)) continue;
      const runtime = (idsSchema.shape as Record<string, unknown>)[name] ?? (structureSchema.shape as Record<string, unknown>)[name];
      expect([name, schema === runtime]).toEqual([name, true]);
    }
    for (const name of narrowed) {
      expect([name, z.globalRegistry.get(leadFollowUpRequestSchema.shape[name as 'phone_number'])]).toEqual([
        name,
        z.globalRegistry.get(structureSchema.shape[name as 'phone_number']),
      ]);
    }
  });

  it('lead follow-up: the reference states the limits, formats and values the parser enforces', async () => {
    const properties = propertiesOf('LeadFollowUpRequest');
    const parse = (body: object) => parseLeadFollowUpRequest(body, 'channel_messages');
    const base = { siteId: '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c', leadId: 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80' };
    await expectLimit(parse, base, 'leadStage', properties.leadStage?.maxLength, (size) => 'x'.repeat(size));
    await expectLimit(parse, base, 'productInterest', properties.productInterest?.maxItems, (size) =>
      Array.from({ length: size }, (_, index) => `product ${index}`),
    );
    await expectLimit(
      parse,
      base,
      'productInterest',
      (properties.productInterest as { items?: PropertyLimits }).items?.maxLength,
      (size) => ['x'.repeat(size)],
    );
    await expectLimit(parse, base, 'previousInteractions', properties.previousInteractions?.maxItems, (size) =>
      Array.from({ length: size }, () => ({ date: '2026-11-02', type: 'demo', summary: 'Asked' })),
    );
    await expectLimit(parse, base, 'followUpInterval', properties.followUpInterval?.maxLength, (size) => `${'0'.repeat(size - 6)}3 days`);
    await expectLimit(parse, base, 'phone_number', properties.phone_number?.maxLength, (size) => `+1${'-'.repeat(size - 12)}4155550123`);
    for (const id of ['siteId', 'leadId', 'userId', 'agentId', 'visitorId']) {
      expect([id, properties[id]?.format]).toEqual([id, 'uuid']);
      expect(() => parse({ ...base, [id]: 'not-a-uuid' })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    }
    expect(properties.output?.enum).toEqual([...OUTPUTS]);
    expect(() => parse({ ...base, output: 'pdf' })).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
    // followUpType is checked with the site's data (INVALID_FOLLOW_UP_TYPE), by isFollowUpType.
    expect(properties.followUpType?.enum).toEqual([...FOLLOW_UP_TYPES]);
    expect(properties.followUpType?.enum?.every(isFollowUpType)).toBe(true);
    expect(isFollowUpType('fax')).toBe(false);
  });

  it('stakeholder coordination: the reference describes the very schema the parser checks, with its limits', async () => {
    expect(bodySchemaOf(STAKEHOLDER_COORDINATION_OPERATIONS)).toBe(stakeholderSchema);
    const properties = propertiesOf('StakeholderCoordinationRequest');
    expect(Object.keys(properties)).toEqual(Object.keys(stakeholderSchema.shape));
    const parse = parseStakeholderCoordinationRequest;
    const base = { site_id: '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c', lead_id: 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80' };
    await expectLimit(parse, base, 'meeting_title', properties.meeting_title?.maxLength, (size) => 'x'.repeat(size));
    await expectLimit(parse, base, 'meeting_objective', properties.meeting_objective?.maxLength, (size) => 'x'.repeat(size));
    await expectLimit(parse, base, 'participants', properties.participants?.maxItems, (size) =>
      Array.from({ length: size }, (_, index) => `Guest ${index}`),
    );
    await expectLimit(parse, base, 'phone_numbers', properties.phone_numbers?.maxItems, (size) =>
      Array.from({ length: size }, () => '+14155550123'),
    );
    const [list, text] = properties.meeting_agenda?.anyOf ?? [];
    await expectLimit(parse, base, 'meeting_agenda', list?.maxItems, (size) => Array.from({ length: size }, (_, index) => `Item ${index}`));
    await expectLimit(parse, base, 'meeting_agenda', (list as { items?: PropertyLimits } | undefined)?.items?.maxLength, (size) => [
      'x'.repeat(size),
    ]);
    // A text agenda in lines of 999 characters (an item's limit is 1,000): the text's own limit is the one met.
    await expectLimit(parse, base, 'meeting_agenda', text?.maxLength, (size) =>
      `${'x'.repeat(999)}\n`.repeat(Math.floor(size / 1_000)).padEnd(size, '\n'),
    );
    for (const id of ['site_id', 'lead_id', 'visitor_id', 'userId', 'conversationId', 'agentId']) {
      expect([id, properties[id]?.format]).toEqual([id, 'uuid']);
      await expect(parse({ ...base, [id]: 'not-a-uuid' })).rejects.toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
    }
  });

  it("Twilio's status callback: the reference shows the very fields the webhook reads", () => {
    const media = STAKEHOLDER_COORDINATION_OPERATIONS[1]!.route.request?.body?.content['application/x-www-form-urlencoded'];
    const documented = media && 'schema' in media ? (media.schema as z.ZodObject) : undefined;
    expect(Object.keys(documented?.shape ?? {})).toEqual(Object.keys(statusCallbackParams.shape));
    // The handler's zod/mini schema, shown through its chainable twin: the same def, checks and metadata.
    for (const [name, schema] of Object.entries(statusCallbackParams.shape)) {
      const shown = documented?.shape[name];
      expect([name, shown?._zod.def.type, shown?._zod.def.checks]).toEqual([name, schema._zod.def.type, schema._zod.def.checks]);
      expect([name, shown && z.toJSONSchema(shown, { io: 'input' })]).toEqual([name, z.toJSONSchema(schema, { io: 'input' })]);
    }
  });

  it('deep research: the reference describes the very schema the parser checks', () => {
    const [operation] = DEEP_RESEARCH_OPERATIONS;
    const media = operation!.route.request?.body?.content['application/json'];
    expect(media && 'schema' in media ? media.schema : undefined).toBe(deepResearchRequestSchema);
    const example = {
      operation_type: 'custom_search',
      query: 'AI agents',
      date_from: '2026-11-01',
      date_to: '2026-11-23',
      sources: ['techcrunch.com'],
      keywords: ['pricing'],
      max_results: 10,
      include_content_analysis: true,
      analysis_depth: 'advanced',
    };
    expect(Object.keys(deepResearchRequestSchema.shape).sort()).toEqual(Object.keys(example).sort());
    expect(parseDeepResearchRequest(example)).toEqual(example);
    expect(() => parseDeepResearchRequest({ ...example, extra: 1 })).toThrow();
  });
});

describe("follow-up sequences: the routes' own checks", () => {
  const now = Date.parse('2026-11-23T14:00:00.000Z');
  const future = '2026-12-01T09:00:00+01:00';
  const site = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';

  it('PATCH /api/follow-ups/{id}: each documented field is one the parser takes; unknown, empty and over-long ones are refused by both', () => {
    const bodies = [
      { subject: 'Jordan, a quick question' },
      { content: 'Hi Jordan, would Tuesday suit you?' },
      { scheduled_for: future },
      { status: 'sent' },
      { status: 'skipped', reason: 'Spoke on the phone' },
    ];
    expect([...new Set(bodies.flatMap(Object.keys))].sort()).toEqual(Object.keys(followUpEditSchema.shape).sort());
    for (const body of bodies) {
      expect(() => parseFollowUpEdit(body)).not.toThrow();
      expect([body, followUpEditSchema.safeParse(body).success]).toEqual([body, true]);
    }
    for (const body of [
      { status: 'sent', colour: 'red' },
      { subject: 'x'.repeat(STEP_SUBJECT_LIMIT + 1) },
      { status: 'due' },
      { content: '' },
    ]) {
      expect(() => parseFollowUpEdit(body)).toThrow();
      expect([body, followUpEditSchema.safeParse(body).success]).toEqual([body, false]);
    }
    // What the schema cannot say, the description does: at least one field, `reason` only with skipped or cancelled, a time or a status.
    for (const body of [{}, { reason: 'because' }, { scheduled_for: future, status: 'sent' }])
      expect(() => parseFollowUpEdit(body)).toThrow();
  });

  it('PATCH /api/follow-ups/{id}: the reference states the limits the parser enforces', () => {
    const component = document.components?.schemas?.FollowUpEdit as {
      properties: Record<string, { minLength?: number; maxLength?: number; enum?: string[] }>;
    };
    const limits = { subject: STEP_SUBJECT_LIMIT, content: CONTENT_LIMIT, reason: MAX_REASON_LENGTH };
    for (const [field, max] of Object.entries(limits)) {
      expect([field, component.properties[field]?.minLength, component.properties[field]?.maxLength]).toEqual([field, 1, max]);
      const longest = field === 'reason' ? { status: 'skipped', reason: 'x'.repeat(max) } : { [field]: 'x'.repeat(max) };
      expect(() => parseFollowUpEdit(longest)).not.toThrow();
      expect(() => parseFollowUpEdit({ ...longest, [field]: 'x'.repeat(max + 1) })).toThrow();
    }
    expect(component.properties.status?.enum).toEqual(['sent', 'skipped', 'cancelled']);
  });

  it('POST /api/leads/{leadId}/events: both documented forms parse as the code reads them; an unknown or over-long field is refused by both', () => {
    const reportEvent = FOLLOW_UP_SEQUENCE_OPERATIONS.filter((operation) => operation.path === '/api/leads/{leadId}/events');
    expect(bodySchemaOf(reportEvent)).toBe(leadEventRequestSchema);
    const event = { type: 'clicked', occurred_at: '2026-11-23T13:00:00Z', channel: 'email', summary: 'Clicked the pricing link.' };
    const forms = [
      { site_id: site, event },
      { site_id: site, ...event },
    ];
    for (const form of forms) {
      expect(leadEventRequestSchema.safeParse(form).success).toBe(true);
      expect(parseLeadEventRequest(form, now)).toEqual({ siteId: site, event: { ...event, occurred_at: '2026-11-23T13:00:00.000Z' } });
    }
    expect(parseLeadEventRequest({ site_id: site, event: { type: 'bounced' } }, now).event.channel).toBe('email');
    for (const body of [
      { site_id: site, event: { ...event, colour: 'red' } },
      { site_id: site, ...event, summary: 'x'.repeat(MAX_EVENT_SUMMARY_LENGTH + 1) },
      { site_id: site, event: { type: 'forwarded' } },
    ]) {
      expect(() => parseLeadEventRequest(body, now)).toThrow();
      expect(leadEventRequestSchema.safeParse(body).success).toBe(false);
    }
  });

  it('GET /api/leads/{leadId}/follow-ups: an unknown query parameter or a page over the limit is refused, as documented', async () => {
    const shape = listFollowUpsQuerySchema.shape;
    expect(Object.keys(shape).sort()).toEqual(['cursor', 'limit', 'site_id', 'status']);
    for (const name of ['cursor', 'limit', 'status'] as const)
      expect([name, shape[name] === listQuerySchema.shape[name]]).toEqual([name, true]);
    const untouched = new Proxy(
      {},
      {
        get: () => {
          throw new Error('no store is read before the query is valid');
        },
      },
    ) as never;
    const principal = { tenantId: 't1', keyId: 'k1', siteIds: [site] } as never;
    const lead = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
    for (const query of [
      { site_id: site, colour: 'red' },
      { site_id: site, limit: String(MAX_PAGE_SIZE + 1) },
      { site_id: site, status: 'pending' },
      {},
    ]) {
      await expect(
        answerListFollowUps({ sites: untouched, steps: untouched, pauses: untouched, clock: { now: () => now } }, principal, lead, query),
      ).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    }
    expect(shape.limit.safeParse(MAX_PAGE_SIZE + 1).success).toBe(false);
    expect(shape.site_id.safeParse(undefined).success).toBe(false);
  });

  it('the webhook events carry the documented data', () => {
    const step: StoredStep = {
      id: 'e85c0b0e-5a3f-4c1d-9a57-3f0c2b7d9e11',
      type: 'email',
      subject: 'Jordan, a quick question',
      content: 'Hi Jordan, would Tuesday suit you?',
      scheduled_for: '2026-11-25T14:00:00.000Z',
      status: 'due',
      site_id: site,
      lead_id: 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80',
      user_id: null,
      metadata: { next_steps: 'Offer a call', lead_stage: null, sequence_position: 1, template_used: 'intro' },
      tenant_id: 't1',
      command_id: '01a2089c-61b9-7628-80f6-bfab1a2ceaa4',
      created_at: '2026-11-23T14:00:00.000Z',
      due_at: '2026-11-25T14:00:01.000Z',
    };
    expect(followUpStepSchema.safeParse(stepView(step)).error?.issues).toBeUndefined();
    const change: AppliedChange = {
      follow_up_id: step.id,
      change: 'cancelled',
      previous_status: 'scheduled',
      status: 'cancelled',
      previous_scheduled_for: step.scheduled_for,
      scheduled_for: step.scheduled_for,
    };
    const record: LeadEventRecord = {
      id: '3f1e9a4c-2b7d-4e8f-a1c3-5d6e7f8a9b0c',
      tenant_id: 't1',
      site_id: site,
      lead_id: step.lead_id,
      event: { type: 'replied', occurred_at: '2026-11-24T09:12:00.000Z', channel: 'email', summary: null },
      plan: [],
      created_at: '2026-11-24T09:12:00.000Z',
      expires_at: 1,
    };
    const published = [followUpDueEvent(step), sequenceAdaptedEvent(record, [change])];
    expect(FOLLOW_UP_SEQUENCE_EVENTS.map((event) => event.type)).toEqual(published.map((event) => event.type));
    for (const [index, event] of published.entries()) {
      const body = FOLLOW_UP_SEQUENCE_EVENTS[index]!.route.request!.body!.content['application/json']!;
      const payload = {
        id: 'evt_01a2089c61b9762880f6bfab1a2ceaa4',
        type: event.type,
        created_at: '2026-11-25T14:00:02.000Z',
        data: event.data,
      };
      expect([event.type, (body as { schema: z.ZodType }).schema.safeParse(payload).error?.issues]).toEqual([event.type, undefined]);
    }
    expect(Object.keys(document.webhooks ?? {})).toEqual(expect.arrayContaining(['follow_up.due', 'sequence.adapted']));
  });
});

describe('requests: the webhook routes', () => {
  it('registration and rotation: the reference describes the very schemas endpoints-api.ts checks', () => {
    const bodyOf = (path: string) => {
      const media = WEBHOOK_OPERATIONS.find((operation) => operation.path === path && operation.method === 'POST')?.route.request?.body
        ?.content['application/json'];
      return media && 'schema' in media ? media.schema : undefined;
    };
    expect(bodyOf('/api/webhooks')).toBe(registrationSchema);
    expect(bodyOf('/api/webhooks/{id}/rotate-secret')).toBe(rotationSchema);
    const component = document.components?.schemas?.WebhookRegistration as { properties: Record<string, { maxLength?: number }> };
    expect(component.properties.description?.maxLength).toBe(500);
    expect(registrationSchema.safeParse({ url: 'https://crm.example.com/hooks', description: 'x'.repeat(501) }).success).toBe(false);
  });
});

describe('examples', () => {
  it('every request example is a valid request, and every response example fits its schema', async () => {
    let checked = 0;
    for (const operation of OPERATIONS) {
      const { route } = operation;
      const body = route.request?.body?.content['application/json'];
      if (body && 'schema' in body && body.example !== undefined) {
        // Async: a schema may read a rule on first use (the stakeholder request's phone numbers).
        expect([route.operationId, (await (body.schema as z.ZodType).safeParseAsync(body.example)).error?.issues]).toEqual([
          route.operationId,
          undefined,
        ]);
        checked += 1;
      }
      for (const [status, response] of Object.entries(route.responses)) {
        const json = 'content' in response ? response.content?.['application/json'] : undefined;
        if (!json || !('schema' in json) || json.example === undefined || !(json.schema instanceof z.ZodType)) continue;
        expect([route.operationId, status, json.schema.safeParse(json.example).error?.issues]).toEqual([
          route.operationId,
          status,
          undefined,
        ]);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(8);
  });
});

describe('webhook events', () => {
  it('documents an event as a signed POST of {id, type, created_at, data} under `webhooks`', () => {
    const event = webhookEvent({
      type: 'command.completed',
      summary: 'A command completed',
      description: 'Sent once.',
      data: z.object({ command: z.object({ command_id: z.string() }) }),
    });
    const withEvent = buildOpenApiDocument(OPERATIONS, [event]);
    const post = (
      withEvent.webhooks as Record<string, { post: { operationId: string; parameters: { name: string; in: string; required: boolean }[] } }>
    )['command.completed']!.post;
    expect(post.operationId).toBe('onCommandCompleted');
    expect(post.parameters).toContainEqual(expect.objectContaining({ name: 'Switchboard-Signature', in: 'header', required: true }));
    expect(withEvent.tags?.map((tag) => tag.name)).toContain('Webhook events');
    expect(buildOpenApiDocument(OPERATIONS, []).tags?.map((tag) => tag.name)).not.toContain('Webhook events');
  });

  it('documents every event type an endpoint may subscribe to, and no other', () => {
    expect(EVENTS.map((event) => event.type).sort()).toEqual([...EVENT_TYPES].sort());
    expect(Object.keys(document.webhooks ?? {}).sort()).toEqual([...EVENT_TYPES].sort());
    expect(document.tags?.map((tag) => tag.name)).toContain('Webhook events');
  });
});
