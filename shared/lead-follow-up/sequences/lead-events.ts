import type { Logger } from '@aws-lambda-powertools/logger';
import * as z from 'zod/mini';
import type { Principal } from '../../access/api-keys';
import { DEMO_SITE_ID } from '../../api/examples';
import { readIdempotencyKey } from '../../api/idempotency-key';
import { NOTHING_STAGED, type EventPublisher } from '../../commands/events';
import type { IdempotencyStore } from '../../commands/idempotency';
import { startCommand, type StartDependencies } from '../../commands/start';
import type { Clock } from '../../platform/clock';
import { epochSeconds } from '../../platform/clock';
import { described } from '../../platform/described';
import { AppError } from '../../platform/errors';
import { canonicalJson, sha256Hex } from '../../platform/hashing';
import { jsonResponse } from '../../platform/http/responses';
import type { HttpResult } from '../../platform/http/types';
import { newId } from '../../platform/ids';
import { onFirstUse } from '../../platform/memo';
import { cleanText } from '../../platform/text';
import { describeFirstIssue, toIssueDetails } from '../../platform/validation';
import type { SiteDirectory } from '../../sites/directory';
import type { LeadHistory } from '../history';
import { EVENT_STAGES, type LeadStates } from '../lead-state';
import { MAX_HISTORY_SUMMARY_LENGTH } from '../writing-limits';
import { FOLLOW_UP_TYPES } from '../vocabulary';
import {
  CLICK_FOLLOW_UP_DELAY_MS,
  DEFAULT_BOUNCE_CHANNEL,
  defaultSummary,
  LEAD_EVENT_TYPES,
  planAdaptation,
  type LeadEvent,
  type PlannedChange,
} from './adaptation';
import type { AppliedChange, EventOutcome, LeadEventRecord, LeadEventRecords } from './event-records';
import { sequenceAdaptedEvent } from './events';
import { leadForPrincipal, uuidOf } from './lead-access';
import { OPEN_STEP_STATUSES, type StoredStep } from './step';
import type { StepStore } from './step-store';

/** How far ahead of this server's clock `occurred_at` may be (clock skew), no further. */
export const MAX_EVENT_CLOCK_SKEW_MS = 5 * 60_000;

/** Most remaining steps of one lead an event looks at. */
const MAX_OPEN_STEPS = 200;

/** The Idempotency-Key scope of lead events (keys are scoped per tenant and operation). */
const IDEMPOTENCY_SCOPE = 'lead_event';

/** Longest `summary` of an event, once cleaned and trimmed: what the lead's history keeps of one. */
export const MAX_EVENT_SUMMARY_LENGTH = MAX_HISTORY_SUMMARY_LENGTH;

const summaryText = z.string().check(
  z.maxLength(MAX_EVENT_SUMMARY_LENGTH + 1_024, {
    abort: true,
    message: `Too big: expected string to have <=${MAX_EVENT_SUMMARY_LENGTH} characters`,
  }),
  z.overwrite((value) => cleanText(value).trim()),
  z.maxLength(MAX_EVENT_SUMMARY_LENGTH, `Too big: expected string to have <=${MAX_EVENT_SUMMARY_LENGTH} characters`),
);

/** The earliest `occurred_at` taken: the Unix epoch (1970-01-01T00:00:00Z). Nothing a lead did in a CRM or a mailbox comes before it. */
export const EARLIEST_EVENT_TIME = '1970-01-01T00:00:00.000Z';

const occurredAt = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 date and time with a time zone, e.g. 2026-12-01T09:00:00Z' })
  .check(
    z.refine((value) => Date.parse(value) >= Date.parse(EARLIEST_EVENT_TIME), {
      message: `must not be before ${EARLIEST_EVENT_TIME}`,
      abort: true,
    }),
  );

const eventFields = {
  type: described(z.enum(LEAD_EVENT_TYPES), {
    description:
      '`replied`, `meeting_booked`, `unsubscribed`: every remaining (scheduled or due) step is cancelled; `bounced`: the remaining steps on its channel are cancelled; ' +
      `\`clicked\`: the next scheduled step comes forward to ${CLICK_FOLLOW_UP_DELAY_MS / 60_000} minutes after the click, if it was planned later; \`opened\`: nothing changes (recorded all the same).`,
  }),
  occurred_at: described(z.optional(occurredAt), {
    description: `When it happened: ISO 8601 with a time zone, not before ${EARLIEST_EVENT_TIME} and not more than ${MAX_EVENT_CLOCK_SKEW_MS / 60_000} minutes ahead of the server's clock. Default: now.`,
  }),
  channel: described(z.optional(z.enum(FOLLOW_UP_TYPES)), {
    description: 'The channel it happened on; a bounce without one is an e-mail bounce.',
  }),
  summary: described(z.optional(summaryText), {
    description: "A plain-text note for your tenant's history of the lead; without it, one is written from the type.",
    example: 'Jordan asked for a call on Friday.',
  }),
} satisfies Record<keyof LeadEvent, z.ZodMiniType>;
/** A string (its UUID form is checked after the schema: INVALID_INPUT); anything else is a malformed request. */
const site = described(
  z.string({ error: (issue) => (issue.input === undefined ? 'Required' : 'site_id must be a string') }).check(z.minLength(1, 'Required')),
  { format: 'uuid', description: "The lead's site (alias `siteId`; both at once must agree).", example: DEMO_SITE_ID },
);
/** `{site_id, event: {type, occurred_at?, channel?, summary?}}`, or the event's fields beside `site_id`. */
const nestedSchema = described(z.strictObject({ site_id: site, event: z.strictObject(eventFields) }), { title: 'Nested event' });
const flatSchema = described(z.strictObject({ site_id: site, ...eventFields }), { title: 'Flat event' });

