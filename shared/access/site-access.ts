import { AppError } from '../platform/errors';
import { shownId } from '../platform/shown';
import type { SiteDirectory } from '../sites/directory';
import type { Site } from '../sites/schema';
import type { Principal } from './api-keys';

/**
 * Loads a site the caller may act on. A site that exists nowhere answers
 * 404 SITE_NOT_FOUND for every key; an existing site outside the key's list
 * answers 403 FORBIDDEN.
 */
export async function siteForPrincipal(sites: SiteDirectory, principal: Principal, siteId: string): Promise<Site> {
  const site = await sites.getSite(siteId);
  if (!site) throw new AppError('SITE_NOT_FOUND', `Site ${shownId(siteId)} was not found.`);
  if (!principal.siteIds.includes(siteId)) throw new AppError('FORBIDDEN', 'This API key has no access to that site.');
  return site;
}
