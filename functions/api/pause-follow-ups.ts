import { apiRoute } from '../../shared/api/route';
import { readCommandRetention } from '../../shared/commands/retention';
import { authenticatorOf, documentClientOf, loggerOf, tableNameOf, tracingOf } from '../../shared/composition/adapters';
import { lambdaEntry } from '../../shared/composition/lambda';
import { clockOf, type HostPorts } from '../../shared/composition/host';
import type { Settings } from '../../shared/composition/settings';
import { answerPauseSequence, answerResumeSequence } from '../../shared/lead-follow-up/sequences/pause';
import { dynamoPauseStore } from '../../shared/lead-follow-up/sequences/pause-store';
import { dynamoStepStore } from '../../shared/lead-follow-up/sequences/step-store';
import { cachedSiteDirectory } from '../../shared/sites/cached-directory';
import { dynamoSiteDirectory } from '../../shared/sites/dynamo-directory';

/** How long this function trusts a site before reading it again (leads are never cached). */
const SITE_CACHE_TTL_MS = 30_000;

/** POST /api/leads/{leadId}/follow-ups/pause and /resume: hold a lead's scheduled steps, then put them back, moved by the pause. */
export function build(settings: Settings, host: HostPorts = {}) {
  const clock = clockOf(host);
  const tracing = tracingOf('pauseFollowUpsApi', settings);
  const db = documentClientOf(settings, tracing);
  const tableName = tableNameOf(settings);
  const deps = {
    logger: loggerOf('pauseFollowUpsApi', settings),
    authenticate: authenticatorOf(db, tableName, settings, clock),
    sites: cachedSiteDirectory(dynamoSiteDirectory(db, tableName), SITE_CACHE_TTL_MS),
    steps: dynamoStepStore(db, tableName),
    pauses: dynamoPauseStore(db, tableName),
    clock,
    ...readCommandRetention(settings),
  };
  return apiRoute(deps, { bodyErrorCode: 'INVALID_REQUEST' }, ({ event, principal, body }) =>
    (event.routeKey?.endsWith('/resume') ? answerResumeSequence : answerPauseSequence)(deps, principal, event.pathParameters?.leadId, body),
  );
}

export const handler = lambdaEntry(build);
