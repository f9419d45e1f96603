import type { AssociationSpecAssociationCategoryEnum } from '@hubspot/api-client/lib/codegen/crm/objects/index.js';
import { joinBaseUrl } from '../../platform/base-url';
import { CrmCredentialsError, CrmRejectedError } from './errors';
import { hubspotApis } from './hubspot-apis';
import { hubspotCall, type HubSpotCallContext } from './hubspot-call';
import { activityOf, contactOf, HUBSPOT_ACTIVITY_PROPERTIES, HUBSPOT_CONTACT_PROPERTIES, type HubSpotObject } from './hubspot-records';
import { resolveCrmPolicy, type CrmPolicy } from './policy';
import {
  MAX_PAGE_SIZE,
  MAX_RECENT_ACTIVITIES,
  type ContactReadOptions,
  type CrmAccount,
  type CrmActivity,
  type CrmClient,
  type CrmContact,
  type CrmCredentials,
  type CrmProvider,
  type EngagementInput,
} from './port';
import { rateWindow, realSleep, type Sleep } from './rate-window';

/** HubSpot's API root, when HUBSPOT_API_BASE_URL is not set. */
export const HUBSPOT_DEFAULT_BASE_URL = 'https://api.hubapi.com';

/**
 * The scopes of a private app this integration uses, and no other.
 * Required: reading contacts (the import, the webhook's updates) and
 * writing them (lead status; notes, e-mails and calls are associated to
 * contacts, under the contacts' write scope). Optional: `crm.lists.read`
 * for an import by list, `sales-email-read` to import the bodies of
 * logged e-mails (without it, e-mails are left out of the history).
 */
export const HUBSPOT_SCOPES = Object.freeze({
  required: Object.freeze(['crm.objects.contacts.read', 'crm.objects.contacts.write'] as const),
  optional: Object.freeze(['crm.lists.read', 'sales-email-read'] as const),
});

/** Where HubSpot tells a private app token's account and scopes (no generated API covers it: sent with the library's request helper). */
export const TOKEN_INFO_PATH = '/oauth/v2/private-apps/get/access-token-info';

/** How the adapter is built: where HubSpot is, and the policy (policy.ts) with any overrides. */
export interface HubSpotOptions {
  /** HUBSPOT_API_BASE_URL; its path is kept (joined, not replaced). @default HUBSPOT_DEFAULT_BASE_URL */
  baseUrl?: string;
  policy?: Partial<CrmPolicy>;
  /** @default real timers */
  sleep?: Sleep;
}

const HUBSPOT_DEFINED = 'HUBSPOT_DEFINED' as AssociationSpecAssociationCategoryEnum;

/** What each engagement kind is in HubSpot: its object type, and its association type to a contact (HubSpot-defined ids). */
const ENGAGEMENTS = {
  note: { objects: 'notes', association: 202 },
  email: { objects: 'emails', association: 198 },
  call: { objects: 'calls', association: 194 },
} as const;

/** The property holding each engagement kind's body. */
const ENGAGEMENT_BODY = { note: 'hs_note_body', email: 'hs_email_text', call: 'hs_call_body' } as const;

/**
 * The HubSpot adapter of the CRM port, on the official `@hubspot/api-client`
 * (the generated APIs it needs: hubspot-apis.ts) pointed at `baseUrl`. The
 * library's own retry and limiter are left off (they ignore `Retry-After`,
 * and it keeps them in one process-wide service, shared by every client):
 * each client keeps to the policy's rate window itself, and retries in one
 * place (hubspot-call.ts).
 */
export function hubspotCrm(options: HubSpotOptions = {}): CrmProvider {
  const basePath = joinBaseUrl(options.baseUrl ?? HUBSPOT_DEFAULT_BASE_URL, '')
    .toString()
    .replace(/\/+$/, '');
  const policy = resolveCrmPolicy(options.policy);
  const sleep = options.sleep ?? realSleep;
  return {
    name: 'hubspot',
    connect: (credentials) => hubspotClient(basePath, credentials, policy, sleep),
  };
}

