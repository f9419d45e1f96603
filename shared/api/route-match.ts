import { ROUTES, type RouteDefinition } from '../catalogue/routes';

/** An HTTP method a route may name. */
export type RouteMethod = RouteDefinition['method'];

/**
 * True when a request path fits a route's path template: literal segments
 * equal, each `{name}` segment any one non-empty segment. One trailing slash
 * is tolerated, as the local gateway does.
 */
export function pathMatches(template: string, path: string): boolean {
  const wanted = template.split('/');
  const given = (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).split('/');
  if (wanted.length !== given.length) return false;
  return wanted.every((segment, index) => (/^\{\w+\}$/.test(segment) ? given[index] !== '' : segment === given[index]));
}

/**
 * The methods the catalogue offers on a request path, in catalogue order and
 * without repeats; empty when no route has this path.
 */
export function methodsForPath(path: string, routes: readonly RouteDefinition[] = ROUTES): RouteMethod[] {
  return [...new Set(routes.filter((route) => pathMatches(route.path, path)).map((route) => route.method))];
}
