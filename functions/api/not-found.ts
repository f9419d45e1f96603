import middy from '@middy/core';
import { apiRoute } from '../../shared/api/route';
import { platformDependencies } from '../../shared/composition/environment';
import { AppError } from '../../shared/platform/errors';
import { errorEnvelope } from '../../shared/platform/http/middleware';
import type { HttpEvent, HttpResult } from '../../shared/platform/http/types';

const deps = platformDependencies('notFoundApi');

const notFound = (event: HttpEvent) =>
  new AppError('NOT_FOUND', `No route for ${event.requestContext.http.method} ${event.rawPath}.`);

/** Under /api, the key is checked first: a caller without one learns nothing about which routes exist. */
const apiNotFound = apiRoute(deps, {}, async ({ event }) => {
  throw notFound(event);
});

const publicNotFound = middy<HttpEvent, HttpResult>(async (event: HttpEvent) => {
  throw notFound(event);
}).use(errorEnvelope({ logger: deps.logger }));

/** The `$default` route: every request no other route matches. */
export const handler = async (event: HttpEvent, context: Parameters<typeof apiNotFound>[1]): Promise<HttpResult> =>
  event.rawPath === '/api' || event.rawPath.startsWith('/api/') ? apiNotFound(event, context) : publicNotFound(event, context);
