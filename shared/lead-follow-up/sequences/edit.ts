import * as z from 'zod/mini';
import { described } from '../../platform/described';
import '../../platform/zod-messages';
import type { Principal } from '../../access/api-keys';
import type { Clock } from '../../platform/clock';
import { epochSeconds } from '../../platform/clock';
import { AppError, type IssueDetail } from '../../platform/errors';
import { jsonResponse } from '../../platform/http/responses';
import type { HttpResult } from '../../platform/http/types';
import { isUuid } from '../../platform/ids';
import { onFirstUse } from '../../platform/memo';
import { shownId } from '../../platform/shown';
import { cleanedText } from '../../platform/text-field';
import { describeFirstIssue, toIssueDetails } from '../../platform/validation';
import { CHANNEL_LIMITS, CONTENT_LIMIT } from '../channels';
import { canEditCopy, canMove, canReschedule, contentLimitOf, isStepExpired, STEP_SUBJECT_LIMIT, stepView, type StoredStep } from './step';
import type { StepChange, StepStore } from './step-store';

/** Furthest ahead a step may be scheduled. */
export const MAX_SCHEDULE_AHEAD_MS = 365 * 86_400_000;

/** The states a caller may put a step in. */
export const CALLER_STATUSES = ['sent', 'skipped', 'cancelled'] as const;

/** Longest `reason` for a skipped or cancelled step. */
export const MAX_REASON_LENGTH = 500;

const text = (max: number) => cleanedText(max).check(z.minLength(1, 'must not be empty'));

/** The content limit of each channel that has one, as the reference states it. */
const contentLimits = `${CONTENT_LIMIT} characters (${Object.entries(CHANNEL_LIMITS)
  .filter(([, limits]) => limits.message !== undefined)
  .map(([channel, limits]) => `${limits.message} for \`${channel}\``)
  .join(', ')})`;

/**
 * The body of `PATCH /api/follow-ups/{id}`: at least one field, nothing
 * unknown. The API checks it and the reference describes it (what its
 * shape cannot say, the descriptions do).
 */
export const followUpEditSchema = described(
  z
    .strictObject({
      subject: described(z.optional(text(STEP_SUBJECT_LIMIT)), {
        description: 'New subject: plain text (no markup, nothing in brackets to fill in), trimmed, not empty.',
      }),
      content: described(z.optional(text(CONTENT_LIMIT)), {
        description: `New content: plain text (no Markdown or HTML, no placeholders), trimmed, not empty; at most ${contentLimits}.`,
      }),
      scheduled_for: described(
        z.optional(
          z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date and time with a time zone, e.g. 2026-12-01T09:00:00Z' }),
        ),
        {
          description: `A new time: ISO 8601 with a time zone, later than now and at most ${MAX_SCHEDULE_AHEAD_MS / 86_400_000} days ahead; only while \`scheduled\`. Not with \`status\`.`,
          example: '2026-12-01T09:00:00+01:00',
        },
      ),
      status: described(z.optional(z.enum(CALLER_STATUSES)), {
        description: '`sent` once you sent it (while scheduled or due), or `skipped` / `cancelled` to end it unsent.',
      }),
      reason: described(z.optional(text(MAX_REASON_LENGTH)), {
        description: 'Why, with `status` `skipped` or `cancelled` only (kept as `status_reason`).',
      }),
    })
    .check(
      z.refine((body) => Object.values(body).some((value) => value !== undefined), {
        message: 'Give at least one of subject, content, scheduled_for, status',
      }),
      z.refine((body) => !(body.scheduled_for !== undefined && body.status !== undefined), {
        message: 'scheduled_for and status cannot change together',
        path: ['scheduled_for'],
      }),
      z.refine((body) => body.reason === undefined || body.status === 'skipped' || body.status === 'cancelled', {
        message: 'reason goes with status skipped or cancelled',
        path: ['reason'],
      }),
    ),
  {
    id: 'FollowUpEdit',
    description:
      'At least one field; an unknown field is refused. Copy may change while the step is scheduled or due, its time only while scheduled.',
  },
);

export type FollowUpEdit = z.infer<typeof followUpEditSchema>;

/** Parses the body of an edit (INVALID_REQUEST with the issues for anything wrong or unknown). */
export function parseFollowUpEdit(raw: unknown): FollowUpEdit {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new AppError('INVALID_REQUEST', 'The request body must be a JSON object.');
  const parsed = followUpEditSchema.safeParse(raw);
  if (!parsed.success) throw new AppError('INVALID_REQUEST', describeFirstIssue(parsed.error.issues), toIssueDetails(parsed.error.issues));
  return parsed.data;
}

export interface EditDependencies {
  steps: StepStore;
  clock: Clock;
  /** COMMAND_RETENTION_DAYS: a rescheduled step expires this long after its new time. */
  commandRetentionMs: number;
}

/** Attempts at an edit while other writers (the dispatcher, a lead event) move the step under it. */
const MAX_ATTEMPTS = 3;

/**
 * Use case: `PATCH /api/follow-ups/{id}`. Edits a step of the caller's
 * tenant: its copy (plain text, checked like generated copy: no markup, no
 * placeholders, within its channel's limits) while it is scheduled or due,
 * its time (in the future, within a year) while scheduled, or its end:
 * `sent` once the caller sent it, `skipped` or `cancelled`. A step sent,
 * skipped or cancelled answers 409 INVALID_TRANSITION; another tenant's, a
 * missing or an expired one 404 NOT_FOUND; one on a site the key does not
 * cover 403 FORBIDDEN. The write is conditional on the state it was read in.
 */
