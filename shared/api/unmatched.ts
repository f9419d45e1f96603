import { ROUTES, type RouteDefinition } from '../catalogue/routes';
import { errorResponse } from '../platform/http/responses';
import type { HttpResult } from '../platform/http/types';
import { shownId } from '../platform/shown';
import { methodsForPath } from './route-match';

/**
 * Use case: the answer to a request no route took. A path the catalogue
 * knows, asked with another method, answers 405 METHOD_NOT_ALLOWED with an
 * `Allow` header naming its methods; anything else 404 NOT_FOUND.
 * (Authentication, where due, runs before this.)
 */
export function answerUnmatched(method: string, path: string, routes: readonly RouteDefinition[] = ROUTES): HttpResult {
  const allowed = methodsForPath(path, routes);
  if (allowed.length > 0 && !allowed.some((allowedMethod) => allowedMethod === method.toUpperCase())) {
    const allow = allowed.join(', ');
    return errorResponse(
      { code: 'METHOD_NOT_ALLOWED', message: `${shownId(method)} is not allowed on ${shownId(path)}; allowed: ${allow}.` },
      { allow },
    );
  }
  return errorResponse({ code: 'NOT_FOUND', message: `No route for ${shownId(method)} ${shownId(path)}.` });
}