function hubspotClient(basePath: string, credentials: CrmCredentials, policy: CrmPolicy, sleep: Sleep): CrmClient {
  const api = hubspotApis({ accessToken: credentials.accessToken, basePath });
  const context: HubSpotCallContext = {
    policy,
    sleep,
    limiter: rateWindow(policy.requestsPerWindow, policy.windowMs, Date.now, sleep),
    secrets: [credentials.accessToken],
  };
  const call = <T>(safe: boolean, run: () => Promise<T>) => hubspotCall(context, safe, run);
  const properties = [...HUBSPOT_CONTACT_PROPERTIES];

  /** The latest notes and e-mails of each contact, newest first, at most MAX_RECENT_ACTIVITIES each. */
  const activitiesOf = async (contactIds: readonly string[]): Promise<Map<string, CrmActivity[]>> => {
    const byContact = new Map<string, CrmActivity[]>(contactIds.map((id) => [id, []]));
    for (const kind of ['note', 'email'] as const) {
      let found: Map<string, string[]>;
      let records: HubSpotObject[];
      try {
        found = await associated(contactIds, ENGAGEMENTS[kind].objects);
        const wanted = [...new Set([...found.values()].flat())];
        records = await readObjects(ENGAGEMENTS[kind].objects, wanted, HUBSPOT_ACTIVITY_PROPERTIES[kind]);
      } catch (error) {
        // Without `sales-email-read`, HubSpot refuses e-mail bodies: the history then holds notes only.
        if (kind === 'email' && error instanceof CrmCredentialsError && error.status === 403) continue;
        throw error;
      }
      const activities = new Map(records.map((record) => [record.id, activityOf(kind, record)]));
      for (const [contactId, ids] of found) {
        for (const id of ids) {
          const activity = activities.get(id);
          if (activity) byContact.get(contactId)?.push(activity);
        }
      }
    }
    for (const [contactId, list] of byContact) {
      byContact.set(contactId, list.sort((a, b) => b.at.localeCompare(a.at) || b.id.localeCompare(a.id)).slice(0, MAX_RECENT_ACTIVITIES));
    }
    return byContact;
  };

  /** The ids of the objects of a type associated to each contact: the highest (newest) MAX_RECENT_ACTIVITIES each. */
  const associated = async (contactIds: readonly string[], toType: string): Promise<Map<string, string[]>> => {
    const answer = await call(true, () => api.associations.getPage('contacts', toType, { inputs: contactIds.map((id) => ({ id })) }));
    const found = new Map<string, string[]>();
    for (const result of answer.results) {
      const ids = result.to.map((to) => String(to.toObjectId));
      found.set(String(result._from.id), newestIds(ids).slice(0, MAX_RECENT_ACTIVITIES));
    }
    return found;
  };

  /** Objects of a type by id, read in batches of MAX_PAGE_SIZE. */
  const readObjects = async (type: string, ids: readonly string[], props: readonly string[]): Promise<HubSpotObject[]> => {
    const read: HubSpotObject[] = [];
    if (ids.length === 0) return read;
    for (let start = 0; start < ids.length; start += MAX_PAGE_SIZE) {
      const inputs = ids.slice(start, start + MAX_PAGE_SIZE).map((id) => ({ id }));
      const body = { inputs, properties: [...props], propertiesWithHistory: [] };
      const answer = await call(true, () => api.objects.batch.read(type, body));
      read.push(...answer.results);
    }
    return read;
  };

  const withActivities = async (records: HubSpotObject[], options: ContactReadOptions | undefined): Promise<CrmContact[]> => {
    const activities = options?.withActivities && records.length > 0 ? await activitiesOf(records.map((record) => record.id)) : undefined;
    return records.map((record) => contactOf(record, activities?.get(record.id) ?? []));
  };

  const pageLimit = (limit: number | undefined) => Math.min(Math.max(1, Math.floor(limit ?? MAX_PAGE_SIZE)), MAX_PAGE_SIZE);

  return {
    provider: 'hubspot',

    async verify(): Promise<CrmAccount> {
      const info = await call(true, async () => {
        const response = await api.request({ method: 'POST', path: TOKEN_INFO_PATH, body: { tokenKey: credentials.accessToken } });
        const text = await response.text();
        const body = parseJson(text);
        const headers = Object.fromEntries(response.headers.entries());
        // A token HubSpot does not know is refused on this path with a 4xx of its own (not always 401).
        if (response.status >= 400 && response.status < 500 && response.status !== 429)
          throw { code: 401, body, headers, refusedToken: true };
        if (response.status >= 300) throw { code: response.status, body, headers };
        return body;
      });
      const hubId = (info as { hubId?: unknown } | undefined)?.hubId;
      const scopes = (info as { scopes?: unknown } | undefined)?.scopes;
      if ((typeof hubId !== 'number' && typeof hubId !== 'string') || !Array.isArray(scopes)) {
        throw new CrmCredentialsError('HubSpot did not describe this token as a private app token.', 400);
      }
      const granted = scopes.filter((scope): scope is string => typeof scope === 'string').sort();
      const missing = HUBSPOT_SCOPES.required.filter((scope) => !granted.includes(scope));
      if (missing.length > 0) {
        throw new CrmCredentialsError(
          `The private app lacks the scopes ${missing.join(', ')}; add them in HubSpot, then connect again.`,
          403,
        );
      }
      return { accountId: String(hubId), scopes: granted };
    },

    async getContact(id, options) {
      try {
        const record = await call(true, () => api.objects.basic.getById('contacts', id, properties));
        return (await withActivities([record], options))[0];
      } catch (error) {
        if (error instanceof CrmRejectedError && error.status === 404) return undefined;
        throw error;
      }
    },

    async readContacts(ids, options) {
      const wanted = [...new Set(ids)];
      if (wanted.length > MAX_PAGE_SIZE) throw new RangeError(`At most ${MAX_PAGE_SIZE} contacts per read (got ${wanted.length})`);
      if (wanted.length === 0) return [];
      let records: HubSpotObject[];
      try {
        records = await readObjects('contacts', wanted, properties);
      } catch (error) {
        // A batch none of whose ids exist is answered 404.
        if (error instanceof CrmRejectedError && error.status === 404) return [];
        throw error;
      }
      const byId = new Map(records.map((record) => [record.id, record]));
      const ordered = wanted.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
      return withActivities(ordered, options);
    },

    async listContacts(page, options) {
      const answer = await call(true, () => api.objects.basic.getPage('contacts', pageLimit(page?.limit), page?.after, properties));
      const next = answer.paging?.next?.after;
      return { items: await withActivities(answer.results, options), ...(next ? { next } : {}) };
    },

    async listMembers(listId, page) {
      const memberships = await api.listMemberships();
      const answer = await call(true, () => memberships.getPage(listId, page?.after, undefined, pageLimit(page?.limit)));
      const next = answer.paging?.next?.after;
      return { items: answer.results.map((member) => String(member.recordId)), ...(next ? { next } : {}) };
    },

    async createEngagement(input: EngagementInput) {
      const { objects, association } = ENGAGEMENTS[input.kind];
      const body = {
        properties: engagementProperties(input),
        associations: [{ to: { id: input.contactId }, types: [{ associationCategory: HUBSPOT_DEFINED, associationTypeId: association }] }],
      };
      // Never retried after a transient failure: HubSpot may have recorded it, and a second create would double it.
      const created = await call(false, () => api.objects.basic.create(objects, body));
      return { id: String(created.id), kind: input.kind };
    },

    async findEngagement(contactId, kind, marker) {
      const { objects } = ENGAGEMENTS[kind];
      const answer = await call(true, () => api.associations.getPage('contacts', objects, { inputs: [{ id: contactId }] }));
      const ids = newestIds(answer.results.flatMap((result) => result.to.map((to) => String(to.toObjectId)))).slice(0, MAX_PAGE_SIZE);
      if (ids.length === 0) return undefined;
      const records = await readObjects(objects, ids, [ENGAGEMENT_BODY[kind]]);
      // The body as stored: a note's or a call's is HTML, whose escaping leaves the marker (letters, digits, '-') as it was.
      return records.find((record) => (record.properties[ENGAGEMENT_BODY[kind]] ?? '').includes(marker))?.id;
    },

    async setLeadStatus(contactId, status) {
      await call(true, () => api.objects.basic.update('contacts', contactId, { properties: { hs_lead_status: status } }));
    },
  };
}

