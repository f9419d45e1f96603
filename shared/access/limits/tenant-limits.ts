import * as z from 'zod/mini';
import '../../platform/zod-messages';
import { lazy } from '../../platform/memo';

/**
 * A tenant's limits, kept in its record (`npm run keys -- limits`); a limit
 * left out takes the deployment's default (TENANT_* settings), and a limit
 * with neither is not enforced. Built on first use: most tenants have no
 * limits, and every function that authenticates imports this module.
 */
export const tenantLimitsSchema = lazy(() =>
  z.strictObject({
    /** Requests per second, sustained (a token bucket refilled at this rate). */
    requests_per_second: z.optional(z.number().check(z.positive(), z.maximum(1_000))),
    /** Requests a tenant may send at once after a pause (the bucket's size). */
    burst: z.optional(z.int().check(z.minimum(1), z.maximum(10_000))),
    /** Commands started and not yet finished. */
    in_progress: z.optional(z.int().check(z.minimum(1), z.maximum(100_000))),
    /** Model tokens (in and out) per calendar month (UTC). */
    monthly_tokens: z.optional(z.int().check(z.minimum(1))),
    /** Search requests per calendar month (UTC). */
    monthly_searches: z.optional(z.int().check(z.minimum(1))),
  }),
);

/** A tenant's limits; each one optional. */
export type TenantLimits = z.infer<ReturnType<typeof tenantLimitsSchema>>;

/** The settings that give every tenant's default limits, by limit. */
export const TENANT_LIMIT_SETTINGS = {
  requests_per_second: 'TENANT_REQUESTS_PER_SECOND',
  burst: 'TENANT_BURST',
  in_progress: 'TENANT_MAX_IN_PROGRESS',
  monthly_tokens: 'TENANT_MONTHLY_TOKENS',
  monthly_searches: 'TENANT_MONTHLY_SEARCHES',
} as const satisfies Record<keyof TenantLimits, string>;

/**
 * The default limits from the settings: each TENANT_* setting that is set, as
 * a number. A malformed one names itself (read at cold start, so the function
 * does not start with a limit nobody meant).
 */
export function defaultLimitsOf(settings: Readonly<Record<string, string | undefined>>): TenantLimits {
  const values: Record<string, number> = {};
  for (const [limit, setting] of Object.entries(TENANT_LIMIT_SETTINGS)) {
    const text = settings[setting]?.trim();
    if (!text) continue;
    values[limit] = Number(text);
  }
  if (Object.keys(values).length === 0) return {};
  const parsed = tenantLimitsSchema().safeParse(values);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    const limit = String(issue?.path[0]) as keyof TenantLimits;
    throw new Error(`${TENANT_LIMIT_SETTINGS[limit] ?? 'A TENANT_* setting'}: ${issue?.message ?? 'not a valid limit'}`);
  }
  return parsed.data;
}

/** The limits that apply to a tenant: its own, each missing one from the defaults. */
export function effectiveLimits(own: TenantLimits | undefined, defaults: TenantLimits): TenantLimits {
  return { ...defaults, ...own };
}

/**
 * The request rate a tenant is held to, when it has one: a burst left unset
 * is one second's worth of requests (at least 1).
 */
export function requestRateOf(limits: TenantLimits): { perSecond: number; burst: number } | undefined {
  if (limits.requests_per_second === undefined) return undefined;
  return { perSecond: limits.requests_per_second, burst: limits.burst ?? Math.max(1, Math.ceil(limits.requests_per_second)) };
}
