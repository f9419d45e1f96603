import type { Agent, Campaign, ContentItem, Lead, Requirement, Site, Task, User, Visitor } from './schema';

/** The collections kept under each site. */
export interface SiteCollections {
  users: User;
  visitors: Visitor;
  agents: Agent;
  leads: Lead;
  tasks: Task;
  requirements: Requirement;
  campaigns: Campaign;
  content: ContentItem;
}

export type CollectionKind = keyof SiteCollections;

export const COLLECTION_KINDS: readonly CollectionKind[] = [
  'users',
  'visitors',
  'agents',
  'leads',
  'tasks',
  'requirements',
  'campaigns',
  'content',
];

/**
 * Port: read access to sites and what belongs to them. An item is found only
 * under its own site, so "exists but belongs to another site" reads as absent.
 */
export interface SiteDirectory {
  getSite(siteId: string): Promise<Site | undefined>;
  getItem<K extends CollectionKind>(siteId: string, kind: K, id: string): Promise<SiteCollections[K] | undefined>;
  /** Up to `limit` items of a collection, in id order. */
  listItems<K extends CollectionKind>(siteId: string, kind: K, limit: number): Promise<SiteCollections[K][]>;
}

/** Port: writes sites and their items (import, and features that add tasks or requirements). */
export interface SiteWriter {
  putSite(site: Site): Promise<void>;
  /** Writes items of one collection; an item with the same id is replaced. */
  putItems<K extends CollectionKind>(siteId: string, kind: K, items: SiteCollections[K][]): Promise<void>;
}
