import { crmPage } from '../../infra/local/crm-control';
import type { LocalCrmContents } from '../../infra/local/local-crm';

describe('crmPage', () => {
  it('escapes everything the CRM holds, so a contact or a note can never add markup to the page', () => {
    const hostile = '<script>alert("x")</script>';
    const contents: LocalCrmContents = {
      local: true,
      base_url: 'http://127.0.0.1:4100',
      portal_id: 10_000_001,
      lists: [{ id: '1', name: hostile, size: 1 }],
      contacts: [
        {
          id: '1001',
          name: hostile,
          company: `Acme ${hostile}`,
          email: "o'brien@example.com",
          phone: null,
          job_title: null,
          lead_status: hostile,
          updated_at: '2026-11-26T10:00:00.000Z',
          engagements: [
            {
              id: '1002',
              kind: 'email',
              at: '2026-11-26T10:00:00.000Z',
              created_at: '2026-11-26T10:00:00.000Z',
              subject: hostile,
              text: `Body ${hostile}`,
              source: 'api',
            },
          ],
        },
      ],
    };

    const page = crmPage(contents);

    expect(page).not.toContain('<script>');
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(page).toContain('o&#39;brien@example.com');
    expect(page).toContain('<span class="tag api">written by Switchboard</span>');
    expect(page).toContain('not HubSpot');
  });

  it('says when there are no contacts, and when a contact has nothing logged yet', () => {
    const empty: LocalCrmContents = { local: true, base_url: 'http://127.0.0.1:4100', portal_id: 1, lists: [], contacts: [] };
    expect(crmPage(empty)).toContain('<p class="none">No contacts.</p>');
    const quiet = crmPage({
      ...empty,
      contacts: [
        {
          id: '7',
          name: 'Ada',
          company: null,
          email: null,
          phone: null,
          job_title: null,
          lead_status: null,
          updated_at: '2026-11-26T10:00:00.000Z',
          engagements: [],
        },
      ],
    });
    expect(quiet).toContain('No notes, e-mails or calls yet.');
    expect(quiet).toContain('<strong class="status">(none)</strong>');
  });
});
