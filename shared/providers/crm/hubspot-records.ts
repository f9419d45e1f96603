import { cleanText, cutText } from '../../platform/text';
import { MAX_ACTIVITY_TEXT, type CrmActivity, type CrmContact } from './port';

/** A HubSpot CRM object as the client library reads it. */
export interface HubSpotObject {
  id: string;
  properties: { [name: string]: string | null };
  updatedAt?: Date;
  createdAt?: Date;
}

/** The contact properties read: exactly what the import maps. */
export const HUBSPOT_CONTACT_PROPERTIES = [
  'firstname',
  'lastname',
  'email',
  'phone',
  'mobilephone',
  'company',
  'jobtitle',
  'hs_lead_status',
  'lastmodifieddate',
] as const;

/** The properties read of each kind of activity. */
export const HUBSPOT_ACTIVITY_PROPERTIES = {
  note: ['hs_timestamp', 'hs_note_body'],
  email: ['hs_timestamp', 'hs_email_subject', 'hs_email_text', 'hs_email_direction'],
} as const;

/** A property's value, trimmed and cleaned; undefined when empty. */
function text(record: HubSpotObject, name: string): string | undefined {
  const value = record.properties[name];
  if (typeof value !== 'string') return undefined;
  const cleaned = cleanText(value).trim();
  return cleaned === '' ? undefined : cleaned;
}

function instantOf(value: string | undefined, fallback: Date | undefined): string | undefined {
  const parsed = value === undefined ? Number.NaN : Date.parse(value);
  if (!Number.isNaN(parsed)) return new Date(parsed).toISOString();
  return fallback && !Number.isNaN(fallback.getTime()) ? fallback.toISOString() : undefined;
}

/** A HubSpot contact as the port's contact; a blank property is absent. */
export function contactOf(record: HubSpotObject, recentActivities: CrmActivity[]): CrmContact {
  const fields: Omit<CrmContact, 'id' | 'recentActivities'> = {
    firstName: text(record, 'firstname'),
    lastName: text(record, 'lastname'),
    company: text(record, 'company'),
    email: text(record, 'email'),
    phone: text(record, 'phone') ?? text(record, 'mobilephone'),
    jobTitle: text(record, 'jobtitle'),
    leadStatus: text(record, 'hs_lead_status'),
    updatedAt: instantOf(text(record, 'lastmodifieddate'), record.updatedAt),
  };
  const present = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  return { id: String(record.id), ...present, recentActivities };
}

/** A HubSpot note or e-mail as the port's activity: its text plain (HubSpot keeps notes as HTML), cut to MAX_ACTIVITY_TEXT. */
export function activityOf(kind: 'note' | 'email', record: HubSpotObject): CrmActivity {
  const at = instantOf(text(record, 'hs_timestamp'), record.createdAt) ?? new Date(0).toISOString();
  const body = kind === 'note' ? plainOf(text(record, 'hs_note_body') ?? '') : (text(record, 'hs_email_text') ?? '');
  const subject = kind === 'email' ? text(record, 'hs_email_subject') : undefined;
  const direction = text(record, 'hs_email_direction');
  return {
    id: String(record.id),
    kind,
    at,
    summary: cutText(body || subject || '', MAX_ACTIVITY_TEXT),
    ...(subject ? { subject } : {}),
    ...(kind === 'email' && direction ? { direction: direction === 'INCOMING_EMAIL' ? ('inbound' as const) : ('outbound' as const) } : {}),
  };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };

/** HTML as plain text: block ends and `<br>` become line breaks, tags go, the common entities are decoded. */
export function plainOf(html: string): string {
  return html
    .replace(/<\s*br\s*\/?>/gi, '\n')
    .replace(/<\/\s*(p|div|li|h[1-6])\s*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_, name: string) => ENTITIES[name] ?? '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
