import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { commandUsageKey } from './dynamo-ledger';
import type { UsageTarget } from './meter';

/**
 * The usage target of a command, from its usage item's labels (its tenant,
 * type and site): for usage made final outside its jobs (a delivery of one
 * of its events). Undefined when the command has no usage item yet, or one
 * without labels (nothing is counted then).
 */
export async function usageTargetOfCommand(
  db: DynamoDBDocumentClient,
  tableName: string,
  commandId: string,
): Promise<UsageTarget | undefined> {
  return usageTargetAt(db, tableName, commandUsageKey(commandId), commandId);
}

/**
 * The usage target labelled on the item at `key` (a command's usage item, or
 * the command itself: both carry `tenant_id`, `type`, `site_id` and
 * `expires_at`). Undefined when the item is missing or has no labels.
 */
export async function usageTargetAt(
  db: DynamoDBDocumentClient,
  tableName: string,
  key: Record<string, string>,
  commandId: string,
): Promise<UsageTarget | undefined> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName,
      Key: key,
      ProjectionExpression: 'tenant_id, #type, site_id, expires_at',
      ExpressionAttributeNames: { '#type': 'type' },
    }),
  );
  if (typeof Item?.tenant_id !== 'string' || typeof Item.type !== 'string') return undefined;
  return {
    commandId,
    tenantId: Item.tenant_id,
    type: Item.type,
    ...(typeof Item.site_id === 'string' ? { siteId: Item.site_id } : {}),
    ...(typeof Item.expires_at === 'number' ? { expiresAt: Item.expires_at } : {}),
  };
}
