import type { Principal } from '../../../shared/access/api-keys';
import { checkLeadFollowUp } from '../../../shared/lead-follow-up/checks';
import { parseLeadFollowUpRequest, type LeadFollowUpRequest } from '../../../shared/lead-follow-up/schema';
import { AppError } from '../../../shared/platform/errors';
import type { SiteInput } from '../../../shared/sites/schema';
import { DEMO, demoSite, inMemorySites } from './fixtures';

const OTHER_SITE = '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d';
const OTHER_LEAD = '8b9c0d1e-2f3a-4b4c-9d5e-6f7a8b9c0d1e';
const OTHER_AGENT = '9c0d1e2f-3a4b-4c5d-8e6f-7a8b9c0d1e2f';
const UNKNOWN = '01234567-89ab-4cde-8f01-23456789abcd';

function otherSite(): SiteInput {
  return {
    id: OTHER_SITE,
    name: 'Other Co',
    channels: { email: { enabled: true } },
    leads: [{ id: OTHER_LEAD, name: 'Other Lead', email: 'other@example.com' }],
    agents: [{ id: OTHER_AGENT, name: 'Other sales', role: 'sales', status: 'active' }],
    users: [{ id: UNKNOWN.replace('0123', '0999'), name: 'Other user' }],
  };
}

function request(fields: Record<string, unknown> = {}): LeadFollowUpRequest {
  return parseLeadFollowUpRequest({ siteId: DEMO.siteId, leadId: DEMO.leadId, ...fields }, 'channel_messages');
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  return (error as AppError).code;
}

