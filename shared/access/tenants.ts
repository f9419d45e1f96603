import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { AppError } from '../platform/errors';
import { canonicalId } from '../platform/ids';
import { isValidTenantId } from './tenant-id';

/**
 * What the table keeps of a tenant: the sites it may act on. Every key of the
 * tenant covers a subset of `site_ids`. UUID site ids are kept in lower case.
 */
export interface TenantRecord {
  tenant_id: string;
  site_ids: string[];
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

const tenantKey = (tenantId: string) => ({ pk: `TENANT#${tenantId}`, sk: 'TENANT' });

/** The stored item; `site_ids` is a DynamoDB string set, absent while empty. */
const storedTenant = z.object({
  tenant_id: z.string(),
  site_ids: z.set(z.string()).optional(),
  created_at: z.string(),
  updated_at: z.string(),
});

function recordOf(item: Record<string, unknown>): TenantRecord {
  const parsed = storedTenant.safeParse(item);
  if (!parsed.success) throw new Error(`Malformed tenant item ${String(item.pk)}: ${parsed.error.issues[0]?.message ?? 'unknown problem'}`);
  const { tenant_id, site_ids, created_at, updated_at } = parsed.data;
  return { tenant_id, site_ids: [...(site_ids ?? [])].sort(), created_at, updated_at };
}

/** TenantStore on the single table (`TENANT#<id>` / `TENANT`); grants are atomic string-set ADDs. */
export function dynamoTenantStore(db: DynamoDBDocumentClient, tableName: string): TenantStore {
  return {
    async get(tenantId) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: tenantKey(tenantId), ConsistentRead: true }));
      return Item ? recordOf(Item) : undefined;
    },

    async grantSites(tenantId, siteIds, now) {
      assertValidTenantId(tenantId);
      if (siteIds.some((id) => id.trim() === '')) throw new AppError('VALIDATION_ERROR', 'A site id granted to a tenant may not be empty.');
      const sites = new Set(siteIds.map((id) => canonicalId(id.trim())));
      const at = new Date(now).toISOString();
      const { Attributes } = await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: tenantKey(tenantId),
          UpdateExpression: `SET tenant_id = :id, created_at = if_not_exists(created_at, :at), updated_at = :at${sites.size > 0 ? ' ADD site_ids :sites' : ''}`,
          ExpressionAttributeValues: { ':id': tenantId, ':at': at, ...(sites.size > 0 ? { ':sites': sites } : {}) },
          ReturnValues: 'ALL_NEW',
        }),
      );
      if (!Attributes) throw new Error(`DynamoDB returned no attributes for tenant ${tenantId}`);
      return recordOf(Attributes);
    },
  };
}