/** The properties of an engagement as a rep would have logged it. */
function engagementProperties(input: EngagementInput): Record<string, string> {
  const at = new Date(input.at).toISOString();
  if (input.kind === 'note') return { hs_timestamp: at, hs_note_body: htmlOf(input.body) };
  if (input.kind === 'email') {
    return {
      hs_timestamp: at,
      hs_email_direction: 'EMAIL',
      hs_email_status: 'SENT',
      ...(input.subject ? { hs_email_subject: input.subject } : {}),
      hs_email_text: input.body,
    };
  }
  return {
    hs_timestamp: at,
    hs_call_direction: 'OUTBOUND',
    hs_call_status: 'COMPLETED',
    ...(input.subject ? { hs_call_title: input.subject } : {}),
    hs_call_body: htmlOf(input.body),
    ...(input.durationSeconds === undefined ? {} : { hs_call_duration: String(Math.round(input.durationSeconds * 1000)) }),
  };
}

/** Plain text as HubSpot's rich-text fields show it: escaped, line breaks kept. */
function htmlOf(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r?\n/g, '<br>');
}

/** Ids newest first: HubSpot's ids grow with time, so the highest are the latest. */
function newestIds(ids: readonly string[]): string[] {
  return [...new Set(ids)].sort((a, b) => (a.length === b.length ? b.localeCompare(a) : b.length - a.length));
}

function parseJson(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return text;
  }
}
