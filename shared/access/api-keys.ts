import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../platform/hashing';
import { canonicalId } from '../platform/ids';
import type { TenantLimits } from './limits/tenant-limits';
import type { TenantStore } from './tenants';

/** Who is calling: the tenant a key belongs to and the sites it may act on. */
export interface Principal {
  tenantId: string;
  siteIds: readonly string[];
  /** The key's id ({@link keyIdOf}): enough to tell keys apart in a log, useless to an attacker. */
  keyId: string;
  /** The tenant's own limits, from its record (the deployment's defaults fill the rest). */
  limits?: TenantLimits;
  /** The RateLimit headers every answer to this request carries, when the tenant has a request rate. */
  rateHeaders?: Readonly<Record<string, string>>;
}

/** What the table keeps of a key: never the key itself, only its SHA-256. */
export interface ApiKeyRecord {
  key_hash: string;
  tenant_id: string;
  site_ids: string[];
  label?: string;
  created_at: string;
  /** ISO time from which the key no longer works; absent: it never expires. */
  valid_until?: string;
  revoked_at?: string;
}

/** Port: API keys, looked up by hash (authentication) or by key id (administration). */
export interface ApiKeyStore {
  findByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  /** The key whose id is `keyId` ({@link keyIdOf}), if any. */
  findById(keyId: string): Promise<ApiKeyRecord | undefined>;
  /** Every key, or the keys of one tenant. */
  list(tenantId?: string): Promise<ApiKeyRecord[]>;
  /** Writes the key (new, or changed: revoked); refuses a new key whose id another key already has. */
  save(record: ApiKeyRecord): Promise<void>;
}

const KEY_PREFIX = 'sbk_';

/** Hex characters of a key's hash that make its id. */
export const KEY_ID_LENGTH = 12;

/** A new random API key. Shown once to its owner; only its hash is stored. */
export function generateApiKey(): string {
  return `${KEY_PREFIX}${randomBytes(24).toString('base64url')}`;
}

/** The SHA-256 (hex) under which a key is stored and looked up. */
export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

/** A key's id: the first {@link KEY_ID_LENGTH} hex characters of its hash. Logs and the keys CLI name keys by it. */
export function keyIdOf(keyHash: string): string {
  return keyHash.slice(0, KEY_ID_LENGTH);
}

/** Epoch ms from which a stored key no longer works (revoked or expired); Infinity while it has no end. */
export function keyUsableUntil(record: ApiKeyRecord): number {
  const ends = [record.valid_until, record.revoked_at].filter((at): at is string => at !== undefined).map((at) => Date.parse(at));
  return ends.length === 0 ? Infinity : Math.min(...ends.map((at) => (Number.isNaN(at) ? -Infinity : at)));
}

/** Whether a stored key may be used at `now`: never once revoked, nor from its expiry on. */
export function isKeyUsable(record: ApiKeyRecord, now: number): boolean {
  return record.revoked_at === undefined && keyUsableUntil(record) > now;
}

/** The caller a stored key stands for. */
export function principalOf(record: ApiKeyRecord): Principal {
  return { tenantId: record.tenant_id, siteIds: record.site_ids, keyId: keyIdOf(record.key_hash) };
}

/**
 * Use case: registers a key for a tenant and its sites. The sites are granted
 * to the tenant first (creating it if needed), so a key never covers a site
 * its tenant may not act on. UUID site ids are stored in lower case. Returns
 * the key's record; the caller shows the key once.
 */
export async function registerApiKey(
  ports: { keys: ApiKeyStore; tenants: TenantStore },
  input: { key: string; tenantId: string; siteIds: string[]; label?: string; now: number; validUntil?: number },
): Promise<ApiKeyRecord> {
  const siteIds = [...new Set(input.siteIds.map((id) => canonicalId(id.trim())))];
  await ports.tenants.grantSites(input.tenantId, siteIds, input.now);
  const record: ApiKeyRecord = {
    key_hash: hashApiKey(input.key),
    tenant_id: input.tenantId,
    site_ids: siteIds,
    created_at: new Date(input.now).toISOString(),
    ...(input.label ? { label: input.label } : {}),
    ...(input.validUntil === undefined ? {} : { valid_until: new Date(input.validUntil).toISOString() }),
  };
  await ports.keys.save(record);
  return record;
}

/**
 * Use case: revokes a key (at once in the table; running functions forget it within their cache time). A revoked key stays revoked as it
 * was.
 */
export async function revokeApiKey(keys: ApiKeyStore, record: ApiKeyRecord, now: number): Promise<ApiKeyRecord> {
  if (record.revoked_at) return record;
  const revoked = { ...record, revoked_at: new Date(now).toISOString() };
  await keys.save(revoked);
  return revoked;
}
