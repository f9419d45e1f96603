import middy from '@middy/core';
import { apiRoute } from '../../shared/api/route';
import { answerUnmatched } from '../../shared/api/unmatched';
import { platformDependencies } from '../../shared/composition/environment';
import { errorEnvelope } from '../../shared/platform/http/middleware';
import type { HttpEvent, HttpResult } from '../../shared/platform/http/types';

const deps = platformDependencies('notFoundApi');

const unmatched = async (event: HttpEvent): Promise<HttpResult> => answerUnmatched(event.requestContext.http.method, event.rawPath);

/** Under /api, the key is checked first: a caller without one learns nothing about which routes exist. */
const apiNotFound = apiRoute(deps, {}, async ({ event }) => unmatched(event));

const publicNotFound = middy<HttpEvent, HttpResult>(unmatched).use(errorEnvelope({ logger: deps.logger }));

/** The `$default` route: every request no other route matches (404, or 405 for a known path). */
export const handler = async (event: HttpEvent, context: Parameters<typeof apiNotFound>[1]): Promise<HttpResult> =>
  event.rawPath === '/api' || event.rawPath.startsWith('/api/') ? apiNotFound(event, context) : publicNotFound(event, context);
