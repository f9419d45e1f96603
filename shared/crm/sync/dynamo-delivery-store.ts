import { GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { isConditionalCheckFailed } from '../../platform/dynamodb-errors';
import type { Claim, CrmDelivery, CrmDeliveryStore, DeliveryKey } from './delivery-store';
import { sendTransaction } from '../../platform/dynamodb';
import { cancellationReasons } from '../../platform/dynamodb-errors';
import { usageItems } from '../../usage/dynamo-ledger';
import { usageTargetOfCommand } from '../../usage/dynamo-usage-targets';
import { crmWrites } from '../../usage/usage';

/** `CRMSYNC#<tenant id>#<site id>#<lead id>`: a lead's writes to its tenant's CRM, `sk` `<source>#<source id>#<kind>`. */
const SYNC_PARTITION = 'CRMSYNC#';

const keyOf = (key: DeliveryKey) => ({
  pk: `${SYNC_PARTITION}${key.tenantId}#${key.siteId}#${key.leadId}`,
  sk: `${key.source}#${key.sourceId}#${key.kind}`,
});

const iso = (at: number) => new Date(at).toISOString();

function deliveryOf(item: Record<string, unknown>): CrmDelivery {
  const { pk: _pk, sk: _sk, lease_until: _lease, ...rest } = item;
  return rest as unknown as CrmDelivery;
}

/** CrmDeliveryStore on the single table: one item per delivery, claimed and completed with conditional updates. */
export function dynamoCrmDeliveryStore(db: DynamoDBDocumentClient, tableName: string): CrmDeliveryStore {
  const read = async (key: DeliveryKey) => {
    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keyOf(key), ConsistentRead: true }));
    return Item;
  };

  return {
    async claim(key, contactId, now, leaseMs, expiresAt): Promise<Claim> {
      try {
        const { Attributes } = await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keyOf(key),
            // A new delivery, one claimed whose lease ran out (its writer stopped without knowing the outcome), or one the CRM
            // refused (nothing was written): its job was dead-lettered, and is back only when someone redrives it.
            ConditionExpression: 'attribute_not_exists(pk) OR (#status = :claimed AND lease_until < :now) OR #status = :failed',
            UpdateExpression:
              'SET #status = :claimed, lease_until = :until, attempts = if_not_exists(attempts, :zero) + :one, ' +
              'tenant_id = :tenant, site_id = :site, lead_id = :lead, #source = :source, source_id = :sourceId, #kind = :kind, ' +
              'contact_id = if_not_exists(contact_id, :contact), claimed_at = if_not_exists(claimed_at, :at), updated_at = :at, ' +
              'expires_at = if_not_exists(expires_at, :expires) REMOVE #error',
            ExpressionAttributeNames: { '#status': 'status', '#source': 'source', '#kind': 'kind', '#error': 'error' },
            ExpressionAttributeValues: {
              ':claimed': 'claimed',
              ':failed': 'failed',
              ':now': now,
              ':until': now + leaseMs,
              ':zero': 0,
              ':one': 1,
              ':tenant': key.tenantId,
              ':site': key.siteId,
              ':lead': key.leadId,
              ':source': key.source,
              ':sourceId': key.sourceId,
              ':kind': key.kind,
              ':contact': contactId,
              ':at': iso(now),
              ':expires': expiresAt,
            },
            ReturnValues: 'ALL_NEW',
          }),
        );
        const delivery = deliveryOf(Attributes ?? {});
        return { state: delivery.attempts > 1 ? 'unknown' : 'fresh', delivery };
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
        const item = await read(key);
        if (!item) throw error;
        const delivery = deliveryOf(item);
        // Only a live lease or a finished write refuses a claim.
        return { state: delivery.status === 'done' ? 'done' : 'busy', delivery };
      }
    },

    async complete(key, outcome, now, countsFor) {
      const update = {
        TableName: tableName,
        Key: keyOf(key),
        ConditionExpression: 'attribute_exists(pk)',
        UpdateExpression:
          'SET #status = :done, updated_at = :at' +
          (outcome.crmRecordId ? ', crm_record_id = :record' : '') +
          (outcome.leadStatus ? ', lead_status = :leadStatus' : '') +
          ' REMOVE lease_until, #error',
        ExpressionAttributeNames: { '#status': 'status', '#error': 'error' },
        ExpressionAttributeValues: {
          ':done': 'done',
          ':at': iso(now),
          ...(outcome.crmRecordId ? { ':record': outcome.crmRecordId } : {}),
          ...(outcome.leadStatus ? { ':leadStatus': outcome.leadStatus } : {}),
        },
      };
      const target = countsFor ? await usageTargetOfCommand(db, tableName, countsFor) : undefined;
      if (!target || target.tenantId !== key.tenantId) {
        await db.send(new UpdateCommand(update));
        return;
      }
      try {
        // Done once: the write counts with the move to done, never again.
        await sendTransaction(db, [
          { Update: { ...update, ConditionExpression: 'attribute_exists(pk) AND #status <> :done' } },
          ...usageItems(tableName, { target, usage: crmWrites(1), at: now }),
        ]);
      } catch (error) {
        if (cancellationReasons(error)?.[0] !== 'ConditionalCheckFailed') throw error;
      }
    },

    async release(key, now) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keyOf(key),
            ConditionExpression: '#status = :claimed',
            UpdateExpression: 'SET lease_until = :zero, updated_at = :at',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':claimed': 'claimed', ':zero': 0, ':at': iso(now) },
          }),
        );
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
      }
    },

    async fail(key, reason, now) {
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keyOf(key),
          ConditionExpression: 'attribute_exists(pk)',
          UpdateExpression: 'SET #status = :failed, #error = :reason, updated_at = :at REMOVE lease_until',
          ExpressionAttributeNames: { '#status': 'status', '#error': 'error' },
          ExpressionAttributeValues: { ':failed': 'failed', ':reason': reason.slice(0, 500), ':at': iso(now) },
        }),
      );
    },

    async listForLead(tenantId, siteId, leadId, limit) {
      const { Items = [] } = await db.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': `${SYNC_PARTITION}${tenantId}#${siteId}#${leadId}` },
          Limit: limit,
        }),
      );
      return Items.map(deliveryOf);
    },
  };
}