export async function answerEditFollowUp(
  deps: EditDependencies,
  principal: Principal,
  id: string | undefined,
  body: unknown,
): Promise<HttpResult> {
  const stepId = id?.toLowerCase();
  if (!stepId || !isUuid(stepId)) throw notFound(id);
  const edit = parseFollowUpEdit(body);
  const requested = deps.clock.now();
  throwProblems(await copyProblemsOf(edit));
  const scheduledFor = edit.scheduled_for === undefined ? undefined : checkedTime(edit.scheduled_for, requested);
  for (let attempt = 1; ; attempt++) {
    const now = deps.clock.now();
    const step = await deps.steps.get(stepId);
    if (!step || step.tenant_id !== principal.tenantId || isStepExpired(step, now)) throw notFound(id);
    if (!principal.siteIds.includes(step.site_id))
      throw new AppError('FORBIDDEN', 'This API key has no access to the site of that follow-up.');
    checkTransition(step, edit);
    if (edit.content !== undefined) {
      const { lengthProblems } = await copyChecks();
      throwProblems(lengthProblems(edit.content, contentLimitOf(step.type), ['content']));
    }
    const change = changeOf(edit, scheduledFor, now, deps.commandRetentionMs);
    const changed = await deps.steps.change(stepId, change, {
      tenantId: principal.tenantId,
      statuses: [step.status],
      ...(change.scheduled_for !== undefined ? { scheduledFor: step.scheduled_for } : {}),
    });
    if (changed) return jsonResponse(200, { success: true, data: stepView(changed) });
    if (attempt >= MAX_ATTEMPTS) throw new Error(`Follow-up ${stepId} kept changing under an edit`);
  }
}

function notFound(id: string | undefined): AppError {
  return new AppError('NOT_FOUND', id ? `Follow-up ${shownId(id)} was not found.` : 'No follow-up id was given.');
}

function invalidTransition(step: StoredStep, message: string, path: string): AppError {
  return new AppError('INVALID_TRANSITION', message, [
    { code: 'invalid_transition', message: `the follow-up is ${step.status}`, received: step.status, path: [path] },
  ]);
}

function checkTransition(step: StoredStep, edit: FollowUpEdit): void {
  if (edit.status !== undefined && !canMove(step.status, edit.status)) {
    throw invalidTransition(step, `Follow-up ${step.id} is ${step.status}; it cannot become ${edit.status}.`, 'status');
  }
  if ((edit.subject !== undefined || edit.content !== undefined) && !canEditCopy(step.status)) {
    throw invalidTransition(
      step,
      `Follow-up ${step.id} is ${step.status}; its copy can no longer be edited.`,
      edit.content !== undefined ? 'content' : 'subject',
    );
  }
  if (edit.scheduled_for !== undefined && !canReschedule(step.status)) {
    throw invalidTransition(
      step,
      `Follow-up ${step.id} is ${step.status}; only a scheduled follow-up can be given another time.`,
      'scheduled_for',
    );
  }
}

/** The copy checks, imported by the first edit of a step's copy: most edits report a step sent, skipped or moved. */
const copyChecks = onFirstUse(() => import('../message-checks'));

/** The copy rules of generated copy, for the caller's own words: plain text, nothing left to fill in. */
async function copyProblemsOf(edit: FollowUpEdit): Promise<IssueDetail[]> {
  if (edit.subject === undefined && edit.content === undefined) return [];
  const { copyProblems } = await copyChecks();
  return [
    ...(edit.subject === undefined ? [] : copyProblems(edit.subject, ['subject'], {})),
    ...(edit.content === undefined ? [] : copyProblems(edit.content, ['content'], {})),
  ];
}

function throwProblems(problems: readonly IssueDetail[]): void {
  const first = problems[0];
  if (first) throw new AppError('INVALID_REQUEST', `${first.path.join('.')} ${first.message}.`, [...problems]);
}

/** A new time: in the future and within a year, in UTC ISO form. */
function checkedTime(given: string, now: number): string {
  const at = Date.parse(given);
  if (!(at > now)) throw timeProblem('must be in the future', given);
  if (at > now + MAX_SCHEDULE_AHEAD_MS) throw timeProblem('must be within a year from now', given);
  return new Date(at).toISOString();
}

function timeProblem(message: string, received: string): AppError {
  return new AppError('INVALID_REQUEST', `scheduled_for ${message}.`, [
    { code: 'invalid_value', message, received, path: ['scheduled_for'] },
  ]);
}

function changeOf(edit: FollowUpEdit, scheduledFor: string | undefined, now: number, retentionMs: number): StepChange {
  const change: StepChange = { at: new Date(now).toISOString() };
  if (edit.subject !== undefined) change.subject = edit.subject;
  if (edit.content !== undefined) change.content = edit.content;
  if (scheduledFor !== undefined) {
    change.scheduled_for = scheduledFor;
    change.expires_at = epochSeconds(Date.parse(scheduledFor) + retentionMs);
  }
  if (edit.status !== undefined) {
    change.status = edit.status;
    if (edit.reason !== undefined) change.status_reason = edit.reason;
    else if (edit.status !== 'sent') change.status_reason = `${edit.status}_by_caller`;
  }
  return change;
}
