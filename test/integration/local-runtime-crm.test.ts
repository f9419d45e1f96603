import { spawn } from 'node:child_process';
import { formatBanner } from '../../infra/local/banner';
import { DEMO_LIST, LOCAL_CRM_PORTAL_ID } from '../../infra/local/local-crm';
import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime';
import { CrmCredentialsError } from '../../shared/providers/crm/errors';
import { hubspotCrm } from '../../shared/providers/crm/hubspot';
import { startHubSpotFake } from '../fakes/hubspot';
import { call } from '../support/http';

/**
 * The local CRM of `npm start`: started when HUBSPOT_API_BASE_URL is not set
 * (and not when it is), holding the demo leads, reached by the real HubSpot
 * client with the token the banner prints and through the connection API,
 * labelled local, shown by `npm run crm:local -- list` and the `/crm` page,
 * and stopped with the runtime.
 */
const PATH = '/api/integrations/hubspot';
const quiet = { LOG_LEVEL: 'SILENT', OPENAI_API_KEY: undefined, HUBSPOT_API_BASE_URL: undefined, LOCAL_CRM: undefined };
const bannerOf = (runtime: LocalRuntime, env: Record<string, string | undefined>) =>
  formatBanner(runtime, { keySource: { kind: 'generated' }, extraKeys: 0, graceSeconds: 5, env });

/** Runs `npm run crm:local -- ARGS` as a process. */
function crmLocal(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['infra/cli/run.mjs', 'infra/cli/crm-local.ts', ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_OPTIONS: '' },
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, ...output }));
  });
}

