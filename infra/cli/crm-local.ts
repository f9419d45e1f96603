import { parseArgs } from 'node:util';
import { LOCAL_CRM_PAGE, LOCAL_CRM_PATH, LOCAL_CRM_TOKEN_PATH } from '../local/crm-control';
import type { LocalCrmContents } from '../local/local-crm';
import { localRuntimeUrl } from './local-url';
import { fail } from './table';

const USAGE = `Usage: npm run crm:local -- [list | token] [--url URL] [--json]

The local CRM of \`npm start\` (it stands in for HubSpot when HUBSPOT_API_BASE_URL is not set).

list      (the default) each contact with its lead status, and the notes, e-mails and calls on
          it, the ones Switchboard wrote marked as such; the same is shown at
          http://HOST:PORT${LOCAL_CRM_PAGE}
token     its private app token alone, for PUT /api/integrations/hubspot (the banner of
          npm start prints it too)

--url     the running npm start (default http://HOST:PORT, i.e. http://127.0.0.1:3000)
--json    list: print what the local CRM holds as JSON`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { url: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
});
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const [command = 'list', ...extra] = positionals;
if ((command !== 'list' && command !== 'token') || extra.length > 0) fail(`Unknown command "${positionals.join(' ')}".\n\n${USAGE}`);
const baseUrl = (values.url ?? localRuntimeUrl()).replace(/\/+$/, '');

if (command === 'token') {
  process.stdout.write(`${(await read<{ access_token: string }>(LOCAL_CRM_TOKEN_PATH)).access_token}\n`);
} else {
  const contents = await read<LocalCrmContents>(LOCAL_CRM_PATH);
  process.stdout.write(values.json ? `${JSON.stringify(contents, null, 2)}\n` : listing(contents));
}

/** The `data` of a local CRM path of the running npm start; exits saying what is wrong when there is none. */
async function read<T>(path: string): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`).catch(() =>
    fail(`Nothing answers at ${baseUrl}: is \`npm start\` running? (--url sets its address)`),
  );
  if (response.status === 404) fail(`${baseUrl} has no local CRM: \`npm start\` uses it only when HUBSPOT_API_BASE_URL is not set.`);
  if (!response.ok) fail(`${baseUrl}${path} answered ${response.status}.`);
  return ((await response.json()) as { data: T }).data;
}

/** The contacts, each with its lead status and its engagements (oldest first), in plain text. */
function listing(crm: LocalCrmContents): string {
  const lines = [
    `Local CRM (HubSpot-compatible, not HubSpot) at ${crm.base_url}, portal ${crm.portal_id}: ${crm.contacts.length} contact(s)`,
    ...crm.lists.map((list) => `  list ${list.id} "${list.name}": ${list.size} contact(s)`),
  ];
  for (const contact of crm.contacts) {
    const details = [contact.company, contact.email].filter(Boolean).join(', ');
    lines.push('', `${contact.id}  ${contact.name}${details ? ` (${details})` : ''}`);
    lines.push(`      lead status: ${contact.lead_status ?? '(none)'}  (updated ${contact.updated_at})`);
    if (contact.engagements.length === 0) lines.push('      no notes, e-mails or calls');
    for (const engagement of contact.engagements) {
      const by = engagement.source === 'api' ? 'by Switchboard' : 'demo data';
      const subject = engagement.subject ? `"${engagement.subject}" ` : '';
      lines.push(`      ${engagement.kind.padEnd(5)} ${engagement.at}  [${by}]  ${subject}${oneLine(engagement.text)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Text on one line, cut to fit a terminal. */
function oneLine(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
