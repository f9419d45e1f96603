import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { sha256Hex } from '../platform/hashing';
import { canonicalId } from '../platform/ids';
import type { TenantStore } from './tenants';

/** Who is calling: the tenant a key belongs to and the sites it may act on. */
export interface Principal {
  tenantId: string;
  siteIds: readonly string[];
  /** First characters of the key's hash: enough to tell keys apart in a log, useless to an attacker. */
  keyId: string;
}

/** What the table keeps of a key: never the key itself, only its SHA-256. */
export interface ApiKeyRecord {
  key_hash: string;
  tenant_id: string;
  site_ids: string[];
  label?: string;
  created_at: string;
  revoked_at?: string;
}

/** Port: API keys, looked up by hash. */
export interface ApiKeyStore {
  findByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  save(record: ApiKeyRecord): Promise<void>;
}

const KEY_PREFIX = 'sbk_';

/** A new random API key. Shown once to its owner; only its hash is stored. */
export function generateApiKey(): string {
  return `${KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
}

/** The SHA-256 (hex) under which a key is stored and looked up. */
export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

/** The caller a stored key stands for. */
export function principalOf(record: ApiKeyRecord): Principal {
  return { tenantId: record.tenant_id, siteIds: record.site_ids, keyId: record.key_hash.slice(0, 12) };
}

const keyItemKey = (hash: string) => ({ pk: `APIKEY#${hash}`, sk: 'APIKEY' });

/** ApiKeyStore on the single table (`APIKEY#<hash>`). */
export function dynamoApiKeyStore(db: DynamoDBDocumentClient, tableName: string): ApiKeyStore {
  return {
    async findByHash(hash) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keyItemKey(hash) }));
      if (!Item) return undefined;
      const { pk: _pk, sk: _sk, ...record } = Item;
      return record as ApiKeyRecord;
    },
    async save(record) {
      await db.send(new PutCommand({ TableName: tableName, Item: { ...keyItemKey(record.key_hash), ...record } }));
    },
  };
}

/**
 * Use case: registers a key for a tenant and its sites. The sites are granted
 * to the tenant first (creating it if needed), so a key never covers a site
 * its tenant may not act on. UUID site ids are stored in lower case. Returns
 * the key's record; the caller shows the key once.
 */
export async function registerApiKey(
  ports: { keys: ApiKeyStore; tenants: TenantStore },
  input: { key: string; tenantId: string; siteIds: string[]; label?: string; now: number },
): Promise<ApiKeyRecord> {
  const siteIds = [...new Set(input.siteIds.map((id) => canonicalId(id.trim())))];
  await ports.tenants.grantSites(input.tenantId, siteIds, input.now);
  const record: ApiKeyRecord = {
    key_hash: hashApiKey(input.key),
    tenant_id: input.tenantId,
    site_ids: siteIds,
    created_at: new Date(input.now).toISOString(),
    ...(input.label ? { label: input.label } : {}),
  };
  await ports.keys.save(record);
  return record;
}
