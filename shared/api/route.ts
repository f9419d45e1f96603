import type { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import { MAX_BODY_BYTES, MAX_JSON_DEPTH } from '../catalogue/limits';
import type { Principal } from '../access/api-keys';
import type { Authenticator } from '../access/authenticate';
import type { ErrorCode } from '../platform/errors';
import { withMiddleware, type Middleware } from '../platform/handler-chain';
import { bodySizeLimit, errorEnvelope, jsonBody, jsonContentType } from '../platform/http/middleware';
import type { HttpEvent, HttpResult } from '../platform/http/types';
import { invocationLogging } from '../platform/invocation-logging';

/** What a route's use case receives: the caller, the parsed body and the raw event. */
export interface ApiCall {
  event: HttpEvent;
  principal: Principal;
  /** The parsed JSON body (routes with a body only). */
  body: unknown;
  /** Request headers, lower-cased names. */
  headers: Readonly<Record<string, string | undefined>>;
}

/** What every API route needs: its logger and the authenticator. */
export interface RouteDependencies {
  logger: Logger;
  authenticate: Authenticator;
}

/** How one route differs from the others. */
export interface RouteOptions {
  /** Code for a missing or malformed JSON body; routes without one leave it out. */
  bodyErrorCode?: ErrorCode;
  /** Top-level fields added to every error envelope of the route. */
  errorExtra?: (event: HttpEvent) => Record<string, unknown>;
}

/** The invocation context once the caller is known; the headers are lower-cased once, for authentication and the route alike. */
type CallContext = Context & { principal?: Principal; headers?: Record<string, string | undefined> };

/**
 * The steps every API function shares, in the order of
 * docs/api.md "Order of checks": key (401), body size (413), content type (415),
 * JSON (400), then the route's own checks; any error leaves as the envelope. Once the key is
 * known, every log line of the request carries its `keyId`.
 */
export function apiRoute(deps: RouteDependencies, options: RouteOptions, run: (call: ApiCall) => Promise<HttpResult>) {
  const inner = async (event: HttpEvent, context: CallContext): Promise<HttpResult> => {
    if (!context.principal) throw new Error('apiRoute: no principal after authentication');
    return run({ event, principal: context.principal, body: event.body, headers: context.headers ?? lowerCaseHeaders(event.headers) });
  };
  const authentication: Middleware<HttpEvent, HttpResult, CallContext> = {
    before: async (request) => {
      request.context.headers = lowerCaseHeaders(request.event.headers);
      const principal = await deps.authenticate(request.context.headers);
      request.context.principal = principal;
      // Every later line of this request names the key by its id (never the key); invocationLogging drops it afterwards.
      deps.logger.appendKeys({ keyId: principal.keyId });
    },
  };
  return withMiddleware<HttpEvent, HttpResult, CallContext>(inner, [
    // First, so the outermost: every answer once the key is known, an error's envelope included, carries the RateLimit headers.
    rateLimitHeaders(),
    invocationLogging(deps.logger),
    errorEnvelope({ logger: deps.logger, ...(options.errorExtra ? { extra: (request) => options.errorExtra!(request.event) } : {}) }),
    authentication,
    // Every /api route, with a body of its own or not (some parse theirs per method), takes JSON only.
    bodySizeLimit(MAX_BODY_BYTES),
    jsonContentType(),
    ...(options.bodyErrorCode ? [jsonBody(options.bodyErrorCode, MAX_JSON_DEPTH)] : []),
  ]);
}

/** Adds the request's RateLimit headers (when its tenant has a request rate) to whatever answer leaves. */
function rateLimitHeaders(): Middleware<HttpEvent, HttpResult, CallContext> {
  const add = async (request: { context: CallContext; response: HttpResult | undefined }) => {
    const headers = request.context.principal?.rateHeaders;
    if (!headers || !request.response) return;
    request.response = { ...request.response, headers: { ...headers, ...request.response.headers } };
  };
  return { after: add, onError: add };
}

/** Headers with lower-case names (API Gateway v2 already sends them so; this makes it certain). */
export function lowerCaseHeaders(headers: HttpEvent['headers'] | undefined): Record<string, string | undefined> {
  const result: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers ?? {})) result[name.toLowerCase()] = value;
  return result;
}
