import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { plainOf } from '../../shared/providers/crm/hubspot-records';
import { startHubSpotServer } from './hubspot-server';
import { hubspotPortal, type EngagementKind, type HubSpotPortal } from './hubspot-wire';
import { keptSecret } from './kept-secret';
import { DEMO_DATA_FILE } from './provision';

/** The portal id the local CRM reports for its token (any HubSpot portal id is a number of up to 9 digits). */
export const LOCAL_CRM_PORTAL_ID = 10_000_001;

/** The file in DATA_DIR that keeps the local CRM's token between runs. */
export const LOCAL_CRM_TOKEN_FILE = 'local-crm-token';

/** The list of the local CRM that holds every demo lead (HubSpot list ids are numbers). */
export const DEMO_LIST = Object.freeze({ id: '1', name: 'Switchboard demo leads' });

/** A local CRM's contact as `npm run crm:local -- list` and the `/crm` page show it. */
export interface LocalCrmContact {
  id: string;
  name: string;
  company: string | null;
  email: string | null;
  phone: string | null;
  job_title: string | null;
  /** `hs_lead_status`, as Switchboard (or the demo data) left it. */
  lead_status: string | null;
  updated_at: string;
  /** Its notes, e-mails and calls, oldest first. */
  engagements: LocalCrmEngagement[];
}

/** A note, e-mail or call on a contact. */
export interface LocalCrmEngagement {
  id: string;
  kind: 'note' | 'email' | 'call';
  /** Its `hs_timestamp`: when it happened. */
  at: string;
  /** When it was recorded in the CRM. */
  created_at: string;
  subject: string | null;
  /** Its text, plain. */
  text: string;
  /** `demo`: part of the demo data; `api`: written through the API (by Switchboard). */
  source: 'demo' | 'api';
}

/** What the local CRM holds, as its views show it. */
export interface LocalCrmContents {
  /** Always true: this is not HubSpot. */
  local: true;
  base_url: string;
  portal_id: number;
  lists: { id: string; name: string; size: number }[];
  contacts: LocalCrmContact[];
}

/** The local CRM of `npm start`. */
export interface LocalCrm {
  /** HUBSPOT_API_BASE_URL of this server. */
  readonly baseUrl: string;
  readonly portalId: number;
  /** The private app token it accepts (every scope the integration uses): made at start, or kept in DATA_DIR. */
  readonly token: string;
  /** The settings that point the functions at it: HUBSPOT_API_BASE_URL and LOCAL_CRM=true. */
  readonly settings: Record<string, string>;
  /** The portal, for tests that look or change what it holds. */
  readonly portal: HubSpotPortal;
  /** What it holds now. */
  contents(): LocalCrmContents;
  stop(): Promise<void>;
}

/** A lead of the demo data file, as far as the local CRM reads it. */
interface DemoLead {
  name?: string;
  company?: string;
  email?: string;
  phone?: string;
  position?: string;
  lead_stage?: string;
  interactions?: { date?: string; type?: string; summary?: string }[];
}

/**
 * The HubSpot lead status a demo lead starts with, from its stage: the
 * nearest of HubSpot's default options (a stage it does not name starts `NEW`).
 */
const STATUS_OF_STAGE: Readonly<Record<string, string>> = {
  new: 'NEW',
  contacted: 'ATTEMPTED_TO_CONTACT',
  engaged: 'CONNECTED',
  qualified: 'OPEN',
  meeting: 'IN_PROGRESS',
  unqualified: 'UNQUALIFIED',
};

const KIND_OF: Record<EngagementKind, LocalCrmEngagement['kind']> = { notes: 'note', emails: 'email', calls: 'call' };

/**
 * A HubSpot-compatible server on 127.0.0.1 (a port of its own) for trying
 * the CRM integration without a HubSpot account: it holds the leads of the
 * demo data as contacts, all of them members of {@link DEMO_LIST}, with
 * their interactions as notes and e-mails, and accepts one private app
 * token. What Switchboard writes (notes, e-mails, calls, lead statuses)
 * stays in memory and goes with the process. With `dataDir` the token is
 * kept there (DATA_DIR/local-crm-token), so a connection kept in DATA_DIR
 * still opens after a restart; the contacts get the same ids at every
 * start, so leads imported earlier still match them.
 */
