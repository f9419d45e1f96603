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

/** SiteDirectory and SiteWriter on the single DynamoDB table. */
export function dynamoSiteDirectory(db: DynamoDBDocumentClient, tableName: string): SiteDirectory & SiteWriter {
  return {
    async getSite(siteId) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: siteKey(siteId) }));
      return Item ? strip<Site>(Item) : undefined;
    },

    async getItem(siteId, kind, id) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: itemKey(siteId, kind, id) }));
      return Item ? strip(Item) : undefined;
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
      return items.map((item) => strip<SiteCollections[K]>(item));
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
