import { checkLeadFollowUp } from '../../../shared/lead-follow-up/checks';
import { agentSummary, writingContext } from '../../../shared/lead-follow-up/context';
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

async function contextOf(site: SiteInput, fields: Record<string, unknown> = {}) {
  const request = parseLeadFollowUpRequest({ siteId: DEMO.siteId, leadId: DEMO.leadId, ...fields }, 'channel_messages');
  return writingContext(await checkLeadFollowUp(inMemorySites([site]), request), request);
}

describe('writingContext', () => {
  it('cleans control and bidi characters planted in the stored site, agent and lead', async () => {
    const context = await contextOf(plantedSite());

    expect(unsafeCharactersIn(JSON.stringify(context))).toEqual([]);
    expect(JSON.stringify(context)).not.toMatch(/\\u0000|\\u202e|\\u2066|\\u0085/i);
    expect(context.site).toEqual({ name: 'Northwind Outdoor', url: 'https://northwind-outdoor.example' });
    expect(context.agent).toEqual({ name: 'Sam (sales)', instructions: 'Be concise.' });
    expect(context.lead).toMatchObject({ name: 'Jordan Alvarez', company: 'Trailhead Rentals', pain_points: ['double-booked gear'], lead_stage: 'qualified' });
    expect(context.preferences).toEqual({ contact_time: 'mornings' });
    expect(context.interactions).toEqual([{ date: '2026-11-10', type: 'demo', summary: 'Saw the demo.' }]);
  });

  it('cleans a stored agent read on its own (the copywriter)', () => {
    expect(agentSummary({ id: DEMO.copywriterId, name: `Riley${RLO}`, instructions: `  Warm${NUL} tone.  ` })).toEqual({ name: 'Riley', instructions: 'Warm tone.' });
  });

  it('records the contacts of the stored site and lead as allowed, and none given in the request', async () => {
    const site = demoSite();
    site.leads![0]!.interactions!.push({ date: '2026-11-17', type: 'email', summary: 'Sent the brochure from https://northwind-outdoor.example/brochure' });
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
});
