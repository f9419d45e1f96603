import { readFile } from 'node:fs/promises';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { hashApiKey, registerApiKey } from '../../shared/access/api-keys';
import { dynamoApiKeyStore } from '../../shared/access/dynamo-api-keys';
import type { TenantLimits } from '../../shared/access/limits/tenant-limits';
import { dynamoTenantStore } from '../../shared/access/dynamo-tenants';
import { dynamoSiteDirectory } from '../../shared/sites/dynamo-directory';
import { importDataFile, type ImportSummary } from '../../shared/sites/import';

/** The demo data every `npm start` loads: one site with leads, agents, tasks and a campaign. */
export const DEMO_DATA_FILE = new URL('./demo-data.json', import.meta.url);

/**
 * Reads and imports a data file; nothing is written if any part of it is
 * invalid. With `tenantId`, the file's sites are granted to that tenant.
 */
export async function importFile(
  db: DynamoDBDocumentClient,
  tableName: string,
  file: string | URL,
  options: { tenantId?: string } = {},
): Promise<ImportSummary> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read data file ${String(file)}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const grant =
    options.tenantId === undefined ? undefined : { tenants: dynamoTenantStore(db, tableName), tenantId: options.tenantId, now: Date.now() };
  return importDataFile(dynamoSiteDirectory(db, tableName), raw, grant);
}

/**
 * Registers API keys and keeps tenant records in step: each key's sites are
 * granted to its tenant. Each key of `API_KEYS` is its own tenant (named
 * after its hash) so tenant isolation can be tried on one machine.
 */
export async function registerKeys(
  db: DynamoDBDocumentClient,
  tableName: string,
  keys: { key: string; siteIds: string[]; tenantId?: string; label: string; limits?: TenantLimits }[],
): Promise<{ key: string; tenantId: string }[]> {
  const ports = { keys: dynamoApiKeyStore(db, tableName), tenants: dynamoTenantStore(db, tableName) };
  const registered = [];
  for (const entry of keys) {
    const tenantId = entry.tenantId ?? `tenant-${hashApiKey(entry.key).slice(0, 8)}`;
    await registerApiKey(ports, { key: entry.key, tenantId, siteIds: entry.siteIds, label: entry.label, now: Date.now() });
    if (entry.limits) await ports.tenants.setLimits(tenantId, entry.limits, Date.now());
    registered.push({ key: entry.key, tenantId });
  }
  return registered;
}
