import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { queryUpTo } from '../platform/dynamodb';
import { isConditionalCheckFailed } from '../platform/dynamodb-errors';
import { keyIdOf, type ApiKeyRecord, type ApiKeyStore } from './api-keys';

/** Most keys `list` reads. */
const MAX_LISTED_KEYS = 100_000;
/** Key records read at once while listing. */
const LIST_READ_CONCURRENCY = 16;

const keyItemKey = (hash: string) => ({ pk: `APIKEY#${hash}`, sk: 'APIKEY' });

/**
 * The key directory: one small item per key in one partition (`APIKEYS`,
 * sort key the key id) pointing at its hash, so the keys CLI finds a key by
 * id and lists keys with one Query instead of a Scan. Keys are few; API
 * functions never read it.
 */
const DIRECTORY_PARTITION = 'APIKEYS';
const directoryKey = (keyId: string) => ({ pk: DIRECTORY_PARTITION, sk: keyId });

/**
 * ApiKeyStore on the single table: the key record (`APIKEY#<hash>`), read by
 * authentication, and its directory entry (`APIKEYS` / `<key id>`), written
 * first so every stored key can be found by its id.
 */
export function dynamoApiKeyStore(db: DynamoDBDocumentClient, tableName: string): ApiKeyStore {
  const store: ApiKeyStore = {
    async findByHash(hash) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keyItemKey(hash) }));
      if (!Item) return undefined;
      const { pk: _pk, sk: _sk, ...record } = Item;
      return record as ApiKeyRecord;
    },

    async findById(keyId) {
      const { Item } = await db.send(
        new GetCommand({ TableName: tableName, Key: directoryKey(keyId.toLowerCase()), ConsistentRead: true }),
      );
      return typeof Item?.key_hash === 'string' ? store.findByHash(Item.key_hash) : undefined;
    },

    async list(tenantId) {
      const entries = await queryUpTo(
        db,
        {
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': DIRECTORY_PARTITION, ...(tenantId === undefined ? {} : { ':tenant': tenantId }) },
          ...(tenantId === undefined ? {} : { FilterExpression: 'tenant_id = :tenant' }),
          ConsistentRead: true,
        },
        MAX_LISTED_KEYS,
      );
      const hashes = entries.map((entry) => String(entry.key_hash));
      const records: ApiKeyRecord[] = [];
      for (let start = 0; start < hashes.length; start += LIST_READ_CONCURRENCY) {
        const read = await Promise.all(hashes.slice(start, start + LIST_READ_CONCURRENCY).map((hash) => store.findByHash(hash)));
        records.push(...read.filter((record): record is ApiKeyRecord => record !== undefined));
      }
      return records;
    },

    async save(record) {
      const keyId = keyIdOf(record.key_hash);
      try {
        await db.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...directoryKey(keyId), key_hash: record.key_hash, tenant_id: record.tenant_id },
            ConditionExpression: 'attribute_not_exists(pk) OR key_hash = :hash',
            ExpressionAttributeValues: { ':hash': record.key_hash },
          }),
        );
      } catch (error) {
        if (isConditionalCheckFailed(error)) throw new Error(`Another key already has the id ${keyId}; make a new key.`);
        throw error;
      }
      await db.send(new PutCommand({ TableName: tableName, Item: { ...keyItemKey(record.key_hash), ...record } }));
    },
  };
  return store;
}