export async function startLocalCrm(options: { demoFile?: string | URL; dataDir?: string } = {}): Promise<LocalCrm> {
  const portal = hubspotPortal({ portalId: LOCAL_CRM_PORTAL_ID });
  const newToken = () => `pat-local-${randomUUID()}`;
  const token = options.dataDir
    ? (
        await keptSecret(join(options.dataDir, LOCAL_CRM_TOKEN_FILE), {
          make: newToken,
          usable: (kept) => /^pat-local-[\w-]{16,}$/.test(kept),
        })
      ).value
    : newToken();
  portal.addToken(token);
  const demo = new Set<string>();
  const members: string[] = [];
  for (const lead of await demoLeads(options.demoFile ?? DEMO_DATA_FILE)) {
    const [first, ...rest] = (lead.name ?? '').trim().split(/\s+/);
    const properties = Object.fromEntries(
      Object.entries({
        firstname: first,
        lastname: rest.join(' '),
        email: lead.email,
        phone: lead.phone,
        company: lead.company,
        jobtitle: lead.position,
        hs_lead_status: STATUS_OF_STAGE[lead.lead_stage ?? ''] ?? 'NEW',
      }).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== ''),
    );
    const id = portal.addContact(properties);
    members.push(id);
    for (const interaction of lead.interactions ?? []) {
      if (!interaction.summary) continue;
      const at = instantOf(interaction.date);
      const engagement =
        interaction.type === 'email'
          ? portal.addEngagement(
              'emails',
              id,
              { hs_timestamp: at, hs_email_direction: 'INCOMING_EMAIL', hs_email_text: interaction.summary },
              at,
            )
          : portal.addEngagement('notes', id, { hs_timestamp: at, hs_note_body: `${labelOf(interaction.type)}${interaction.summary}` }, at);
      demo.add(engagement);
    }
  }
  portal.setList(DEMO_LIST.id, members);
  const server = await startHubSpotServer({ portal });

  return {
    baseUrl: server.baseUrl,
    portalId: portal.portalId,
    token,
    settings: { HUBSPOT_API_BASE_URL: server.baseUrl, LOCAL_CRM: 'true' },
    portal,
    contents: () => contentsOf(portal, server.baseUrl, demo),
    stop: () => server.close(),
  };
}

async function demoLeads(file: string | URL): Promise<DemoLead[]> {
  const data = JSON.parse(await readFile(file, 'utf8')) as { sites?: { leads?: DemoLead[] }[] };
  return (data.sites ?? []).flatMap((site) => site.leads ?? []);
}

/** A demo date (`2026-11-10`) as an instant: noon UTC that day; now when it has none. */
function instantOf(date: string | undefined): string {
  const parsed = date ? Date.parse(/T/.test(date) ? date : `${date}T12:00:00Z`) : Number.NaN;
  return new Date(Number.isNaN(parsed) ? Date.now() : parsed).toISOString();
}

/** "Demo: " for an interaction of type demo, as a rep would start the note. */
function labelOf(type: string | undefined): string {
  return type ? `${type.charAt(0).toUpperCase()}${type.slice(1)}: ` : '';
}

function contentsOf(portal: HubSpotPortal, baseUrl: string, demo: ReadonlySet<string>): LocalCrmContents {
  const byContact = new Map<string, LocalCrmEngagement[]>();
  for (const kind of ['notes', 'emails', 'calls'] as const) {
    for (const engagement of portal.engagements(kind)) {
      const { properties: p } = engagement;
      const text =
        kind === 'notes' ? plainOf(p.hs_note_body ?? '') : kind === 'emails' ? (p.hs_email_text ?? '') : plainOf(p.hs_call_body ?? '');
      const view: LocalCrmEngagement = {
        id: engagement.id,
        kind: KIND_OF[kind],
        at: p.hs_timestamp ?? engagement.createdAt,
        created_at: engagement.createdAt,
        subject: (kind === 'emails' ? p.hs_email_subject : kind === 'calls' ? p.hs_call_title : undefined) ?? null,
        text,
        source: demo.has(engagement.id) ? 'demo' : 'api',
      };
      for (const contactId of new Set(engagement.associations.map((association) => association.contactId))) {
        byContact.set(contactId, [...(byContact.get(contactId) ?? []), view]);
      }
    }
  }
  return {
    local: true,
    base_url: baseUrl,
    portal_id: portal.portalId,
    lists: portal
      .lists()
      .map((list) => ({ id: list.id, name: list.id === DEMO_LIST.id ? DEMO_LIST.name : `List ${list.id}`, size: list.contactIds.length })),
    contacts: portal.contacts().map((contact) => {
      const p = contact.properties;
      return {
        id: contact.id,
        name: [p.firstname, p.lastname].filter(Boolean).join(' ') || p.email || `Contact ${contact.id}`,
        company: p.company ?? null,
        email: p.email ?? null,
        phone: p.phone ?? p.mobilephone ?? null,
        job_title: p.jobtitle ?? null,
        lead_status: p.hs_lead_status ?? null,
        updated_at: contact.updatedAt,
        engagements: (byContact.get(contact.id) ?? []).sort((a, b) => a.at.localeCompare(b.at) || Number(a.id) - Number(b.id)),
      };
    }),
  };
}
