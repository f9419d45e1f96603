import type { Principal } from '../access/api-keys';
import { siteForPrincipal } from '../access/site-access';
import { AppError } from '../platform/errors';
import { shownId } from '../platform/shown';
import type { SiteDirectory } from '../sites/directory';
import type { Agent, Lead, Site, User } from '../sites/schema';
import { availableChannels, configuredChannels, hasReachableChannel, leadReach, type Channel } from './channels';
import { unsubscribesOf, type LeadState } from './lead-state';
import type { LeadFollowUpRequest } from './schema';
import { FOLLOW_UP_TYPES, isFollowUpType, type FollowUpType } from './vocabulary';

/** Agents read per site when looking for one by role. */
const AGENT_SCAN_LIMIT = 200;

/** What the checks found: everything a phase needs about the site and the lead. */
export interface CheckedLeadFollowUp {
  site: Site;
  lead: Lead;
  user?: User;
  /** The sales agent: the one asked for, else the site's first active sales agent. */
  agent: Agent;
  followUpType?: FollowUpType;
  /** Channels to write for, in channel order (always ends with notification and web). */
  channels: Channel[];
}

/**
 * Use case: the synchronous checks of a lead follow-up, after the request
 * schema, in the order: site (SITE_NOT_FOUND, or FORBIDDEN for a key
 * without access), lead of that site (LEAD_NOT_FOUND), user (USER_NOT_FOUND),
 * agent (AGENT_NOT_FOUND), followUpType (INVALID_FOLLOW_UP_TYPE), channels
 * (NO_CHANNELS_CONFIGURED, NO_VALID_CHANNELS_FOR_LEAD). A channel the lead
 * unsubscribed from (the tenant's `state`) is left out; when none that
 * reaches the lead is left, NO_VALID_CHANNELS_FOR_LEAD names the
 * unsubscribes in `details.refused_channels`. `state` may still be on its
 * way (read beside the site and the lead: one round trip less). The API runs them
 * with the caller's principal; the sales worker runs them again against the
 * stored data without one (a producer's job is trusted by IAM).
 */
export async function checkLeadFollowUp(
  sites: SiteDirectory,
  request: LeadFollowUpRequest,
  principal?: Principal,
  pendingState?: LeadState | Promise<LeadState>,
): Promise<CheckedLeadFollowUp> {
  const site = await findSite(sites, request.siteId, principal);

  const lead = await sites.getItem(site.id, 'leads', request.leadId);
  if (!lead) throw new AppError('LEAD_NOT_FOUND', `Lead ${shownId(request.leadId)} was not found on site ${site.id}.`);

  let user: User | undefined;
  if (request.userId) {
    user = await sites.getItem(site.id, 'users', request.userId);
    if (!user) throw new AppError('USER_NOT_FOUND', `User ${shownId(request.userId)} was not found on site ${site.id}.`);
  }

  const agent = await findSalesAgent(sites, site.id, request.agentId);

  if (request.followUpType !== undefined && !isFollowUpType(request.followUpType)) {
    throw new AppError('INVALID_FOLLOW_UP_TYPE', `followUpType must be one of: ${FOLLOW_UP_TYPES.join(', ')}.`, [
      {
        code: 'invalid_value',
        message: `Expected one of ${FOLLOW_UP_TYPES.join(', ')}`,
        received: request.followUpType,
        path: ['followUpType'],
      },
    ]);
  }

  const configured = configuredChannels(site);
  if (configured.length === 0) {
    throw new AppError('NO_CHANNELS_CONFIGURED', 'The site has neither email nor messaging_app enabled.');
  }
  const reach = leadReach(lead, request.phone_number);
  const reachable = availableChannels(configured, reach);
  const state = await pendingState;
  const refused = state
    ? reachable
        .filter((channel) => channel === 'email' || channel === 'messaging_app')
        .flatMap((channel) => unsubscribesOf(state, channel).map((item) => ({ ...item, channel })))
    : [];
  const channels = reachable.filter((channel) => !refused.some((item) => item.channel === channel));
  if (!hasReachableChannel(channels)) {
    const unsubscribed = refused.length > 0;
    throw new AppError(
      'NO_VALID_CHANNELS_FOR_LEAD',
      unsubscribed
        ? 'The lead unsubscribed from every channel of the site that reaches it; details.refused_channels says when.'
        : "None of the site's channels matches the lead's contact data.",
      {
        configured_channels: configured,
        lead_has_email: reach.hasEmail,
        lead_has_phone: reach.hasPhone,
        ...(unsubscribed ? { refused_channels: refused } : {}),
      },
    );
  }
  const followUpType =
    request.followUpType !== undefined && refused.some((item) => item.channel === request.followUpType) ? undefined : request.followUpType;

  return {
    site,
    lead,
    ...(user ? { user } : {}),
    agent,
    ...(followUpType !== undefined ? { followUpType } : {}),
    channels,
  };
}

async function findSite(sites: SiteDirectory, siteId: string, principal: Principal | undefined): Promise<Site> {
  if (principal) return siteForPrincipal(sites, principal, siteId);
  const site = await sites.getSite(siteId);
  if (!site) throw new AppError('SITE_NOT_FOUND', `Site ${shownId(siteId)} was not found.`);
  return site;
}

/** An agent counts as active unless it is marked inactive. */
export function isActiveAgent(agent: Agent): boolean {
  return agent.status !== 'inactive';
}

async function findSalesAgent(sites: SiteDirectory, siteId: string, agentId: string | undefined): Promise<Agent> {
  if (agentId) {
    const agent = await sites.getItem(siteId, 'agents', agentId);
    if (!agent || !isActiveAgent(agent)) {
      throw new AppError('AGENT_NOT_FOUND', `Agent ${shownId(agentId)} was not found, is inactive, or belongs to another site.`);
    }
    return agent;
  }
  const agent = await findActiveAgent(sites, siteId, 'sales');
  if (!agent) throw new AppError('AGENT_NOT_FOUND', 'The site has no active sales agent; name one with agent_id.');
  return agent;
}

/** The site's first active agent of a role (in id order), if any. */
export async function findActiveAgent(sites: SiteDirectory, siteId: string, role: NonNullable<Agent['role']>): Promise<Agent | undefined> {
  const agents = await sites.listItems(siteId, 'agents', AGENT_SCAN_LIMIT);
  return agents.find((agent) => agent.role === role && isActiveAgent(agent));
}
