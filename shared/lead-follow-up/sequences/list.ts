import * as z from 'zod/mini';
import { described } from '../../platform/described';
import '../../platform/zod-messages';
import type { Principal } from '../../access/api-keys';
import { DEMO_SITE_ID } from '../../api/examples';
import type { Clock } from '../../platform/clock';
import { AppError } from '../../platform/errors';
import { pageLimitSchema } from '../../platform/http/page-limit';
import { jsonResponse } from '../../platform/http/responses';
import type { HttpResult } from '../../platform/http/types';
import { isUuid } from '../../platform/ids';
import { describeFirstIssue, toIssueDetails } from '../../platform/validation';
import type { SiteDirectory } from '../../sites/directory';
import { leadForPrincipal, uuidOf } from './lead-access';
import { sequenceStateView } from './pause';
import type { PauseStore } from './pause-store';
import { STEP_STATUSES, stepView } from './step';
import type { StepCursor, StepStore } from './step-store';

/** Steps per page unless `limit` says otherwise, and at most. */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

/** Longest `cursor` accepted (the API's own are far shorter). */
export const MAX_CURSOR_LENGTH = 512;

/** A string: its UUID form is checked after the query (INVALID_INPUT). */
export const siteParameter = z.string().check(z.maxLength(200));

/**
 * The query of `GET /api/leads/{leadId}/follow-ups`. `site_id` or its alias
 * `siteId` is required; the reference lists `site_id` alone, as required.
 */
export const listQuerySchema = z.strictObject({
  site_id: described(z.optional(siteParameter), {
    format: 'uuid',
    description: "The lead's site (alias `siteId`; both at once must agree).",
    example: DEMO_SITE_ID,
  }),
  siteId: z.optional(siteParameter),
  limit: described(pageLimitSchema(DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE), {
    description: 'Steps in a page.',
  }),
  cursor: described(z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_CURSOR_LENGTH))), {
    description: 'The `next_cursor` of the previous page (opaque).',
  }),
  status: described(
    z.optional(
      z.pipe(
        z.pipe(
          z.string().check(z.maxLength(200)),
          z.transform((value) =>
            value
              .split(',')
              .map((part) => part.trim())
              .filter(Boolean),
          ),
        ),
        z.array(z.enum(STEP_STATUSES)).check(z.minLength(1), z.maxLength(STEP_STATUSES.length)),
      ),
    ),
    {
      description: `Only steps in these states, comma-separated: ${STEP_STATUSES.map((status) => `\`${status}\``).join(', ')}.`,
      example: 'scheduled,due',
    },
  ),
});

export interface ListDependencies {
  sites: SiteDirectory;
  steps: StepStore;
  /** Whether the lead's sequence is paused (shown beside its steps). */
  pauses: Pick<PauseStore, 'get'>;
  clock: Clock;
}

/**
 * Use case: `GET /api/leads/{leadId}/follow-ups?site_id=…[&limit=&cursor=&status=]`.
 * The lead's follow-ups that the caller's tenant made, in schedule order
 * (earliest first), whether the sequence is paused, at most `limit` (default 50, at most 100) a page, with
 * `next_cursor` for the next page (null on the last). Checks: the query
 * (INVALID_REQUEST), ids (INVALID_INPUT), site (SITE_NOT_FOUND / FORBIDDEN),
 * lead (LEAD_NOT_FOUND).
 */
export async function answerListFollowUps(
  deps: ListDependencies,
  principal: Principal,
  leadIdParameter: string | undefined,
  query: Readonly<Record<string, string | undefined>> | undefined,
): Promise<HttpResult> {
  const parsed = listQuerySchema.safeParse(query ?? {});
  if (!parsed.success) throw new AppError('INVALID_REQUEST', describeFirstIssue(parsed.error.issues), toIssueDetails(parsed.error.issues));
  const { site_id, siteId, limit, cursor, status } = parsed.data;
  if (site_id !== undefined && siteId !== undefined && site_id.toLowerCase() !== siteId.toLowerCase()) {
    throw new AppError('INVALID_REQUEST', 'site_id and siteId are the same parameter and disagree.', [
      { code: 'custom', message: 'conflicts with site_id', path: ['siteId'] },
    ]);
  }
  const givenSite = site_id ?? siteId;
  if (givenSite === undefined || givenSite.trim() === '') {
    throw new AppError('INVALID_REQUEST', 'site_id: Required', [
      { code: 'invalid_type', message: 'Required', expected: 'string', path: ['site_id'] },
    ]);
  }
  const leadId = uuidOf(leadIdParameter, 'leadId');
  const site = uuidOf(givenSite, 'site_id');
  const after = cursor === undefined ? undefined : decodeCursor(cursor);

  await leadForPrincipal(deps.sites, principal, site, leadId);
  const owner = { tenantId: principal.tenantId, siteId: site, leadId };
  const pause = await deps.pauses.get(owner);
  const page = await deps.steps.listForLead(owner, {
    limit,
    now: deps.clock.now(),
    ...(after ? { after } : {}),
    ...(status ? { statuses: status } : {}),
  });
  return jsonResponse(200, {
    success: true,
    data: {
      site_id: site,
      lead_id: leadId,
      ...sequenceStateView(pause),
      follow_ups: page.steps.map(stepView),
      has_more: page.next !== undefined,
      next_cursor: page.next ? encodeCursor(page.next) : null,
    },
  });
}

/** An opaque cursor: where the page ended, within the caller's own lead partition (it can name no other). */
export function encodeCursor(cursor: StepCursor): string {
  return Buffer.from(JSON.stringify([cursor.sortKey, cursor.id]), 'utf8').toString('base64url');
}

export function decodeCursor(text: string): StepCursor {
  const invalid = () =>
    new AppError('INVALID_REQUEST', 'cursor is not one this API gave.', [
      { code: 'invalid_format', message: 'Invalid cursor', path: ['cursor'] },
    ]);
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(value) || value.length !== 2) throw invalid();
  const [sortKey, id] = value as unknown[];
  if (typeof sortKey !== 'string' || typeof id !== 'string' || !isUuid(id) || sortKey.length > 100 || !sortKey.endsWith(`#${id}`))
    throw invalid();
  return { sortKey, id };
}
