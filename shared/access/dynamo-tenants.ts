import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { AppError } from '../platform/errors';
import { canonicalId } from '../platform/ids';
import { isConditionalCheckFailed } from '../platform/dynamodb-errors';
import { tenantLimitsSchema } from './limits/tenant-limits';
import { assertValidTenantId, type TenantRecord, type TenantStore } from './tenants';

const tenantKey = (tenantId: string) => ({ pk: `TENANT#${tenantId}`, sk: 'TENANT' });

/** The stored item; `site_ids` is a DynamoDB string set, absent while empty. */
const storedTenant = z.object({
  tenant_id: z.string(),
  site_ids: z.optional(z.set(z.string())),
  limits: z.optional(z.lazy(tenantLimitsSchema)),
  created_at: z.string(),
  updated_at: z.string(),
});

function recordOf(item: Record<string, unknown>): TenantRecord {
  const parsed = storedTenant.safeParse(item);
  if (!parsed.success) throw new Error(`Malformed tenant item ${String(item.pk)}: ${parsed.error.issues[0]?.message ?? 'unknown problem'}`);
  const { tenant_id, site_ids, limits, created_at, updated_at } = parsed.data;
  return {
    tenant_id,
    site_ids: [...(site_ids ?? [])].sort(),
    ...(limits && Object.keys(limits).length > 0 ? { limits } : {}),
    created_at,
    updated_at,
  };
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

    async setLimits(tenantId, limits, now) {
      const checked = tenantLimitsSchema().parse(limits);
      try {
        const { Attributes } = await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: tenantKey(tenantId),
            ConditionExpression: 'attribute_exists(pk)',
            UpdateExpression: 'SET limits = :limits, updated_at = :at',
            ExpressionAttributeValues: { ':limits': checked, ':at': new Date(now).toISOString() },
            ReturnValues: 'ALL_NEW',
          }),
        );
        if (!Attributes) throw new Error(`DynamoDB returned no attributes for tenant ${tenantId}`);
        return recordOf(Attributes);
      } catch (error) {
        if (isConditionalCheckFailed(error)) throw new AppError('NOT_FOUND', `No tenant "${tenantId}".`);
        throw error;
      }
    },
  };
}
