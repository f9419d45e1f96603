import * as z from 'zod/mini';
import { described } from '../../platform/described';
import type { Principal } from '../../access/api-keys';
import { siteForPrincipal } from '../../access/site-access';
import { AppError } from '../../platform/errors';
import { jsonResponse } from '../../platform/http/responses';
import type { HttpResult } from '../../platform/http/types';
import { describeFirstIssue, toIssueDetails } from '../../platform/validation';
import { uuidOf } from './lead-access';
import { decodeCursor, encodeCursor, listQuerySchema, siteParameter, type ListDependencies } from './list';

/** What the site listing needs: the per-lead listing's ports but the pauses (a site's steps span many leads). */
export type SiteListDependencies = Omit<ListDependencies, 'pauses'>;
import { stepView } from './step';

/** The query of `GET /api/follow-ups`: a lead's listing's, with `site_id` required (no alias). */
export const siteListQuerySchema = z.extend(z.omit(listQuerySchema, { siteId: true }), {
  site_id: described(siteParameter, { format: 'uuid', description: 'The site whose follow-ups to list.' }),
});

export type SiteListQuery = z.infer<typeof siteListQuerySchema>;

/**
 * Use case: `GET /api/follow-ups?site_id=…[&status=&limit=&cursor=]`. The
 * follow-ups the caller's tenant made across the site's leads, in schedule
 * order (earliest first), a page at a time, as a lead's listing pages them:
 * a sender polls `status=due` for what to send. Checks: the query
 * (INVALID_REQUEST), the site id (INVALID_INPUT), the site (SITE_NOT_FOUND / FORBIDDEN).
 */
export async function answerListSiteFollowUps(
  deps: SiteListDependencies,
  principal: Principal,
  query: Readonly<Record<string, string | undefined>> | undefined,
): Promise<HttpResult> {
  const parsed = siteListQuerySchema.safeParse(query ?? {});
  if (!parsed.success) throw new AppError('INVALID_REQUEST', describeFirstIssue(parsed.error.issues), toIssueDetails(parsed.error.issues));
  const { site_id, limit, cursor, status } = parsed.data;
  const site = uuidOf(site_id, 'site_id');
  const after = cursor === undefined ? undefined : decodeCursor(cursor);
  await siteForPrincipal(deps.sites, principal, site);
  const page = await deps.steps.listForSite(
    { tenantId: principal.tenantId, siteId: site },
    { limit, now: deps.clock.now(), ...(after ? { after } : {}), ...(status ? { statuses: status } : {}) },
  );
  return jsonResponse(200, {
    success: true,
    data: {
      site_id: site,
      follow_ups: page.steps.map(stepView),
      has_more: page.next !== undefined,
      next_cursor: page.next ? encodeCursor(page.next) : null,
    },
  });
}