/**
 * The body of `POST /api/leads/{leadId}/events` in either form, as the
 * reference shows it. The parser reads each form with its own member (the
 * form is known from `event`), so its problems name that form's fields.
 */
export const leadEventRequestSchema = described(z.union([nestedSchema, flatSchema]), {
  id: 'LeadEventRequest',
  description: 'The event under `event`, or its fields beside `site_id`. `null` counts as absent; an unknown field is refused.',
});

/** A validated `POST /api/leads/{leadId}/events` body. */
export interface LeadEventRequest {
  siteId: string;
  event: LeadEvent;
}

/**
 * Parses the body (INVALID_REQUEST for anything missing, malformed or
 * unknown; INVALID_INPUT for a site id that is not a UUID). `occurred_at`
 * defaults to `now` and may not lie ahead of it by more than the clock skew;
 * a bounce without a channel is an e-mail bounce.
 */
export function parseLeadEventRequest(raw: unknown, now: number): LeadEventRequest {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new AppError('INVALID_REQUEST', 'The request body must be a JSON object.');
  const body = withoutNulls(raw as Record<string, unknown>);
  if (body.siteId !== undefined) {
    // Named twice, the two must be the same string (a list holding the same id is not); alone, it is checked as site_id.
    const same =
      typeof body.site_id === 'string' && typeof body.siteId === 'string' && body.site_id.toLowerCase() === body.siteId.toLowerCase();
    if (body.site_id !== undefined && !same) {
      throw new AppError('INVALID_REQUEST', 'site_id and siteId are the same field and disagree.', [
        { code: 'custom', message: 'conflicts with site_id', path: ['siteId'] },
      ]);
    }
    body.site_id = body.site_id ?? body.siteId;
    delete body.siteId;
  }
  const nested = body.event !== undefined && typeof body.event === 'object' && body.event !== null && !Array.isArray(body.event);
  if (nested) body.event = withoutNulls(body.event as Record<string, unknown>);
  const parsed = nested ? nestedSchema.safeParse(body) : flatSchema.safeParse(body);
  if (!parsed.success) throw new AppError('INVALID_REQUEST', describeFirstIssue(parsed.error.issues), toIssueDetails(parsed.error.issues));
  const { site_id, ...rest } = parsed.data as { site_id: string } & Record<string, unknown>;
  const fields = (nested ? rest.event : rest) as {
    type: LeadEvent['type'];
    occurred_at?: string;
    channel?: LeadEvent['channel'];
    summary?: string;
  };
  const siteId = uuidOf(site_id, 'site_id');
  const path = nested ? ['event', 'occurred_at'] : ['occurred_at'];
  let occurredAt = now;
  if (fields.occurred_at !== undefined) {
    occurredAt = Date.parse(fields.occurred_at);
    if (occurredAt > now + MAX_EVENT_CLOCK_SKEW_MS) {
      throw new AppError('INVALID_REQUEST', 'occurred_at lies in the future.', [
        { code: 'invalid_value', message: 'must not be in the future', received: fields.occurred_at, path },
      ]);
    }
  }
  const channel = fields.channel ?? (fields.type === 'bounced' ? DEFAULT_BOUNCE_CHANNEL : null);
  return {
    siteId,
    event: { type: fields.type, occurred_at: new Date(occurredAt).toISOString(), channel, summary: fields.summary ? fields.summary : null },
  };
}

function withoutNulls(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== null));
}

