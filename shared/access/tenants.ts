import { AppError } from '../platform/errors';
import { canonicalId } from '../platform/ids';
import type { TenantLimits } from './limits/tenant-limits';
import { isValidTenantId } from './tenant-id';

/**
 * What the table keeps of a tenant: the sites it may act on. Every key of the
 * tenant covers a subset of `site_ids`. UUID site ids are kept in lower case.
 */
export interface TenantRecord {
  tenant_id: string;
  site_ids: string[];
  /** Its own limits (`npm run keys -- limits`); each one left out takes the deployment's default. */
  limits?: TenantLimits;
  created_at: string;
  updated_at: string;
}

/** Port: tenant records, read by id and extended by grants. */
export interface TenantStore {
  /** The tenant's record, or undefined when no such tenant exists. */
  get(tenantId: string): Promise<TenantRecord | undefined>;
  /**
   * Creates the tenant if needed and adds `siteIds` to its sites, keeping the
   * sites already granted (concurrent grants all land). Returns the record
   * after the grant. Refuses a malformed tenant id or an empty site id.
   */
  grantSites(tenantId: string, siteIds: string[], now: number): Promise<TenantRecord>;
  /** Replaces the tenant's own limits (an empty object clears them); refuses an unknown tenant with 404 NOT_FOUND. */
  setLimits(tenantId: string, limits: TenantLimits, now: number): Promise<TenantRecord>;
}

/**
 * Whether a tenant may act on a site: an unknown tenant may do nothing; a
 * site-less operation (deep research) needs only an existing tenant; otherwise
 * the site must be among the tenant's sites.
 */
export function tenantMayActOn(tenant: TenantRecord | undefined, siteId: string | undefined): boolean {
  if (!tenant) return false;
  if (siteId === undefined) return true;
  return tenant.site_ids.includes(canonicalId(siteId));
}

/** Refuses a malformed tenant id with 400 VALIDATION_ERROR and a message that says what fits. */
export function assertValidTenantId(tenantId: string): void {
  if (isValidTenantId(tenantId)) return;
  throw new AppError(
    'VALIDATION_ERROR',
    `Invalid tenant id "${tenantId}": use 1 to 63 characters, lower-case letters, digits, "_" or "-", starting with a letter or digit.`,
  );
}
