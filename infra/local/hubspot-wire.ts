import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * A HubSpot portal in memory, answering the parts of HubSpot's CRM API the
 * HubSpot adapter (shared/providers/crm/hubspot.ts) uses, in HubSpot's wire
 * formats and with its error bodies (`{status: "error", message,
 * correlationId, category}`). The local CRM of `npm start`
 * (local-crm.ts) and the tests' loopback fake (test/fakes/hubspot.ts)
 * are both this one implementation:
 *
 * - `POST /oauth/v2/private-apps/get/access-token-info` `{tokenKey}` → `{userId, hubId, appId, scopes}`
 * - `GET /crm/v3/objects/contacts[?limit&after&properties…]`, `GET|PATCH /crm/v3/objects/contacts/{id}`,
 *   `POST /crm/v3/objects/contacts/batch/read`, `POST /crm/v3/objects/contacts/search` (filters EQ and IN)
 * - `GET /crm/v3/lists/{listId}/memberships[?limit&after]`
 * - `POST /crm/v4/associations/contacts/{notes|emails|calls}/batch/read`
 * - `POST /crm/v3/objects/{notes|emails|calls}` (with `associations`), `POST /crm/v3/objects/{notes|emails|calls}/batch/read`
 *
 * Every `/crm` request needs a known Bearer token (else 401) with the scope
 * of what it does (else 403 MISSING_SCOPES).
 */
export interface HubSpotPortal {
  /** The portal (hub) id its tokens belong to unless told otherwise. */
  readonly portalId: number;
  /** Adds a private app token (of `portalId` unless told), with the given scopes (default: every scope the integration uses). */
  addToken(token: string, options?: { portalId?: number; scopes?: string[] }): void;
  /** Revokes a token: it is refused from now on. */
  revokeToken(token: string): void;
  /** Adds a contact with these properties; returns its id. */
  addContact(properties: Record<string, string>, id?: string): string;
  /** A contact's properties as stored now (after PATCHes); undefined when none. */
  contact(id: string): Record<string, string> | undefined;
  /** Every contact, in id order (copies). */
  contacts(): HubSpotRecord[];
  /** Deletes a contact (reads then answer 404). */
  deleteContact(id: string): void;
  /** Sets a list's members (contact ids, in membership order). */
  setList(listId: string, contactIds: string[]): void;
  /** Every list, with its members (copies). */
  lists(): { id: string; contactIds: string[] }[];
  /** Adds an engagement (note, email, call) associated to a contact, as if a rep had logged it; returns its id. */
  addEngagement(kind: EngagementKind, contactId: string, properties: Record<string, string>, at?: string): string;
  /** Engagements of a kind, oldest first (created through the API or `addEngagement`), copies. */
  engagements(kind: EngagementKind): Engagement[];
  /** The answer to one request (its path below any prefix). */
  answer(request: HubSpotRequest): HubSpotAnswer;
}

/** HubSpot's engagement object types this portal holds. */
export type EngagementKind = 'notes' | 'emails' | 'calls';

export const ENGAGEMENT_KINDS: readonly EngagementKind[] = ['notes', 'emails', 'calls'];