/** What reporting a lead event works with. */
export interface LeadEventDependencies {
  sites: SiteDirectory;
  steps: StepStore;
  records: LeadEventRecords;
  /** The tenant's history of the lead, which its later follow-ups read. */
  history: LeadHistory;
  idempotency: IdempotencyStore;
  /** Where `sequence.adapted` goes (`noEvents` without webhooks). */
  events: EventPublisher;
  clock: Clock;
  /** COMMAND_RETENTION_DAYS: how long the event's record is kept, and a rescheduled step after its new time. */
  commandRetentionMs: number;
  /** The tenant's stage of the lead and its unsubscribes, which events move; without it they are not kept. */
  leadStates?: Pick<LeadStates, 'moveStage' | 'unsubscribe'>;
  /** Where a reply's answer is started (a lead follow-up command); without it a reply starts none. */
  replies?: StartDependencies;
  logger?: Pick<Logger, 'info' | 'warn'>;
}

export interface LeadEventCall {
  principal: Principal;
  leadId: string | undefined;
  body: unknown;
  /** Request headers, lower-cased names. */
  headers: Readonly<Record<string, string | undefined>>;
}

/**
 * Use case: `POST /api/leads/{leadId}/events`. Records what the lead did and
 * adapts the lead's remaining follow-ups of the caller's tenant by the rules
 * of {@link planAdaptation}, then answers 200 with what changed. The changes
 * are decided once and kept with the event before any is made; each is a
 * conditional write, so a repeated event (same Idempotency-Key and body)
 * changes nothing more, publishes `sequence.adapted` once (key
 * `<event id>:adapted`) and answers as the first time did. The event also
 * joins the tenant's history of the lead (once), so the tenant's later
 * follow-ups know of it; another tenant's never see it.
 */
export async function answerLeadEvent(deps: LeadEventDependencies, call: LeadEventCall): Promise<HttpResult> {
  const requested = deps.clock.now();
  const request = parseLeadEventRequest(call.body, requested);
  const leadId = uuidOf(call.leadId, 'leadId');
  await leadForPrincipal(deps.sites, call.principal, request.siteId, leadId);

  const key = readIdempotencyKey(call.headers, 'INVALID_REQUEST');
  let eventId = newId();
  let replayed = false;
  if (key) {
    const claim = await deps.idempotency.claim({
      tenantId: call.principal.tenantId,
      scope: IDEMPOTENCY_SCOPE,
      key,
      bodyHash: sha256Hex(canonicalJson({ lead_id: leadId, body: call.body })),
      commandId: eventId,
      now: requested,
    });
    if (claim.kind === 'replay') {
      eventId = claim.commandId;
      replayed = true;
    }
  }

  const existing = replayed ? await deps.records.get(eventId) : undefined;
  const record =
    existing ??
    (await deps.records.create({
      id: eventId,
      tenant_id: call.principal.tenantId,
      site_id: request.siteId,
      lead_id: leadId,
      event: request.event,
      plan: planAdaptation(request.event, await openSteps(deps, call.principal.tenantId, request.siteId, leadId), requested),
      created_at: new Date(requested).toISOString(),
      expires_at: epochSeconds(requested + deps.commandRetentionMs),
    }));
  const outcome = record.outcome ?? (await carryOut(deps, record));
  return jsonResponse(
    200,
    {
      success: true,
      data: {
        event_id: record.id,
        site_id: record.site_id,
        lead_id: record.lead_id,
        event: record.event,
        changes: outcome.changes,
        interaction_recorded: outcome.interaction_recorded,
        command_id: outcome.command_id ?? null,
        lead_stage: stageOf(record.event.type),
      },
    },
    replayed ? { 'idempotent-replayed': 'true' } : {},
  );
}

async function openSteps(deps: LeadEventDependencies, tenantId: string, siteId: string, leadId: string): Promise<StoredStep[]> {
  const { steps } = await deps.steps.listForLead(
    { tenantId, siteId, leadId },
    { limit: MAX_OPEN_STEPS, now: deps.clock.now(), statuses: OPEN_STEP_STATUSES },
  );
  return steps;
}

/**
 * Makes the record's planned changes, adds the event to the tenant's history of the lead, publishes `sequence.adapted` if anything changed,
 * and keeps the outcome.
 */
async function carryOut(deps: LeadEventDependencies, record: LeadEventRecord): Promise<EventOutcome> {
  const changes: AppliedChange[] = [];
  for (const planned of record.plan) {
    const applied = await applyChange(deps, record, planned);
    if (applied) changes.push(applied);
  }
  await deps.history.record(
    { tenantId: record.tenant_id, siteId: record.site_id, leadId: record.lead_id },
    {
      event_id: record.id,
      date: record.event.occurred_at,
      type: record.event.type,
      channel: record.event.channel,
      summary: record.event.summary ?? defaultSummary(record.event),
    },
    record.expires_at,
  );
  const owner = { tenantId: record.tenant_id, siteId: record.site_id, leadId: record.lead_id };
  const stage = stageOf(record.event.type);
  if (stage && deps.leadStates) await deps.leadStates.moveStage(owner, stage, record.event.occurred_at);
  if (record.event.type === 'unsubscribed' && deps.leadStates) {
    await deps.leadStates.unsubscribe(owner, record.event.channel ?? 'all', record.event.occurred_at);
  }
  const commandId = await answerReply(deps, record);
  const outcome: EventOutcome = { changes, interaction_recorded: true, ...(commandId ? { command_id: commandId } : {}) };
  // `sequence.adapted` commits with the outcome (the outbox): an event carried out once is announced once, crash or not.
  const staged = changes.length > 0 ? await deps.events.stage([sequenceAdaptedEvent(record, changes)]) : NOTHING_STAGED;
  if (await deps.records.keepOutcome(record.id, outcome, staged.items)) await staged.deliver();
  return outcome;
}

