import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { build, type Metafile } from 'esbuild';
import FormDataStandIn from '../../../infra/constructs/bundle-shims/form-data';
import { functionBundleOptions } from '../../../infra/constructs/bundle-options';
import { startHubSpotFake, type HubSpotFake } from '../../fakes/hubspot';

/**
 * The HubSpot adapter as a function bundle carries it: built with the
 * bundles' esbuild settings, `form-data` replaced by its stand-in
 * (BUNDLE_ALIASES), and run in a Node process of its own against the
 * loopback HubSpot. Jest runs the sources with the real package; this is
 * the proof that the official client still sends every kind of request the
 * integration makes (the token check, reads, a write) without it.
 */

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const execFileAsync = promisify(execFile);

let dir: string;
let metafile: Metafile;
let fake: HubSpotFake;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchboard-hubspot-bundle-'));
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [{ in: 'shared/providers/crm/hubspot.ts', out: 'hubspot' }],
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    splitting: true,
    ...functionBundleOptions(ROOT),
    metafile: true,
    logLevel: 'error',
  });
  metafile = result.metafile;
  fake = await startHubSpotFake();
}, 60_000);

afterAll(async () => {
  await fake?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs `body` (an async function of a connected client, `crm`) in a Node process of its own, on the bundle; returns its result. */
async function runBundled(body: string): Promise<unknown> {
  const script = join(dir, `run-${Math.random().toString(36).slice(2)}.mjs`);
  await writeFile(
    script,
    [
      `import { hubspotCrm } from './hubspot.mjs';`,
      `const crm = hubspotCrm({ baseUrl: ${JSON.stringify(fake.baseUrl)} }).connect({ accessToken: ${JSON.stringify(fake.token)} });`,
      `const result = await (${body})(crm);`,
      `process.stdout.write(JSON.stringify(result ?? null));`,
    ].join('\n'),
  );
  const { stdout } = await execFileAsync(process.execPath, [script], { timeout: 20_000 });
  return JSON.parse(stdout) as unknown;
}

describe('the HubSpot adapter bundled with the form-data stand-in', () => {
  it('carries neither form-data nor the MIME type table, and the stand-in in their place', () => {
    const inputs = Object.keys(metafile.inputs);
    expect(inputs.filter((input) => /node_modules\/(form-data|mime-db|mime-types)\//.test(input))).toEqual([]);
    expect(inputs).toContain('infra/constructs/bundle-shims/form-data.ts');
    expect(inputs.some((input) => input.includes('@hubspot/api-client/lib/src/services/http/Transport.js'))).toBe(true);
  });

  it("checks a token, reads contacts and logs a note through the official client's transport", async () => {
    const contactId = fake.addContact({ firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.com' });
    const result = (await runBundled(`async (crm) => ({
      account: await crm.verify(),
      contact: await crm.getContact(${JSON.stringify(contactId)}),
      page: await crm.listContacts({ limit: 10 }),
      engagement: await crm.createEngagement({ kind: 'note', contactId: ${JSON.stringify(contactId)}, at: '2026-11-28T09:00:00.000Z', body: 'Called, left a message' }),
    })`)) as {
      account: { accountId: string };
      contact: { id: string; firstName: string; email: string };
      page: { items: { id: string }[] };
      engagement: { id: string; kind: string };
    };

    expect(result.account.accountId).toBe(String(fake.portalId));
    expect(result.contact).toMatchObject({ id: contactId, firstName: 'Ada', email: 'ada@example.com' });
    expect(result.page.items.map((item) => item.id)).toContain(contactId);
    expect(result.engagement.kind).toBe('note');
    expect(fake.engagements('notes').map((note) => note.id)).toContain(result.engagement.id);
  });

  it("reads a list's members through the memberships API it loads on first use", async () => {
    const first = fake.addContact({ firstname: 'Grace', lastname: 'Hopper', email: 'grace@example.com' });
    const second = fake.addContact({ firstname: 'Alan', lastname: 'Turing', email: 'alan@example.com' });
    fake.setList('77', [first, second]);
    const result = (await runBundled(`async (crm) => crm.listMembers('77')`)) as { items: string[] };
    expect(result.items).toEqual([first, second]);
  });

  it("answers HubSpot's refusals as the port's errors, as the unbundled adapter does", async () => {
    const result = await runBundled(`async (crm) => crm.getContact('999999999')`);
    expect(result).toBeNull();
  });

  it('refuses to build a multipart form, so a multipart call added later fails instead of sending an unreadable body', () => {
    expect(() => new FormDataStandIn()).toThrow(/form-data is not bundled/);
  });
});
