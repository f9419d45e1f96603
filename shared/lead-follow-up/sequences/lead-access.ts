import type { Principal } from '../../access/api-keys';
import { siteForPrincipal } from '../../access/site-access';
import { AppError } from '../../platform/errors';
import { isUuid } from '../../platform/ids';
import { shownId } from '../../platform/shown';
import type { SiteDirectory } from '../../sites/directory';
import type { Lead, Site } from '../../sites/schema';

/**
 * The checks every lead route makes, in the house order: ids are UUIDs
 * (INVALID_INPUT), the site exists (SITE_NOT_FOUND) and the key covers it
 * (FORBIDDEN), the lead belongs to it (LEAD_NOT_FOUND).
 */
export async function leadForPrincipal(
  sites: SiteDirectory,
  principal: Principal,
  siteId: string,
  leadId: string,
): Promise<{ site: Site; lead: Lead }> {
  const site = await siteForPrincipal(sites, principal, siteId);
  const lead = await sites.getItem(site.id, 'leads', leadId);
  if (!lead) throw new AppError('LEAD_NOT_FOUND', `Lead ${shownId(leadId)} was not found on site ${site.id}.`);
  return { site, lead };
}

/** An id of the path or body, as a lower-case UUID; INVALID_INPUT naming the field otherwise. */
export function uuidOf(value: string | undefined, field: string): string {
  const id = value?.trim().toLowerCase();
  if (!id || !isUuid(id)) {
    throw new AppError('INVALID_INPUT', `${field}: Invalid UUID`, [
      { code: 'invalid_format', message: 'Invalid UUID', path: [field], ...(value === undefined ? {} : { received: shownId(value) }) },
    ]);
  }
  return id;
}
