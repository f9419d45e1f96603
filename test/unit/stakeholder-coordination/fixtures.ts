import type { Principal } from '../../../shared/access/api-keys';
import type { Conversation, ConversationStore } from '../../../shared/sites/conversations';
import type { SiteInput } from '../../../shared/sites/schema';
import { contextSummary } from '../../../shared/stakeholder-coordination/context-summary';
import type { MeetingContext } from '../../../shared/stakeholder-coordination/context';
import { demoSite, inMemorySites, DEMO } from '../lead-follow-up/fixtures';

export { DEMO, demoSite, inMemorySites };

/** The demo site's visitor. */
export const DEMO_VISITOR = '3e4f5a6b-7c8d-4e9f-a0b1-c2d3e4f5a6b7';

/** A second site with its own agents, users and leads (ids never shared with the demo site). */
export const OTHER = {
  siteId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  cmoId: 'aa8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  userId: 'bb8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  leadId: 'cc8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
} as const;

/** A site with nothing but its name: no tasks, requirements, campaigns, content or resource allocation. */
export function otherSite(): SiteInput {
  return {
    id: OTHER.siteId,
    name: 'Harbor Kayaks',
    agents: [{ id: OTHER.cmoId, name: 'Kai (CMO)', role: 'cmo', status: 'active' }],
    users: [{ id: OTHER.userId, name: 'Ana Ruiz' }],
    leads: [{ id: OTHER.leadId, name: 'Lee Park' }],
  };
}

/** A principal whose key covers the given sites. */
export function principalFor(siteIds: string[], tenantId = 'tenant-a'): Principal {
  return { tenantId, siteIds, keyId: 'key-1' };
}

/** A ConversationStore in memory, found per site as in the table. */
export function inMemoryConversations(): ConversationStore & { items: Map<string, Conversation> } {
  const items = new Map<string, Conversation>();
  return {
    items,
    async get(siteId, id) {
      return structuredClone(items.get(`${siteId}#${id}`));
    },
    async create(conversation) {
      const key = `${conversation.site_id}#${conversation.id}`;
      if (items.has(key)) return false;
      items.set(key, structuredClone(conversation));
      return true;
    },
  };
}

/** The demo site's meeting context, as the API stores it. */
export async function demoContext(overrides: Partial<MeetingContext> = {}): Promise<MeetingContext> {
  const site = demoSite();
  const sites = inMemorySites([site]);
  const summary = await contextSummary(sites, (await sites.getSite(site.id))!);
  return {
    conversation_id: '0190f0a0-0000-7000-8000-000000000001',
    user_id: DEMO.userId,
    site: { id: site.id, name: site.name, url: site.url ?? null },
    agent: { id: DEMO.cmoId, name: 'Morgan (CMO)', instructions: 'Keep meetings on objectives and tie every spend to expected return.' },
    lead: null,
    visitor_id: null,
    participants: ['maya.chen@northwind-outdoor.example', 'Sam Ortiz'],
    agenda: ['Winter campaign results', 'Budget for January'],
    phone_number: '+14155550123',
    summary,
    ...overrides,
  };
}
