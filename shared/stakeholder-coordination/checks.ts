import type { Principal } from '../access/api-keys';
import { siteForPrincipal } from '../access/site-access';
import { AppError } from '../platform/errors';
import { shownId } from '../platform/shown';
import type { Conversation, ConversationStore } from '../sites/conversations';
import type { SiteDirectory } from '../sites/directory';
import type { Agent, Lead, Site, User, Visitor } from '../sites/schema';
import type { StakeholderCoordinationRequest } from './schema';

/** Agents read per site when looking for its CMO agent. */
const AGENT_SCAN_LIMIT = 200;

/** What the checks found: the site and every item the request names, each of that site. */
export interface CheckedStakeholderCoordination {
  site: Site;
  lead?: Lead;
  visitor?: Visitor;
  /** The user named by `userId`, when one was named. */
  user?: User;
  /** The user the command acts for: `userId`, else the site's owner; absent when neither is known. */
  userId?: string;
  /** The agent named by `agentId`, else the site's active `cmo` agent; absent when the site has none. */
  agent?: Agent;
  /** The conversation named by `conversationId`, when one was named. */
  conversation?: Conversation;
}

/** Where the checks read. */
export interface StakeholderCheckDependencies {
  sites: SiteDirectory;
  conversations: Pick<ConversationStore, 'get'>;
}

/**
 * Use case: the synchronous checks of a stakeholder coordination, after the
 * request schema, in the order of docs/voice-calls.md "Errors": the site (404 SITE_NOT_FOUND,
 * or 403 FORBIDDEN for a key without access), then every id the request
 * names, each of which must exist on that site: lead (LEAD_NOT_FOUND),
 * visitor (NOT_FOUND), user (USER_NOT_FOUND), agent (AGENT_NOT_FOUND),
 * conversation (NOT_FOUND; another tenant's conversation on the same site
 * reads as absent: it is that tenant's). The agent is the one named, else
 * the site's active `cmo` agent, never an agent of another site.
 */
export async function checkStakeholderCoordination(
  deps: StakeholderCheckDependencies,
  request: StakeholderCoordinationRequest,
  principal: Principal,
): Promise<CheckedStakeholderCoordination> {
  const site = await siteForPrincipal(deps.sites, principal, request.site_id);

  let lead: Lead | undefined;
  if (request.lead_id) {
    lead = await deps.sites.getItem(site.id, 'leads', request.lead_id);
    if (!lead) throw new AppError('LEAD_NOT_FOUND', `Lead ${shownId(request.lead_id)} was not found on site ${site.id}.`);
  }

  let visitor: Visitor | undefined;
  if (request.visitor_id) {
    visitor = await deps.sites.getItem(site.id, 'visitors', request.visitor_id);
    if (!visitor) throw new AppError('NOT_FOUND', `Visitor ${shownId(request.visitor_id)} was not found on site ${site.id}.`);
  }

  let user: User | undefined;
  if (request.userId) {
    user = await deps.sites.getItem(site.id, 'users', request.userId);
    if (!user) throw new AppError('USER_NOT_FOUND', `User ${shownId(request.userId)} was not found on site ${site.id}.`);
  }

  const agent = await findAgent(deps.sites, site.id, request.agentId);

  let conversation: Conversation | undefined;
  if (request.conversationId) {
    conversation = await deps.conversations.get(site.id, request.conversationId);
    if (conversation?.tenant_id !== principal.tenantId) conversation = undefined;
    if (!conversation) throw new AppError('NOT_FOUND', `Conversation ${shownId(request.conversationId)} was not found on site ${site.id}.`);
  }

  const userId = request.userId ?? site.owner_user_id;
  return {
    site,
    ...(lead ? { lead } : {}),
    ...(visitor ? { visitor } : {}),
    ...(user ? { user } : {}),
    ...(userId ? { userId } : {}),
    ...(agent ? { agent } : {}),
    ...(conversation ? { conversation } : {}),
  };
}

/** An agent counts as active unless it is marked inactive. */
function isActive(agent: Agent): boolean {
  return agent.status !== 'inactive';
}

/**
 * The agent named (it must be an active agent of this site), else the
 * site's first active `cmo` agent in id order, else none. Agents are read
 * only under the request's site, so another site's agent is never found.
 */
async function findAgent(sites: SiteDirectory, siteId: string, agentId: string | undefined): Promise<Agent | undefined> {
  if (agentId) {
    const agent = await sites.getItem(siteId, 'agents', agentId);
    if (!agent || !isActive(agent)) {
      throw new AppError('AGENT_NOT_FOUND', `Agent ${shownId(agentId)} was not found, is inactive, or belongs to another site.`);
    }
    return agent;
  }
  const agents = await sites.listItems(siteId, 'agents', AGENT_SCAN_LIMIT);
  return agents.find((agent) => agent.role === 'cmo' && isActive(agent));
}