/**
 * The lead follow-up route's request parser, imported once by the first reply (a failed import is tried again by the
 * next): the other events (opens, clicks, bounces, …) never build that route's request schema.
 */
const leadFollowUpRequests = onFirstUse(() => import('../schema'));

/**
 * A reply is answered the way a rep would: a lead follow-up command is
 * started for the lead with the reply in its interactions (and on the
 * reply's channel, when known), so the sales agent drafts the answer. Its
 * Idempotency-Key derives from the event's id, which a repeated event
 * (same Idempotency-Key) shares: a retry or a repeat starts nothing more.
 */
async function answerReply(deps: LeadEventDependencies, record: LeadEventRecord): Promise<string | undefined> {
  if (record.event.type !== 'replied' || !deps.replies) return undefined;
  // Through the route's own parser, so the stored request has the one canonical shape every phase reads.
  const { parseLeadFollowUpRequest } = await leadFollowUpRequests();
  const request = parseLeadFollowUpRequest(
    {
      siteId: record.site_id,
      leadId: record.lead_id,
      ...(record.event.channel ? { followUpType: record.event.channel } : {}),
      leadStage: REPLIED_STAGE,
      previousInteractions: [
        { date: record.event.occurred_at, type: 'reply', summary: record.event.summary ?? defaultSummary(record.event) },
      ],
      output: 'channel_messages',
    },
    'channel_messages',
  );
  const { command } = await startCommand(deps.replies, {
    type: 'lead_follow_up',
    tenantId: record.tenant_id,
    siteId: record.site_id,
    request,
    idempotency: { key: `${REPLY_KEY_PREFIX}${record.id}`, bodyHash: sha256Hex(canonicalJson(request)) },
  });
  return command.id;
}

/** The stage of a lead that replied, as the answer to the reply is written for it. */
const REPLIED_STAGE = EVENT_STAGES.replied;

/** The stage an event moves the lead to (`replied` → engaged, `meeting_booked` → meeting_scheduled), if any. */
function stageOf(type: LeadEvent['type']): string | null {
  return type in EVENT_STAGES ? EVENT_STAGES[type as keyof typeof EVENT_STAGES] : null;
}

/** The Idempotency-Key of the lead follow-up a reply starts: this prefix and the event's id. */
export const REPLY_KEY_PREFIX = 'lead-event-reply:';

/**
 * One planned change, as a conditional write on the state it was planned
 * from. A step that moved meanwhile (sent, or edited) is left alone, unless
 * this very event moved it (an earlier attempt): then the change counts.
 */
async function applyChange(
  deps: LeadEventDependencies,
  record: LeadEventRecord,
  planned: PlannedChange,
): Promise<AppliedChange | undefined> {
  const at = new Date(deps.clock.now()).toISOString();
  const adaptedBy = { event_id: record.id, event_type: record.event.type, at };
  const expected = { tenantId: record.tenant_id, statuses: OPEN_STEP_STATUSES };
  const step =
    planned.action === 'cancel'
      ? await deps.steps.change(
          planned.follow_up_id,
          { at, status: 'cancelled', status_reason: record.event.type, adapted_by: adaptedBy },
          expected,
        )
      : await deps.steps.change(
          planned.follow_up_id,
          {
            at,
            scheduled_for: planned.to_scheduled_for,
            expires_at: epochSeconds(Date.parse(planned.to_scheduled_for) + deps.commandRetentionMs),
            previous_scheduled_for: planned.scheduled_for,
            adapted_by: adaptedBy,
          },
          { ...expected, statuses: ['scheduled'], scheduledFor: planned.scheduled_for },
        );
  const current = step ?? (await deps.steps.get(planned.follow_up_id));
  if (!current || (!step && current.adapted_by?.event_id !== record.id)) return undefined;
  return {
    follow_up_id: current.id,
    change: planned.action === 'cancel' ? 'cancelled' : 'rescheduled',
    previous_status: planned.from_status,
    status: current.status,
    previous_scheduled_for: planned.scheduled_for,
    scheduled_for: current.scheduled_for,
  };
}