describe('checkLeadFollowUp', () => {
  const sites = inMemorySites([demoSite(), otherSite()]);

  it('returns the site, lead, sales agent and channels of a valid request', async () => {
    const checked = await checkLeadFollowUp(sites, request({ userId: DEMO.userId, followUpType: 'call' }));

    expect(checked.site.name).toBe('Northwind Outdoor');
    expect(checked.lead.name).toBe('Jordan Alvarez');
    expect(checked.user?.name).toBe('Maya Chen');
    expect(checked.agent.id).toBe(DEMO.salesAgentId);
    expect(checked.followUpType).toBe('call');
    expect(checked.channels).toEqual(['email', 'messaging_app', 'notification', 'web']);
  });

  describe('in the order of the issue, each with its code', () => {
    it('1. SITE_NOT_FOUND, before anything about the lead', async () => {
      expect(await codeOf(checkLeadFollowUp(sites, request({ siteId: UNKNOWN, leadId: UNKNOWN })))).toBe('SITE_NOT_FOUND');
    });

    it('1b. FORBIDDEN for an existing site outside the key, SITE_NOT_FOUND for one that exists nowhere', async () => {
      const principal: Principal = { tenantId: 't', siteIds: [OTHER_SITE], keyId: 'k' };
      expect(await codeOf(checkLeadFollowUp(sites, request(), principal))).toBe('FORBIDDEN');
      expect(await codeOf(checkLeadFollowUp(sites, request({ siteId: UNKNOWN }), principal))).toBe('SITE_NOT_FOUND');
    });

    it('2. LEAD_NOT_FOUND for an unknown lead, before the user', async () => {
      expect(await codeOf(checkLeadFollowUp(sites, request({ leadId: UNKNOWN, userId: UNKNOWN })))).toBe('LEAD_NOT_FOUND');
    });

    it('2b. LEAD_NOT_FOUND for a lead of another site', async () => {
      expect(await codeOf(checkLeadFollowUp(sites, request({ leadId: OTHER_LEAD })))).toBe('LEAD_NOT_FOUND');
    });

    it('3. USER_NOT_FOUND for an unknown user, before the agent', async () => {
      expect(await codeOf(checkLeadFollowUp(sites, request({ userId: UNKNOWN, agentId: UNKNOWN })))).toBe('USER_NOT_FOUND');
    });

    it.each([
      ['unknown', UNKNOWN],
      ['of another site', OTHER_AGENT],
    ])('4. AGENT_NOT_FOUND for a given agent that is %s, before the follow-up type', async (_name, agentId) => {
      expect(await codeOf(checkLeadFollowUp(sites, request({ agentId, followUpType: 'fax' })))).toBe('AGENT_NOT_FOUND');
    });

    it('4b. AGENT_NOT_FOUND for a given agent that is inactive', async () => {
      const site = demoSite();
      site.agents = site.agents!.map((agent) => (agent.id === DEMO.salesAgentId ? { ...agent, status: 'inactive' as const } : agent));
      const directory = inMemorySites([site]);
      expect(await codeOf(checkLeadFollowUp(directory, request({ agentId: DEMO.salesAgentId })))).toBe('AGENT_NOT_FOUND');
    });

    it('4c. AGENT_NOT_FOUND when none is given and the site has no active sales agent', async () => {
      const site = demoSite();
      site.agents = site.agents!.map((agent) => (agent.role === 'sales' ? { ...agent, status: 'inactive' as const } : agent));
      expect(await codeOf(checkLeadFollowUp(inMemorySites([site]), request()))).toBe('AGENT_NOT_FOUND');
    });

    it('4d. a given active agent of the site is used', async () => {
      const checked = await checkLeadFollowUp(sites, request({ agentId: DEMO.cmoId }));
      expect(checked.agent.id).toBe(DEMO.cmoId);
    });

    it('5. INVALID_FOLLOW_UP_TYPE outside the allowed set, before the channels', async () => {
      const site = demoSite();
      delete site.channels;
      expect(await codeOf(checkLeadFollowUp(inMemorySites([site]), request({ followUpType: 'carrier_pigeon' })))).toBe(
        'INVALID_FOLLOW_UP_TYPE',
      );
    });

    it.each(['email', 'call', 'meeting', 'messaging_app', 'professional_network_message', 'video_message', 'notification'])(
      '5b. followUpType %s is allowed',
      async (followUpType) => {
        await expect(checkLeadFollowUp(sites, request({ followUpType }))).resolves.toMatchObject({ followUpType });
      },
    );

    it('6. NO_CHANNELS_CONFIGURED when the site has neither channel enabled', async () => {
      const site = demoSite();
      site.channels = { email: { enabled: false }, messaging_app: { enabled: false, number: '+14155550100' } };
      expect(await codeOf(checkLeadFollowUp(inMemorySites([site]), request()))).toBe('NO_CHANNELS_CONFIGURED');
    });

    it('7. NO_VALID_CHANNELS_FOR_LEAD with details when no configured channel matches the lead', async () => {
      const site = demoSite();
      site.channels = { messaging_app: { enabled: true } };
      const error = await checkLeadFollowUp(inMemorySites([site]), request({ leadId: DEMO.emailOnlyLeadId })).catch(
        (thrown: unknown) => thrown,
      );

      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('NO_VALID_CHANNELS_FOR_LEAD');
      expect((error as AppError).statusCode).toBe(400);
      expect((error as AppError).details).toEqual({ configured_channels: ['messaging_app'], lead_has_email: true, lead_has_phone: false });
    });
  });

  it('uses a valid phone_number for messaging_app when the stored lead has no phone', async () => {
    const site = demoSite();
    site.channels = { messaging_app: { enabled: true } };
    const checked = await checkLeadFollowUp(
      inMemorySites([site]),
      request({ leadId: DEMO.emailOnlyLeadId, phone_number: '+1 415 555 0188' }),
    );
    expect(checked.channels).toEqual(['messaging_app', 'notification', 'web']);
  });

  it('never takes contact data from leadData', async () => {
    const site = demoSite();
    site.channels = { messaging_app: { enabled: true } };
    const promise = checkLeadFollowUp(
      inMemorySites([site]),
      request({ leadId: DEMO.emailOnlyLeadId, leadData: { phone: '+14155550999', email: 'made-up@example.com' } }),
    );
    expect(await codeOf(promise)).toBe('NO_VALID_CHANNELS_FOR_LEAD');
  });

  describe('error messages', () => {
    const long = `${'q'.repeat(20)}${'z'.repeat(200)}`;
    const messageOf = (promise: Promise<unknown>) =>
      promise.then(
        () => '',
        (thrown: AppError) => `${thrown.code}: ${thrown.message}`,
      );

    it('repeat ids of up to 100 characters', async () => {
      expect(await messageOf(checkLeadFollowUp(sites, request({ siteId: UNKNOWN })))).toBe(
        `SITE_NOT_FOUND: Site ${UNKNOWN} was not found.`,
      );
    });

    it.each([
      ['siteId', 'SITE_NOT_FOUND'],
      ['leadId', 'LEAD_NOT_FOUND'],
      ['userId', 'USER_NOT_FOUND'],
      ['agentId', 'AGENT_NOT_FOUND'],
    ])('never echo a %s longer than 100 characters (%s)', async (field, code) => {
      const message = await messageOf(checkLeadFollowUp(sites, { ...request(), [field]: long }));
      expect(message).toMatch(new RegExp(`^${code}: `));
      expect(message).toContain(`${'q'.repeat(20)}…`);
      expect(message).not.toContain('z');
    });

    it('with a principal too', async () => {
      const principal: Principal = { tenantId: 't', siteIds: [DEMO.siteId], keyId: 'k' };
      expect(await messageOf(checkLeadFollowUp(sites, { ...request(), siteId: long }, principal))).toBe(
        `SITE_NOT_FOUND: Site ${'q'.repeat(20)}… was not found.`,
      );
    });
  });
});