/** A CRM object as stored: its properties and when it was made and last changed. */
export interface HubSpotRecord {
  id: string;
  properties: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

/** An engagement object the portal holds. */
export interface Engagement {
  id: string;
  properties: Record<string, string>;
  /** Contact ids it is associated to, with the association type ids used. */
  associations: { contactId: string; typeId: number }[];
  createdAt: string;
}

/** A request as the portal answers it. */
export interface HubSpotRequest {
  method: string;
  /** The path below the server's prefix (`/crm/v3/objects/contacts`). */
  path: string;
  /** The query, every value of a repeated key kept (`properties`). */
  params: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The JSON body, when there is one. */
  body?: unknown;
}

/** An answer: a status, a JSON body (or an HTML string), extra headers. */
export interface HubSpotAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Every scope the integration uses. */
export const ALL_HUBSPOT_SCOPES = ['crm.lists.read', 'crm.objects.contacts.read', 'crm.objects.contacts.write', 'sales-email-read'];

/** HubSpot's default options of `hs_lead_status`. */
export const LEAD_STATUSES = ['NEW', 'OPEN', 'IN_PROGRESS', 'OPEN_DEAL', 'UNQUALIFIED', 'ATTEMPTED_TO_CONTACT', 'CONNECTED', 'BAD_TIMING'];

/** HubSpot's association type ids from an engagement to a contact. */
export const ASSOCIATION_TYPE: Record<EngagementKind, number> = { notes: 202, emails: 198, calls: 194 };

/** Where HubSpot tells a private app token's account and scopes. */
const TOKEN_INFO = '/oauth/v2/private-apps/get/access-token-info';

/** HubSpot's error body. */
export function hubspotError(status: number, category: string, message: string): HubSpotAnswer {
  return { status, body: { status: 'error', message, correlationId: randomUUID(), category } };
}

const NOT_FOUND = (what: string) => hubspotError(404, 'OBJECT_NOT_FOUND', `resource not found: ${what}`);

/** An empty portal; ids of the objects it creates count up from `firstId`. */
export function hubspotPortal(options: { portalId: number; firstId?: number; now?: () => string }): HubSpotPortal {
  const { portalId } = options;
  const now = options.now ?? (() => new Date().toISOString());
  const tokens = new Map<string, { portalId: number; scopes: string[] }>();
  const contacts = new Map<string, HubSpotRecord>();
  const lists = new Map<string, string[]>();
  const engagements = new Map<EngagementKind, Map<string, Engagement>>(ENGAGEMENT_KINDS.map((kind) => [kind, new Map()]));
  let nextId = options.firstId ?? 1001;
  const newId = () => String(nextId++);

  const objectView = (stored: HubSpotRecord, wanted: string[]) => ({
    id: stored.id,
    properties: {
      ...Object.fromEntries(wanted.map((name) => [name, stored.properties[name] ?? null])),
      hs_object_id: stored.id,
      createdate: stored.createdAt,
      lastmodifieddate: stored.updatedAt,
    },
    createdAt: stored.createdAt,
    updatedAt: stored.updatedAt,
    archived: false,
  });
  const engagementObject = (engagement: Engagement): HubSpotRecord => ({
    id: engagement.id,
    properties: engagement.properties,
    createdAt: engagement.createdAt,
    updatedAt: engagement.createdAt,
  });
  const batchAnswer = (results: unknown[], missing: string[], what: string): HubSpotAnswer => ({
    status: missing.length > 0 ? 207 : 200,
    body: {
      status: 'COMPLETE',
      results,
      ...(missing.length > 0
        ? {
            numErrors: 1,
            errors: [
              {
                status: 'error',
                category: 'OBJECT_NOT_FOUND',
                message: `Could not get some ${what} objects, they may be deleted or not exist. Check that ids are valid.`,
                context: { ids: missing },
              },
            ],
          }
        : {}),
      startedAt: now(),
      completedAt: now(),
    },
  });

  /** The token's grant, or the refusal to send. */
  const authorize = (request: HubSpotRequest, scope: string): HubSpotAnswer | undefined => {
    const header = String(request.headers.authorization ?? '');
    const grant = header.startsWith('Bearer ') ? tokens.get(header.slice('Bearer '.length)) : undefined;
    if (!grant) {
      return hubspotError(
        401,
        'INVALID_AUTHENTICATION',
        'Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview',
      );
    }
    if (!grant.scopes.includes(scope)) {
      return hubspotError(
        403,
        'MISSING_SCOPES',
        `This app hasn't been granted all required scopes to make this call. Read more about required scopes here: https://developers.hubspot.com/scopes. requiredGranularScopes: [${scope}]`,
      );
    }
    return undefined;
  };

  const wantedProperties = (params: URLSearchParams, body?: unknown): string[] => {
    const fromBody = (body as { properties?: unknown } | undefined)?.properties;
    const names = Array.isArray(fromBody) ? fromBody.map(String) : params.getAll('properties').flatMap((value) => value.split(','));
    return names.filter((name) => name !== '');
  };
  const idsOf = (body: Record<string, unknown>) => ((body.inputs ?? []) as { id: string }[]).map((input) => String(input.id));

  function answer(request: HubSpotRequest): HubSpotAnswer {
    const { method, path, params } = request;
    const body = (request.body ?? {}) as Record<string, unknown>;

    if (method === 'POST' && path === TOKEN_INFO) {
      const grant = typeof body.tokenKey === 'string' ? tokens.get(body.tokenKey) : undefined;
      if (!grant) return hubspotError(401, 'INVALID_AUTHENTICATION', 'The access token is invalid, expired or has been revoked.');
      return { status: 200, body: { userId: 7_654_321, hubId: grant.portalId, appId: 3_141_592, scopes: grant.scopes } };
    }

    if (method === 'POST' && path === '/crm/v3/objects/contacts/batch/read') {
      const refused = authorize(request, 'crm.objects.contacts.read');
      if (refused) return refused;
      const ids = idsOf(body);
      if (ids.length > 100) return hubspotError(400, 'VALIDATION_ERROR', 'Batch input cannot exceed 100 inputs.');
      const wanted = wantedProperties(params, body);
      return batchAnswer(
        ids.filter((id) => contacts.has(id)).map((id) => objectView(contacts.get(id)!, wanted)),
        ids.filter((id) => !contacts.has(id)),
        'CONTACT',
      );
    }

    if (method === 'POST' && path === '/crm/v3/objects/contacts/search') {
      const refused = authorize(request, 'crm.objects.contacts.read');
      if (refused) return refused;
      const filters = (
        (body.filterGroups ?? []) as { filters?: { propertyName: string; operator: string; value?: string; values?: string[] }[] }[]
      ).flatMap((group) => group.filters ?? []);
      const matches = [...contacts.values()].filter((stored) =>
        filters.every((filter) => {
          const value = filter.propertyName === 'hs_object_id' ? stored.id : stored.properties[filter.propertyName];
          if (filter.operator === 'EQ') return value !== undefined && value.toLowerCase() === String(filter.value).toLowerCase();
          if (filter.operator === 'IN') return value !== undefined && (filter.values ?? []).includes(value);
          return false;
        }),
      );
      const limit = Math.min(Number(body.limit ?? 10), 200);
      const after = Number(body.after ?? 0);
      const page = matches.slice(after, after + limit);
      const wanted = wantedProperties(params, body);
      return {
        status: 200,
        body: {
          total: matches.length,
          results: page.map((stored) => objectView(stored, wanted)),
          ...(after + limit < matches.length ? { paging: { next: { after: String(after + limit) } } } : {}),
        },
      };
    }

    let match = /^\/crm\/v3\/objects\/contacts\/([^/]+)$/.exec(path);
    if (match && (method === 'GET' || method === 'PATCH')) {
      const refused = authorize(request, method === 'GET' ? 'crm.objects.contacts.read' : 'crm.objects.contacts.write');
      if (refused) return refused;
      const stored = contacts.get(decodeURIComponent(match[1]!));
      if (!stored) return NOT_FOUND(`contact ${match[1]}`);
      if (method === 'GET') return { status: 200, body: objectView(stored, wantedProperties(params)) };
      const properties = (body.properties ?? {}) as Record<string, unknown>;
      const status = properties.hs_lead_status;
      if (status !== undefined && !LEAD_STATUSES.includes(String(status))) {
        return hubspotError(
          400,
          'VALIDATION_ERROR',
          `Property values were not valid: [{"isValid":false,"message":"${String(status)} was not one of the allowed options","error":"INVALID_OPTION","name":"hs_lead_status"}]`,
        );
      }
      for (const [name, value] of Object.entries(properties)) stored.properties[name] = String(value);
      stored.updatedAt = now();
      return { status: 200, body: objectView(stored, Object.keys(properties)) };
    }

    if (method === 'GET' && path === '/crm/v3/objects/contacts') {
      const refused = authorize(request, 'crm.objects.contacts.read');
      if (refused) return refused;
      const limit = Math.min(Number(params.get('limit') ?? 10), 100);
      const after = params.get('after');
      const ordered = [...contacts.values()].sort((a, b) => Number(a.id) - Number(b.id));
      const start = after ? ordered.findIndex((stored) => Number(stored.id) >= Number(after)) : 0;
      const page = start < 0 ? [] : ordered.slice(start, start + limit);
      const following = start < 0 ? undefined : ordered[start + limit];
      const wanted = wantedProperties(params);
      return {
        status: 200,
        body: {
          results: page.map((stored) => objectView(stored, wanted)),
          ...(following ? { paging: { next: { after: following.id, link: `?after=${following.id}` } } } : {}),
        },
      };
    }

    match = /^\/crm\/v3\/lists\/([^/]+)\/memberships$/.exec(path);
    if (method === 'GET' && match) {
      const refused = authorize(request, 'crm.lists.read');
      if (refused) return refused;
      const members = lists.get(decodeURIComponent(match[1]!));
      if (!members) return hubspotError(404, 'OBJECT_NOT_FOUND', `List ${match[1]} does not exist.`);
      const limit = Math.min(Number(params.get('limit') ?? 100), 250);
      const offset = Number(params.get('after') ?? 0);
      const page = members.slice(offset, offset + limit);
      return {
        status: 200,
        body: {
          results: page.map((recordId) => ({ recordId, membershipTimestamp: now() })),
          total: members.length,
          ...(offset + limit < members.length ? { paging: { next: { after: String(offset + limit) } } } : {}),
        },
      };
    }

    match = /^\/crm\/v4\/associations\/contacts\/(notes|emails|calls)\/batch\/read$/.exec(path);
    if (method === 'POST' && match) {
      const kind = match[1] as EngagementKind;
      const refused = authorize(request, kind === 'emails' ? 'sales-email-read' : 'crm.objects.contacts.read');
      if (refused) return refused;
      const ids = idsOf(body);
      const all = [...engagements.get(kind)!.values()];
      const results = ids.flatMap((contactId) => {
        const to = all
          .filter((engagement) => engagement.associations.some((association) => association.contactId === contactId))
          .map((engagement) => ({
            toObjectId: Number(engagement.id),
            associationTypes: [{ category: 'HUBSPOT_DEFINED', typeId: ASSOCIATION_TYPE[kind], label: null }],
          }));
        return to.length > 0 ? [{ from: { id: contactId }, to }] : [];
      });
      const missing = ids.filter((id) => !results.some((result) => result.from.id === id));
      return {
        status: missing.length > 0 ? 207 : 200,
        body: {
          status: 'COMPLETE',
          results,
          ...(missing.length > 0
            ? {
                numErrors: missing.length,
                errors: missing.map((id) => ({
                  status: 'error',
                  category: 'OBJECT_NOT_FOUND',
                  subCategory: 'crm.associations.NO_ASSOCIATIONS_FOUND',
                  message: `No ${kind} is associated with contact ${id}.`,
                  context: { fromObjectId: [id] },
                })),
              }
            : {}),
          startedAt: now(),
          completedAt: now(),
        },
      };
    }

    match = /^\/crm\/v3\/objects\/(notes|emails|calls)\/batch\/read$/.exec(path);
    if (method === 'POST' && match) {
      const kind = match[1] as EngagementKind;
      const refused = authorize(request, kind === 'emails' ? 'sales-email-read' : 'crm.objects.contacts.read');
      if (refused) return refused;
      const ids = idsOf(body);
      const stored = engagements.get(kind)!;
      const wanted = wantedProperties(params, body);
      return batchAnswer(
        ids.filter((id) => stored.has(id)).map((id) => objectView(engagementObject(stored.get(id)!), wanted)),
        ids.filter((id) => !stored.has(id)),
        kind.toUpperCase(),
      );
    }

    match = /^\/crm\/v3\/objects\/(notes|emails|calls)$/.exec(path);
    if (method === 'POST' && match) {
      const kind = match[1] as EngagementKind;
      const refused = authorize(request, 'crm.objects.contacts.write');
      if (refused) return refused;
      const properties = Object.fromEntries(
        Object.entries((body.properties ?? {}) as Record<string, unknown>).map(([name, value]) => [name, String(value)]),
      );
      if (!properties.hs_timestamp)
        return hubspotError(400, 'VALIDATION_ERROR', 'Property values were not valid: hs_timestamp is required');
      const associations: Engagement['associations'] = [];
      for (const association of (body.associations ?? []) as { to: { id: string }; types: { associationTypeId: number }[] }[]) {
        const contactId = String(association.to.id);
        if (!contacts.has(contactId))
          return hubspotError(400, 'VALIDATION_ERROR', `One or more associations are invalid: contact ${contactId}`);
        for (const type of association.types) associations.push({ contactId, typeId: type.associationTypeId });
      }
      const engagement: Engagement = { id: newId(), properties, associations, createdAt: now() };
      engagements.get(kind)!.set(engagement.id, engagement);
      return { status: 201, body: objectView(engagementObject(engagement), Object.keys(properties)) };
    }

    return hubspotError(404, 'OBJECT_NOT_FOUND', `No route ${method} ${path}`);
  }

  return {
    portalId,
    addToken(value, grant = {}) {
      tokens.set(value, { portalId: grant.portalId ?? portalId, scopes: grant.scopes ?? [...ALL_HUBSPOT_SCOPES] });
    },
    revokeToken(value) {
      tokens.delete(value);
    },
    addContact(properties, id = newId()) {
      const at = now();
      contacts.set(id, { id, properties: { ...properties }, createdAt: at, updatedAt: at });
      return id;
    },
    contact(id) {
      const stored = contacts.get(id);
      return stored ? { ...stored.properties } : undefined;
    },
    contacts() {
      return [...contacts.values()]
        .sort((a, b) => Number(a.id) - Number(b.id) || a.id.localeCompare(b.id))
        .map((stored) => ({ ...stored, properties: { ...stored.properties } }));
    },
    deleteContact(id) {
      contacts.delete(id);
    },
    setList(listId, contactIds) {
      lists.set(listId, [...contactIds]);
    },
    lists() {
      return [...lists].map(([id, contactIds]) => ({ id, contactIds: [...contactIds] }));
    },
    addEngagement(kind, contactId, properties, at = now()) {
      const engagement: Engagement = {
        id: newId(),
        properties: { ...properties },
        associations: [{ contactId, typeId: ASSOCIATION_TYPE[kind] }],
        createdAt: at,
      };
      engagements.get(kind)!.set(engagement.id, engagement);
      return engagement.id;
    },
    engagements(kind) {
      return [...engagements.get(kind)!.values()].map((engagement) => ({
        ...engagement,
        properties: { ...engagement.properties },
        associations: engagement.associations.map((association) => ({ ...association })),
      }));
    },
    answer,
  };
}
