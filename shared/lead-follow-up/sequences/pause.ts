import * as z from 'zod/mini';
import { described } from '../../platform/described';
import '../../platform/zod-messages';
import type { Principal } from '../../access/api-keys';
import { DEMO_SITE_ID } from '../../api/examples';
import type { Clock } from '../../platform/clock';
import { epochSeconds } from '../../platform/clock';
import { AppError } from '../../platform/errors';
import { jsonResponse } from '../../platform/http/responses';
import type { HttpResult } from '../../platform/http/types';
import { describeFirstIssue, toIssueDetails } from '../../platform/validation';
import type { SiteDirectory } from '../../sites/directory';
import { leadForPrincipal, uuidOf } from './lead-access';
import type { PauseStore, SequencePause } from './pause-store';
import type { StepOwner, StepStore } from './step-store';

/** Most scheduled steps of one lead a pause or a resume moves (a sequence has at most five; a lead rarely has many sequences). */
const MAX_HELD_STEPS = 200;

/** The body of `POST /api/leads/{leadId}/follow-ups/pause` and `/resume`: the lead's site (alias `siteId`). */
export const sequencePauseRequestSchema = described(
  z.strictObject({
    site_id: described(
      z
        .string({ error: (issue) => (issue.input === undefined ? 'Required' : 'site_id must be a string') })
        .check(z.minLength(1, 'Required')),
      { format: 'uuid', description: "The lead's site (alias `siteId`; both at once must agree).", example: DEMO_SITE_ID },
    ),
  }),
  { id: 'SequencePauseRequest' },
);

/** What pausing and resuming work with. */
export interface PauseDependencies {
  sites: SiteDirectory;
  steps: StepStore;
  pauses: PauseStore;
  clock: Clock;
  /** COMMAND_RETENTION_DAYS: a step moved by a resume is kept this long after its new time. */
  commandRetentionMs: number;
}

/** A lead's sequence state as pause, resume and the list show it. */
export interface SequenceStateView {
  paused: boolean;
  paused_at: string | null;
}

/** The paused state of a lead's sequence, for the answers that show it. */
export function sequenceStateView(pause: SequencePause | undefined): SequenceStateView {
  return { paused: pause !== undefined, paused_at: pause?.paused_at ?? null };
}

/**
 * Use case: `POST /api/leads/{leadId}/follow-ups/pause`. Pauses the lead's
 * sequence of the caller's tenant: its scheduled steps stay `scheduled` but
 * no dispatcher makes them due until it resumes (steps already `due` were
 * announced and are left as they are). Pausing a paused sequence is the
 * same pause (200, its first `paused_at`), and finishes holding any step a
 * faulted first attempt left.
 */
export async function answerPauseSequence(
  deps: PauseDependencies,
  principal: Principal,
  leadIdParameter: string | undefined,
  body: unknown,
): Promise<HttpResult> {
  const owner = await ownerOf(deps, principal, leadIdParameter, body);
  const at = new Date(deps.clock.now()).toISOString();
  const { pause } = await deps.pauses.pause(owner, at);
  if (pause.resumed_at !== undefined) {
    throw new AppError('INVALID_TRANSITION', 'The sequence is being resumed; pause it again once the resume has answered.');
  }
  let held = 0;
  for (const step of await scheduledSteps(deps, owner)) {
    if (step.paused_at === undefined && (await deps.steps.hold(step.id, { tenantId: owner.tenantId, pausedAt: pause.paused_at, at })))
      held += 1;
  }
  return jsonResponse(200, {
    success: true,
    data: { site_id: owner.siteId, lead_id: owner.leadId, ...sequenceStateView(pause), resumed_at: null, follow_ups_held: held },
  });
}

/**
 * Use case: `POST /api/leads/{leadId}/follow-ups/resume`. Ends the pause:
 * every step it held goes back on the schedule moved forward by the pause's
 * length, so the sequence picks up where it stood, its spacing kept (a step
 * whose time passed during the pause comes at the same distance from the
 * resume as it stood from the pause; nothing is sent in a burst). Resuming
 * a sequence that is not paused answers 409 INVALID_TRANSITION. A resume
 * retried after a fault shifts the rest by the same length.
 */
export async function answerResumeSequence(
  deps: PauseDependencies,
  principal: Principal,
  leadIdParameter: string | undefined,
  body: unknown,
): Promise<HttpResult> {
  const owner = await ownerOf(deps, principal, leadIdParameter, body);
  const at = new Date(deps.clock.now()).toISOString();
  const pause = await deps.pauses.beginResume(owner, at);
  if (!pause?.resumed_at) throw new AppError('INVALID_TRANSITION', 'The sequence is not paused.');
  const shiftMs = Math.max(0, Date.parse(pause.resumed_at) - Date.parse(pause.paused_at));
  let moved = 0;
  // The lead index does not carry `paused_at`: each write checks it (a step another pause holds, or none, is left alone).
  for (const step of await scheduledSteps(deps, owner)) {
    const when = Date.parse(step.scheduled_for) + shiftMs;
    const released = await deps.steps.release(step.id, {
      tenantId: owner.tenantId,
      pausedAt: pause.paused_at,
      at,
      scheduledFor: new Date(when).toISOString(),
      expiresAt: epochSeconds(when + deps.commandRetentionMs),
    });
    if (released) moved += 1;
  }
  await deps.pauses.end(owner);
  return jsonResponse(200, {
    success: true,
    data: {
      site_id: owner.siteId,
      lead_id: owner.leadId,
      paused: false,
      paused_at: pause.paused_at,
      resumed_at: pause.resumed_at,
      shifted_by_seconds: Math.round(shiftMs / 1000),
      follow_ups_moved: moved,
    },
  });
}

/** The checks of both routes, in the house order: the body, ids, the site and the lead. */
async function ownerOf(
  deps: PauseDependencies,
  principal: Principal,
  leadIdParameter: string | undefined,
  body: unknown,
): Promise<StepOwner> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new AppError('INVALID_REQUEST', 'The request body must be a JSON object.');
  }
  const fields = Object.fromEntries(Object.entries(body as Record<string, unknown>).filter(([, value]) => value !== null));
  if (fields.siteId !== undefined) {
    if (fields.site_id !== undefined && String(fields.site_id).toLowerCase() !== String(fields.siteId).toLowerCase()) {
      throw new AppError('INVALID_REQUEST', 'site_id and siteId are the same field and disagree.', [
        { code: 'custom', message: 'conflicts with site_id', path: ['siteId'] },
      ]);
    }
    fields.site_id = fields.site_id ?? fields.siteId;
    delete fields.siteId;
  }
  const parsed = sequencePauseRequestSchema.safeParse(fields);
  if (!parsed.success) throw new AppError('INVALID_REQUEST', describeFirstIssue(parsed.error.issues), toIssueDetails(parsed.error.issues));
  const siteId = uuidOf(parsed.data.site_id, 'site_id');
  const leadId = uuidOf(leadIdParameter, 'leadId');
  await leadForPrincipal(deps.sites, principal, siteId, leadId);
  return { tenantId: principal.tenantId, siteId, leadId };
}

async function scheduledSteps(deps: PauseDependencies, owner: StepOwner) {
  const { steps } = await deps.steps.listForLead(owner, { limit: MAX_HELD_STEPS, now: deps.clock.now(), statuses: ['scheduled'] });
  return steps;
}
