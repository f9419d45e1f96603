import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { eventually } from '../support/embedded';
import { call } from '../support/http';
import { npmStart, type NpmStart } from '../support/npm-start';

/**
 * The CRM integration with no HubSpot account, as docs/crm.md "Trying it
 * with no account" has a user try it: `npm start` without
 * HUBSPOT_API_BASE_URL prints the local CRM and its token, the tenant
 * connects with that token, and `npm run crm:local -- list` shows the demo
 * leads as contacts; Ctrl-C stops the local CRM with the service.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const API_KEY = 'sbk_e2e-npm-start-crm-key-0000001';

let run: NpmStart;

beforeAll(async () => {
  run = await npmStart({ API_KEY, HUBSPOT_API_BASE_URL: undefined, LOCAL_CRM: undefined });
});

afterAll(() => run.kill());

function crmLocal(...args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'crm:local', '--', ...args], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('npm start with no HubSpot settings', () => {
  it('prints the local CRM and its token, connects with it, lists it, and stops it with Ctrl-C', async () => {
    const banner = await eventually(
      async () => (/see it at: .*\n/.test(run.output()) ? run.output() : undefined),
      10_000,
      'the CRM lines of the banner',
    );
    const crmUrl = /CRM: {15}local \(HubSpot-compatible, (http:\/\/127\.0\.0\.1:\d+)\)/.exec(banner)?.[1];
    const token = /PUT \/api\/integrations\/hubspot \{"access_token":"(pat-local-[\w-]+)"\}/.exec(banner)?.[1];
    expect(crmUrl).toBeDefined();
    expect(token).toBeDefined();

    const connected = await call(run.url, 'PUT', '/api/integrations/hubspot', { key: API_KEY, body: { access_token: token } });
    expect(connected.status).toBe(200);
    expect(connected.body.data).toMatchObject({ provider: 'hubspot', local: true, portal_id: '10000001' });

    const listed = await crmLocal('list', '--url', run.url);
    expect(listed.code).toBe(0);
    expect(listed.output).toContain(`Local CRM (HubSpot-compatible, not HubSpot) at ${crmUrl}`);
    expect(listed.output).toContain('1001  Jordan Alvarez (Trailhead Rentals, jordan.alvarez@trailhead-rentals.example)');
    expect(listed.output).toContain('lead status: OPEN');

    run.signalGroup('SIGINT');
    await run.closed;
    await expect(fetch(`${crmUrl}/crm/v3/objects/contacts`)).rejects.toThrow();
  }, 90_000);
});