describe('local runtime CRM', () => {
  let runtime: LocalRuntime;

  beforeAll(async () => {
    runtime = await startLocalRuntime({ port: 0, workers: false, scheduleEveryMs: 0, settings: quiet });
  }, 60_000);

  afterAll(() => runtime?.stop());

  it('starts without HUBSPOT_API_BASE_URL, points the functions at it, and the banner says so', () => {
    const crm = runtime.localCrm!;
    expect(crm).toBeDefined();
    expect(crm.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(crm.settings).toEqual({ HUBSPOT_API_BASE_URL: crm.baseUrl, LOCAL_CRM: 'true' });
    const banner = bannerOf(runtime, {});
    expect(banner).toContain(`CRM:               local (HubSpot-compatible, ${crm.baseUrl})`);
    expect(banner).toContain(`PUT /api/integrations/hubspot {"access_token":"${crm.token}"}`);
    expect(banner).toContain(`${runtime.url}/crm, or npm run crm:local -- list`);
  });

  it('holds the demo leads as contacts of a list, with their interactions, for the real HubSpot client and its printed token', async () => {
    const crm = runtime.localCrm!;
    const client = hubspotCrm({ baseUrl: crm.settings.HUBSPOT_API_BASE_URL }).connect({ accessToken: crm.token });

    expect(await client.verify()).toMatchObject({ accountId: String(LOCAL_CRM_PORTAL_ID) });
    const members = await client.listMembers(DEMO_LIST.id);
    expect(members.items).toHaveLength(2);
    const [jordan, priya] = await client.readContacts(members.items, { withActivities: true });
    expect(jordan).toMatchObject({
      firstName: 'Jordan',
      lastName: 'Alvarez',
      company: 'Trailhead Rentals',
      email: 'jordan.alvarez@trailhead-rentals.example',
      phone: '+14155550123',
      jobTitle: 'Operations Director',
      leadStatus: 'OPEN',
    });
    expect(jordan!.recentActivities.map((activity) => [activity.kind, activity.at, activity.direction])).toEqual([
      ['email', '2026-11-16T12:00:00.000Z', 'inbound'],
      ['note', '2026-11-10T12:00:00.000Z', undefined],
    ]);
    expect(priya).toMatchObject({ firstName: 'Priya', lastName: 'Natarajan', leadStatus: 'NEW', recentActivities: [] });

    await expect(hubspotCrm({ baseUrl: crm.baseUrl }).connect({ accessToken: 'pat-na1-not-this-one' }).verify()).rejects.toBeInstanceOf(
      CrmCredentialsError,
    );
  });

  it('is connected with its token (npm run crm:local -- token) through PUT /api/integrations/hubspot, answers labelled local', async () => {
    const crm = runtime.localCrm!;
    const printed = await crmLocal('token', '--url', runtime.url);
    expect(printed).toMatchObject({ status: 0, stdout: `${crm.token}\n`, stderr: '' });
    const refused = await call(runtime.url, 'PUT', PATH, { key: runtime.apiKey, body: { access_token: 'pat-na1-not-this-one' } });
    expect(refused.status).toBe(400);

    const connected = await call(runtime.url, 'PUT', PATH, { key: runtime.apiKey, body: { access_token: printed.stdout.trim() } });
    expect(connected.status).toBe(200);
    expect(connected.body.data).toMatchObject({
      provider: 'hubspot',
      local: true,
      connected: true,
      portal_id: String(LOCAL_CRM_PORTAL_ID),
    });
    expect(JSON.stringify(connected.body)).not.toContain(crm.token);
    const shown = await call(runtime.url, 'GET', PATH, { key: runtime.apiKey });
    expect(shown.body.data).toMatchObject({ provider: 'hubspot', local: true, portal_id: String(LOCAL_CRM_PORTAL_ID) });
    const removed = await call(runtime.url, 'DELETE', PATH, { key: runtime.apiKey });
    expect(removed.body.data).toEqual({ provider: 'hubspot', local: true, portal_id: String(LOCAL_CRM_PORTAL_ID), deleted: true });
  }, 30_000);

  it('shows what Switchboard wrote, on the /crm page and through npm run crm:local -- list', async () => {
    const crm = runtime.localCrm!;
    const client = hubspotCrm({ baseUrl: crm.baseUrl }).connect({ accessToken: crm.token });
    const [priyaId] = (await client.listMembers(DEMO_LIST.id)).items.slice(1);
    await client.createEngagement({
      contactId: priyaId!,
      kind: 'note',
      body: 'Follow-up step 1 sent by e-mail:\nPriya, <a quick idea> for repeat bookings',
      at: '2026-11-26T09:30:00.000Z',
    });
    await client.setLeadStatus(priyaId!, 'ATTEMPTED_TO_CONTACT');

    const page = await fetch(`${runtime.url}/crm`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<title>Local CRM (not HubSpot)</title>');
    expect(html).toContain(`Priya Natarajan <small>contact ${priyaId}</small>`);
    expect(html).toContain('<strong class="status">ATTEMPTED_TO_CONTACT</strong>');
    expect(html).toContain('written by Switchboard');
    expect(html).toContain('Priya, &lt;a quick idea&gt; for repeat bookings');
    expect(html).not.toContain(crm.token);
    expect((await fetch(`${runtime.url}/crm`, { method: 'POST' })).status).toBe(405);

    const listed = await crmLocal('list', '--url', runtime.url);
    expect(listed.stderr).toBe('');
    expect(listed.status).toBe(0);
    expect(listed.stdout).toContain(
      `Local CRM (HubSpot-compatible, not HubSpot) at ${crm.baseUrl}, portal ${LOCAL_CRM_PORTAL_ID}: 2 contact(s)`,
    );
    expect(listed.stdout).toContain(`list ${DEMO_LIST.id} "${DEMO_LIST.name}": 2 contact(s)`);
    expect(listed.stdout).toMatch(new RegExp(`${priyaId}  Priya Natarajan \\(Summit Guides Co\\., priya@summit-guides\\.example\\)\\n`));
    expect(listed.stdout).toContain('lead status: ATTEMPTED_TO_CONTACT');
    expect(listed.stdout).toContain(
      'note  2026-11-26T09:30:00.000Z  [by Switchboard]  Follow-up step 1 sent by e-mail: Priya, <a quick idea> for repeat bookings',
    );
    expect(listed.stdout).toContain('email 2026-11-16T12:00:00.000Z  [demo data]  Asked for pricing for three rental locations.');
    expect(listed.stdout).not.toContain(crm.token);
  }, 30_000);

  it('is stopped with the runtime', async () => {
    const stopping = await startLocalRuntime({ port: 0, workers: false, scheduleEveryMs: 0, settings: quiet });
    const crm = stopping.localCrm!;
    expect((await fetch(`${crm.baseUrl}/crm/v3/objects/contacts`)).status).toBe(401);
    await stopping.stop();
    await expect(fetch(`${crm.baseUrl}/crm/v3/objects/contacts`)).rejects.toThrow();
  }, 60_000);
});

describe('local runtime with HUBSPOT_API_BASE_URL set', () => {
  it('starts no local CRM: the banner names HubSpot, /crm is no page, and the CLI says why it has nothing', async () => {
    const hubspot = await startHubSpotFake();
    const runtime = await startLocalRuntime({
      port: 0,
      workers: false,
      scheduleEveryMs: 0,
      settings: { ...quiet, HUBSPOT_API_BASE_URL: hubspot.baseUrl },
    });
    try {
      expect(runtime.localCrm).toBeUndefined();
      const banner = bannerOf(runtime, { HUBSPOT_API_BASE_URL: hubspot.baseUrl });
      expect(banner).toContain(`CRM:               HubSpot at ${new URL(hubspot.baseUrl).host} (each tenant connects its own portal`);
      expect(banner).not.toContain('local (HubSpot-compatible');
      expect((await call(runtime.url, 'GET', '/crm')).status).toBe(404);
      const connected = await call(runtime.url, 'PUT', PATH, { key: runtime.apiKey, body: { access_token: hubspot.token } });
      expect(connected.body.data).toMatchObject({ provider: 'hubspot', portal_id: String(hubspot.portalId) });
      expect(connected.body.data).not.toHaveProperty('local');
      const listed = await crmLocal('list', '--url', runtime.url);
      expect(listed.status).toBe(2);
      expect(listed.stderr).toContain(`${runtime.url} has no local CRM: \`npm start\` uses it only when HUBSPOT_API_BASE_URL is not set.`);
    } finally {
      await runtime.stop();
      await hubspot.close();
    }
  }, 60_000);
});
