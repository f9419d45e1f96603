import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchPutAll, queryUpTo } from '../platform/dynamodb';
import type { CollectionKind, SiteCollections, SiteDirectory, SiteWriter } from './directory';
import type { Site } from './schema';

const SITE_SORT_KEY = 'SITE';

export const siteKey = (siteId: string) => ({ pk: `SITE#${siteId}`, sk: SITE_SORT_KEY });
export const itemKey = (siteId: string, kind: CollectionKind, id: string) => ({
  pk: `SITE#${siteId}`,
  sk: `${kind.toUpperCase()}#${id}`,
});

function strip<T>(item: Record<string, unknown>): T {
  const { pk: _pk, sk: _sk, ...rest } = item;
  return rest as T;
}

/**
 * An item of a collection as stored, without its keys. A lead written
 * before reported events moved to each tenant's own history may still
 * carry them: appended at the end of its `interactions`, one for each id
 * in `interaction_event_ids` (a re-import replaces the whole item, so the
 * two stay in step). They are left out: no tenant can be told apart there,
 * so none reads them, and the lead reads as the site's data alone.
 */
function fromStored<T>(kind: CollectionKind, item: Record<string, unknown>): T {
  if (kind !== 'leads' || item.interaction_event_ids === undefined) return strip<T>(item);
  const { interaction_event_ids: reported, ...lead } = item;
  const count = Array.isArray(reported) ? reported.length : 0;
  if (Array.isArray(lead.interactions)) lead.interactions = lead.interactions.slice(0, Math.max(0, lead.interactions.length - count));
  return strip<T>(lead);
}

/** SiteDirectory and SiteWriter on the single DynamoDB table. */
export function dynamoSiteDirectory(db: DynamoDBDocumentClient, tableName: string): SiteDirectory & SiteWriter {
  return {
    async getSite(siteId) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: siteKey(siteId) }));
      return Item ? strip<Site>(Item) : undefined;
    },

    async getItem(siteId, kind, id) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: itemKey(siteId, kind, id) }));
      return Item ? fromStored(kind, Item) : undefined;
    },

    async listItems<K extends CollectionKind>(siteId: string, kind: K, limit: number) {
      const items = await queryUpTo(
        db,
        {
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': `SITE#${siteId}`, ':prefix': `${kind.toUpperCase()}#` },
        },
        limit,
      );
      return items.map((item) => fromStored<SiteCollections[K]>(kind, item));
    },

    async putSite(site) {
      await db.send(new PutCommand({ TableName: tableName, Item: { ...siteKey(site.id), ...site } }));
    },

    async putItems(siteId, kind, items) {
      await batchPutAll(
        db,
        tableName,
        items.map((item) => ({ ...itemKey(siteId, kind, item.id), ...item })),
      );
    },
  };
}
