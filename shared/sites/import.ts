import { AppError } from '../platform/errors';
import { toIssueDetails } from '../platform/validation';
import { assertValidTenantId, type TenantStore } from '../access/tenants';
import { COLLECTION_KINDS, type SiteWriter } from './directory';
import { dataFileSchema, type DataFile } from './schema';

/** What an import wrote. */
export interface ImportSummary {
  sites: number;
  items: number;
  siteIds: string[];
  /** The tenant the imported sites were granted to, when one was named. */
  tenantId?: string;
}

/** Grants the imported sites to a tenant (`npm run data:import -- FILE --tenant acme`). */
export interface ImportGrant {
  tenants: TenantStore;
  tenantId: string;
  now: number;
}

/**
 * Validates a whole data file before anything is written. A bad file is
 * refused with the JSON path at fault (e.g. `sites[0].leads[2].email`).
 */
export function parseDataFile(raw: unknown): DataFile {
  const parsed = dataFileSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const details = toIssueDetails(parsed.error.issues);
  const first = details[0];
  const where = first ? jsonPath(first.path) : '$';
  throw new AppError('VALIDATION_ERROR', `The data file is invalid at ${where}: ${first?.message ?? 'unknown problem'}`, details);
}

/** Formats a path as `$.sites[0].leads[2].email`. */
export function jsonPath(path: readonly string[]): string {
  return path.reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : `${acc}.${part}`), '$');
}

/**
 * Use case: loads a validated data file into the table (items with the same
 * id are replaced). With a grant, the file's sites are then granted to that
 * tenant, creating it if needed. A bad file or tenant id writes nothing.
 */
export async function importDataFile(writer: SiteWriter, raw: unknown, grant?: ImportGrant): Promise<ImportSummary> {
  const file = parseDataFile(raw);
  if (grant) assertValidTenantId(grant.tenantId);
  let items = 0;
  for (const site of file.sites) {
    const { users: _u, visitors: _v, agents: _a, leads: _l, tasks: _t, requirements: _r, campaigns: _c, content: _ct, ...siteItem } = site;
    await writer.putSite(siteItem);
    for (const kind of COLLECTION_KINDS) {
      const collection = site[kind] ?? [];
      if (collection.length === 0) continue;
      await writer.putItems(site.id, kind, collection);
      items += collection.length;
    }
  }
  const siteIds = file.sites.map((site) => site.id);
  if (grant) await grant.tenants.grantSites(grant.tenantId, siteIds, grant.now);
  return { sites: file.sites.length, items, siteIds, ...(grant ? { tenantId: grant.tenantId } : {}) };
}
