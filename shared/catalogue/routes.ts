import type { RouteSpec } from './feature';
import { FEATURES } from './features';
import type { FunctionId } from './functions';

/** One HTTP route of Switchboard and the function that answers it. */
export type RouteDefinition = RouteSpec<FunctionId>;

/** Every HTTP route, each feature's in features.ts order. Anything else reaches `notFoundApi` (the `$default` route). */
export const ROUTES: readonly RouteDefinition[] = FEATURES.flatMap((feature): readonly RouteDefinition[] => feature.routes);

/** The function that answers requests no route matches. */
export const DEFAULT_ROUTE_FUNCTION: FunctionId = 'notFoundApi';
