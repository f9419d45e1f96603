import { dynamoLeadLinks } from '../../../shared/crm/dynamo-lead-links';
import { LeadLinkedElsewhereError, type LeadLinks } from '../../../shared/crm/lead-links';
import { startEmbeddedServices, type EmbeddedServices } from '../../support/embedded';

const SITE_A = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const SITE_B = '0c9e8d7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f';

let services: EmbeddedServices;
let links: LeadLinks;
beforeAll(async () => {
  services = await startEmbeddedServices();
  links = dynamoLeadLinks(services.db, services.aws.tableName, 'hubspot');
});
afterAll(() => services.stop());

describe('dynamoLeadLinks', () => {
  it('links a contact and a lead both ways', async () => {
    expect(await links.link('acme', SITE_A, 'lead-1', '101')).toBe('lead-1');
    expect(await links.leadOf('acme', '101')).toEqual([{ siteId: SITE_A, leadId: 'lead-1' }]);
    expect(await links.contactOf('acme', SITE_A, 'lead-1')).toBe('101');
  });

  it('keeps the first lead of a contact in a site: linking it again to a new lead answers the linked one', async () => {
    await links.link('acme', SITE_A, 'lead-2', '102');
    expect(await links.link('acme', SITE_A, 'lead-2-duplicate', '102')).toBe('lead-2');
    expect(await links.leadOf('acme', '102')).toEqual([{ siteId: SITE_A, leadId: 'lead-2' }]);
    expect(await links.contactOf('acme', SITE_A, 'lead-2-duplicate')).toBeUndefined();
  });

  it('is idempotent: the same link written twice is one link', async () => {
    await links.link('acme', SITE_A, 'lead-3', '103');
    expect(await links.link('acme', SITE_A, 'lead-3', '103')).toBe('lead-3');
    expect(await links.leadOf('acme', '103')).toHaveLength(1);
  });

  it('refuses to link a lead to a second contact', async () => {
    await links.link('acme', SITE_A, 'lead-4', '104');
    await expect(links.link('acme', SITE_A, 'lead-4', '105')).rejects.toEqual(new LeadLinkedElsewhereError('104'));
    expect(await links.leadOf('acme', '105')).toEqual([]);
    expect(await links.contactOf('acme', SITE_A, 'lead-4')).toBe('104');
  });

  it('links a contact to one lead per site', async () => {
    await links.link('acme', SITE_A, 'lead-6a', '106');
    await links.link('acme', SITE_B, 'lead-6b', '106');
    expect(await links.leadOf('acme', '106')).toEqual(
      [
        { siteId: SITE_A, leadId: 'lead-6a' },
        { siteId: SITE_B, leadId: 'lead-6b' },
      ].sort((a, b) => a.siteId.localeCompare(b.siteId)),
    );
  });

  it("keeps each tenant's links apart, on the same site and contact id", async () => {
    await links.link('acme', SITE_A, 'lead-7', '107');
    expect(await links.leadOf('globex', '107')).toEqual([]);
    expect(await links.contactOf('globex', SITE_A, 'lead-7')).toBeUndefined();
    expect(await links.link('globex', SITE_A, 'lead-7-globex', '107')).toBe('lead-7-globex');
    expect(await links.leadOf('acme', '107')).toEqual([{ siteId: SITE_A, leadId: 'lead-7' }]);
  });

  it('agrees on one lead when two links of a contact race', async () => {
    const answers = await Promise.all([
      links.link('acme', SITE_A, 'lead-8a', '108'),
      links.link('acme', SITE_A, 'lead-8b', '108'),
      links.link('acme', SITE_A, 'lead-8c', '108'),
    ]);
    expect(new Set(answers).size).toBe(1);
    expect(await links.leadOf('acme', '108')).toEqual([{ siteId: SITE_A, leadId: answers[0] }]);
  });
});
