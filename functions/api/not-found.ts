import { apiRoute } from '../../shared/api/route';
import { answerUnmatched } from '../../shared/api/unmatched';
import { authenticatorOf, documentClientOf, loggerOf, tableNameOf, tracingOf } from '../../shared/composition/adapters';
import { clockOf, type HostPorts } from '../../shared/composition/host';
import { lambdaEntry } from '../../shared/composition/lambda';
import type { Settings } from '../../shared/composition/settings';
import { withMiddleware } from '../../shared/platform/handler-chain';
import { errorEnvelope } from '../../shared/platform/http/middleware';
import type { HttpEvent, HttpResult } from '../../shared/platform/http/types';

const unmatched = async (event: HttpEvent): Promise<HttpResult> => answerUnmatched(event.requestContext.http.method, event.rawPath);

/** The `$default` route: every request no other route matches (404, or 405 for a known path). It reads API keys only. */
export function build(settings: Settings, host: HostPorts = {}) {
  const tracing = tracingOf('notFoundApi', settings);
  const db = documentClientOf(settings, tracing);
  const deps = {
    logger: loggerOf('notFoundApi', settings),
    authenticate: authenticatorOf(db, tableNameOf(settings), settings, clockOf(host)),
  };
  /** Under /api, the key is checked first: a caller without one learns nothing about which routes exist. */
  const apiNotFound = apiRoute(deps, {}, async ({ event }) => unmatched(event));
  const publicNotFound = withMiddleware<HttpEvent, HttpResult>(unmatched, [errorEnvelope({ logger: deps.logger })]);
  return async (event: HttpEvent, context: Parameters<typeof apiNotFound>[1]): Promise<HttpResult> =>
    event.rawPath === '/api' || event.rawPath.startsWith('/api/') ? apiNotFound(event, context) : publicNotFound(event, context);
}

export const handler = lambdaEntry(build);
