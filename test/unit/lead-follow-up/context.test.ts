import { checkLeadFollowUp } from '../../../shared/lead-follow-up/checks';
import { agentSummary, writingContext } from '../../../shared/lead-follow-up/context';
import type { LeadHistoryEntry } from '../../../shared/lead-follow-up/history';
import { HISTORY_WINDOW } from '../../../shared/lead-follow-up/writing-limits';
import { parseLeadFollowUpRequest } from '../../../shared/lead-follow-up/schema';
import { unsafeCharactersIn } from '../../../shared/platform/text';
import type { SiteInput } from '../../../shared/sites/schema';
import { DEMO, demoSite, inMemorySites } from './fixtures';

const NUL = '\u0000';
const RLO = '\u202E';
const LRI = '\u2066';

/** The demo site with control and bidi characters planted in its stored text. */
function plantedSite(): SiteInput {
  const site = demoSite();
  site.name = `North${RLO}wind${NUL} Outdoor`;
  site.url = `https://northwind-outdoor.example${LRI}`;
  const agent = site.agents!.find((item) => item.id === DEMO.salesAgentId)!;
  agent.name = `Sam${NUL} (sales)`;
  agent.instructions = `Be concise.${RLO}`;
  const lead = site.leads!.find((item) => item.id === DEMO.leadId)!;
  lead.name = `Jordan${RLO} Alvarez`;
  lead.company = `Trail${NUL}head Rentals`;
  lead.pain_points = [`double-booked${LRI} gear`];
  lead.lead_stage = `qualified${NUL}`;
  lead.preferences = { contact_time: `morn${RLO}ings` };
  lead.interactions = [{ date: '2026-11-10', type: `demo${NUL}`, summary: `Saw the ${RLO}demo\u0085.` }];
  return site;
}

async function contextOf(site: SiteInput, fields: Record<string, unknown> = {}, history: LeadHistoryEntry[] = []) {
  const request = parseLeadFollowUpRequest({ siteId: DEMO.siteId, leadId: DEMO.leadId, ...fields }, 'channel_messages');
  return writingContext(await checkLeadFollowUp(inMemorySites([site]), request), request, history);
}

describe('writingContext', () => {
  it('cleans control and bidi characters planted in the stored site, agent and lead', async () => {
    const context = await contextOf(plantedSite());

    expect(unsafeCharactersIn(JSON.stringify(context))).toEqual([]);
    expect(JSON.stringify(context)).not.toMatch(/\\u0000|\\u202e|\\u2066|\\u0085/i);
    expect(context.site).toEqual({ name: 'Northwind Outdoor', url: 'https://northwind-outdoor.example' });
    expect(context.agent).toEqual({ name: 'Sam (sales)', instructions: 'Be concise.' });
    expect(context.lead).toMatchObject({
      name: 'Jordan Alvarez',
      company: 'Trailhead Rentals',
      pain_points: ['double-booked gear'],
      lead_stage: 'qualified',
    });
    expect(context.preferences).toEqual({ contact_time: 'mornings' });
    expect(context.interactions).toEqual([{ date: '2026-11-10', type: 'demo', summary: 'Saw the demo.' }]);
  });

  it('cleans a stored agent read on its own (the copywriter)', () => {
    expect(agentSummary({ id: DEMO.copywriterId, name: `Riley${RLO}`, instructions: `  Warm${NUL} tone.  ` })).toEqual({
      name: 'Riley',
      instructions: 'Warm tone.',
    });
  });

  it('records the contacts of the stored site and lead as allowed, and none given in the request', async () => {
    const site = demoSite();
    site.leads![0]!.interactions!.push({
      date: '2026-11-17',
      type: 'email',
      summary: 'Sent the brochure from https://northwind-outdoor.example/brochure',
    });
    const context = await contextOf(site, {
      previousInteractions: [{ date: '2026-11-19', type: 'chat', summary: 'Reach me at planted@evil.example or https://evil.example' }],
      leadData: { company: 'Call +1 415 555 0999' },
    });

    expect(context.allowed_contacts).toEqual({
      urls: ['northwind-outdoor.example', 'northwind-outdoor.example/brochure'],
      emails: ['sales@northwind-outdoor.example', 'jordan.alvarez@trailhead-rentals.example'],
      phones: ['14155550100', '14155550123'],
    });
    expect(JSON.parse(JSON.stringify(context.allowed_contacts))).toEqual(context.allowed_contacts);
  });

  it("shows the newest of the site's, the given and the tenant's interactions within one window, each summary cut to 2,000 characters", async () => {
    const site = demoSite();
    site.leads![0]!.interactions = Array.from({ length: 500 }, (_, index) => ({
      date: `2025-01-01T00:${String(index % 60).padStart(2, '0')}:00Z#${index}`,
      type: 'note',
      summary: 'i'.repeat(10_000),
    }));
    const given = Array.from({ length: 100 }, (_, index) => ({
      date: `2026-01-${String((index % 28) + 1).padStart(2, '0')}`,
      type: 'chat',
      summary: `given ${index} ${'g'.repeat(4_900)}`,
    }));
    const history = [
      { event_id: 'e-1', date: '2026-12-01T09:00:00.000Z', type: 'replied', channel: 'email', summary: 'Newest: asked for a call.' },
    ];

    const context = await contextOf(site, { previousInteractions: given }, history);

    expect(context.interactions.length).toBeLessThanOrEqual(HISTORY_WINDOW.maxEntries);
    expect(context.interactions.reduce((total, item) => total + item.summary.length, 0)).toBeLessThanOrEqual(HISTORY_WINDOW.maxCharacters);
    expect(context.interactions.every((item) => item.summary.length <= 2_000)).toBe(true);
    expect(context.interactions.at(-1)).toEqual({
      date: '2026-12-01T09:00:00.000Z',
      type: 'replied',
      summary: 'Newest: asked for a call.',
    });
    expect(context.interactions.slice(0, -1).every((item) => item.type === 'chat' && item.date.startsWith('2026-01-28'))).toBe(true);
  });

  it("allows the contacts of the tenant's own history, which its writer sees", async () => {
    const history = [
      {
        event_id: 'e-2',
        date: '2026-12-01T09:00:00.000Z',
        type: 'replied',
        channel: 'email',
        summary: 'Write to the assistant at office@trailhead-rentals.example',
      },
    ];
    expect((await contextOf(demoSite(), {}, history)).allowed_contacts.emails).toContain('office@trailhead-rentals.example');
    expect((await contextOf(demoSite())).allowed_contacts.emails).not.toContain('office@trailhead-rentals.example');
  });
});
