import { AppError } from '../../../shared/platform/errors';
import { checkStakeholderCoordination } from '../../../shared/stakeholder-coordination/checks';
import { parseStakeholderCoordinationRequest } from '../../../shared/stakeholder-coordination/schema';
import { DEMO, DEMO_VISITOR, OTHER, demoSite, inMemoryConversations, inMemorySites, otherSite, principalFor } from './fixtures';

const UNKNOWN = '0190f0a0-0000-7000-8000-00000000dead';

function setup(options: { withOwner?: boolean } = {}) {
  const site = demoSite();
  if (options.withOwner === false) delete site.owner_user_id;
  const deps = { sites: inMemorySites([site, otherSite()]), conversations: inMemoryConversations() };
  const principal = principalFor([DEMO.siteId, OTHER.siteId]);
  const check = async (fields: Record<string, unknown>, who = principal) =>
    checkStakeholderCoordination(deps, await parseStakeholderCoordinationRequest({ site_id: DEMO.siteId, ...fields }), who);
  return { deps, principal, check };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return `${error.statusCode} ${error.code}: ${error.message}`;
    throw error;
  }
  return 'accepted';
}

describe('checkStakeholderCoordination', () => {
  it('finds the site, lead, visitor and user named, and the site’s active cmo agent', async () => {
    const { check } = setup();
    const checked = await check({ lead_id: DEMO.leadId, visitor_id: DEMO_VISITOR, userId: DEMO.userId });
    expect(checked.site.id).toBe(DEMO.siteId);
    expect(checked.lead?.id).toBe(DEMO.leadId);
    expect(checked.visitor?.id).toBe(DEMO_VISITOR);
    expect(checked.user?.id).toBe(DEMO.userId);
    expect(checked.userId).toBe(DEMO.userId);
    expect(checked.agent).toMatchObject({ id: DEMO.cmoId, role: 'cmo' });
  });

  it('derives the user from the site’s owner when none is named, and leaves it unknown when the site has no owner', async () => {
    expect((await setup().check({ lead_id: DEMO.leadId })).userId).toBe(DEMO.userId);
    expect((await setup({ withOwner: false }).check({ lead_id: DEMO.leadId })).userId).toBeUndefined();
  });

  it('runs without a named agent when the site has no active cmo agent', async () => {
    const site = demoSite();
    site.agents = site.agents!.map((agent) => (agent.role === 'cmo' ? { ...agent, status: 'inactive' as const } : agent));
    const checked = await checkStakeholderCoordination(
      { sites: inMemorySites([site]), conversations: inMemoryConversations() },
      await parseStakeholderCoordinationRequest({ site_id: DEMO.siteId, lead_id: DEMO.leadId }),
      principalFor([DEMO.siteId]),
    );
    expect(checked.agent).toBeUndefined();
  });

  it('takes a named agent of the site, whatever its role', async () => {
    expect((await setup().check({ lead_id: DEMO.leadId, agentId: DEMO.salesAgentId })).agent?.id).toBe(DEMO.salesAgentId);
  });

  it('finds a conversation of the site', async () => {
    const { deps, check } = setup();
    await deps.conversations.create({
      id: UNKNOWN,
      site_id: DEMO.siteId,
      tenant_id: 'tenant-a',
      command_id: UNKNOWN,
      created_at: '2026-11-20T09:00:00.000Z',
    });
    expect((await check({ lead_id: DEMO.leadId, conversationId: UNKNOWN })).conversation?.id).toBe(UNKNOWN);
  });

  describe('refuses, in the documented order', () => {
    it('a site that exists nowhere: 404 SITE_NOT_FOUND, for any key', async () => {
      const { check } = setup();
      expect(await codeOf(check({ site_id: UNKNOWN, lead_id: DEMO.leadId }))).toMatch(/^404 SITE_NOT_FOUND/);
      expect(await codeOf(check({ site_id: UNKNOWN, lead_id: DEMO.leadId }, principalFor([])))).toMatch(/^404 SITE_NOT_FOUND/);
    });

    it('a site outside the key’s list: 403 FORBIDDEN, before any other id is looked at', async () => {
      const { check } = setup();
      expect(await codeOf(check({ lead_id: UNKNOWN, agentId: UNKNOWN }, principalFor([OTHER.siteId])))).toMatch(/^403 FORBIDDEN/);
    });

    it.each([
      ['a lead of no site', { lead_id: UNKNOWN }, /^404 LEAD_NOT_FOUND/],
      ['a lead of another site', { lead_id: OTHER.leadId }, /^404 LEAD_NOT_FOUND/],
      ['a visitor of no site', { lead_id: DEMO.leadId, visitor_id: UNKNOWN }, /^404 NOT_FOUND: Visitor/],
      ['a user of no site', { lead_id: DEMO.leadId, userId: UNKNOWN }, /^404 USER_NOT_FOUND/],
      ['a user of another site', { lead_id: DEMO.leadId, userId: OTHER.userId }, /^404 USER_NOT_FOUND/],
      ['an agent of no site', { lead_id: DEMO.leadId, agentId: UNKNOWN }, /^404 AGENT_NOT_FOUND/],
      ['an agent of another site (never used)', { lead_id: DEMO.leadId, agentId: OTHER.cmoId }, /^404 AGENT_NOT_FOUND/],
      ['a conversation of no site', { lead_id: DEMO.leadId, conversationId: UNKNOWN }, /^404 NOT_FOUND: Conversation/],
      ['a lead before an unknown user', { lead_id: UNKNOWN, userId: UNKNOWN }, /^404 LEAD_NOT_FOUND/],
      ['a user before an unknown agent', { userId: UNKNOWN, agentId: UNKNOWN }, /^404 USER_NOT_FOUND/],
      [
        'an agent before an unknown conversation',
        { userId: DEMO.userId, agentId: UNKNOWN, conversationId: UNKNOWN },
        /^404 AGENT_NOT_FOUND/,
      ],
    ])('%s', async (_, fields, expected) => {
      expect(await codeOf(setup().check(fields))).toMatch(expected);
    });

    it('an inactive agent', async () => {
      const site = demoSite();
      site.agents = site.agents!.map((agent) => ({ ...agent, status: 'inactive' as const }));
      const promise = checkStakeholderCoordination(
        { sites: inMemorySites([site]), conversations: inMemoryConversations() },
        await parseStakeholderCoordinationRequest({ site_id: DEMO.siteId, lead_id: DEMO.leadId, agentId: DEMO.cmoId }),
        principalFor([DEMO.siteId]),
      );
      expect(await codeOf(promise)).toMatch(/^404 AGENT_NOT_FOUND/);
    });

    it("another tenant's conversation on the same site", async () => {
      const { deps, check } = setup();
      await deps.conversations.create({
        id: UNKNOWN,
        site_id: DEMO.siteId,
        tenant_id: 'tenant-b',
        command_id: UNKNOWN,
        created_at: '2026-11-20T09:00:00.000Z',
      });
      expect(await codeOf(check({ lead_id: DEMO.leadId, conversationId: UNKNOWN }))).toMatch(/^404 NOT_FOUND: Conversation/);
    });

    it('a conversation of another site', async () => {
      const { deps, check } = setup();
      await deps.conversations.create({
        id: UNKNOWN,
        site_id: OTHER.siteId,
        tenant_id: 'tenant-a',
        command_id: UNKNOWN,
        created_at: '2026-11-20T09:00:00.000Z',
      });
      expect(await codeOf(check({ lead_id: DEMO.leadId, conversationId: UNKNOWN }))).toMatch(/^404 NOT_FOUND: Conversation/);
    });
  });
});
