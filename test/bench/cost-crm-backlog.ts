import { DEMO_SITE_ID } from '../../shared/api/examples';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';
import { mapInLanes } from './backlog';
import { PROVIDER_LATENCY, type Backlog } from './cost-backlogs';

/**
 * HubSpot imports, into the demo site, of every contact of a portal of
 * `contacts` (each with a name, e-mail, company and lead status), served by the HubSpot fake on loopback and
 * counted there: the tenant connects once before counting (`prepare`: no
 * import pays for it), then each request imports them all again, so after
 * the first each contact updates its lead. Its waits are HubSpot's requests,
 * in turn, at a stated latency.
 */
export async function crmImportBacklog(contacts: number): Promise<Backlog> {
  const hubspot: HubSpotFake = await startHubSpotFake();
  for (let index = 0; index < contacts; index++)
    hubspot.addContact({
      firstname: 'Contact',
      lastname: `${index + 1}`,
      email: `contact${index + 1}@example.com`,
      company: 'Example Co',
      hs_lead_status: 'NEW',
    });
  return {
    name: 'crm_import',
    acceptFunction: 'crmConnectionApi',
    // The runtime seals the token with a key of its own (CRM_ENCRYPTION_KEY unset: a new one per start, as `npm start`).
    settings: () => ({ HUBSPOT_API_BASE_URL: hubspot.baseUrl }),
    prepare: async (runtime) => {
      const response = await fetch(`${runtime.url}/api/integrations/hubspot`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-api-key': runtime.apiKey },
        body: JSON.stringify({ access_token: hubspot.token }),
      });
      if (response.status !== 200) throw new Error(`Connecting HubSpot answered ${response.status}: ${await response.text()}`);
    },
    enqueue: async (runtime, count) => {
      await mapInLanes(
        Array.from({ length: count }, (_, index) => index),
        async () => {
          const response = await fetch(`${runtime.url}/api/integrations/hubspot/import`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': runtime.apiKey },
            body: JSON.stringify({ site_id: DEMO_SITE_ID }),
          });
          if (response.status !== 202) throw new Error(`The import answered ${response.status}: ${await response.text()}`);
        },
      );
    },
    providerRequests: () => ({ hubspot: hubspot.requests.length }),
    providerWaitMs: (queue, perJob) => (queue === 'crm' ? (perJob.hubspot ?? 0) * PROVIDER_LATENCY.hubspotRequest : 0),
    assumptions: `${contacts} contacts an import; a HubSpot request of ${PROVIDER_LATENCY.hubspotRequest} ms (in turn)`,
    close: () => hubspot.close(),
  };
}
