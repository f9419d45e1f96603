import { apiRoute } from '../../shared/api/route';
import { authenticatorOf, documentClientOf, loggerOf, tableNameOf, tracingOf } from '../../shared/composition/adapters';
import { lambdaEntry } from '../../shared/composition/lambda';
import { clockOf, type HostPorts } from '../../shared/composition/host';
import type { Settings } from '../../shared/composition/settings';
import { answerListSiteFollowUps } from '../../shared/lead-follow-up/sequences/list-site';
import { dynamoStepStore } from '../../shared/lead-follow-up/sequences/step-store';
import { cachedSiteDirectory } from '../../shared/sites/cached-directory';
import { dynamoSiteDirectory } from '../../shared/sites/dynamo-directory';

/** How long this function trusts a site before reading it again. */
const SITE_CACHE_TTL_MS = 30_000;

/** GET /api/follow-ups: the follow-ups the caller's tenant made across a site's leads, in schedule order, a page at a time. */
export function build(settings: Settings, host: HostPorts = {}) {
  const clock = clockOf(host);
  const tracing = tracingOf('listSiteFollowUpsApi', settings);
  const db = documentClientOf(settings, tracing);
  const tableName = tableNameOf(settings);
  const deps = {
    logger: loggerOf('listSiteFollowUpsApi', settings),
    authenticate: authenticatorOf(db, tableName, settings, clock),
    sites: cachedSiteDirectory(dynamoSiteDirectory(db, tableName), SITE_CACHE_TTL_MS),
    steps: dynamoStepStore(db, tableName),
    clock,
  };
  return apiRoute(deps, {}, ({ event, principal }) => answerListSiteFollowUps(deps, principal, event.queryStringParameters));
}

export const handler = lambdaEntry(build);
