import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { FAKE_PREFIX, type FakeAnswer, type RecordedRequest, type ScriptedFailure } from './loopback';

/**
 * Loopback stand-in for HubSpot's CRM API, for tests of the real
 * `@hubspot/api-client` (point HUBSPOT_API_BASE_URL at `baseUrl`, which
 * carries a path prefix). It speaks the wire formats the adapter uses, with
 * HubSpot's error bodies (`{status: "error", message, correlationId, category}`):
 *
 * - `POST /oauth/v2/private-apps/get/access-token-info` `{tokenKey}` → `{userId, hubId, appId, scopes}`
 * - `GET /crm/v3/objects/contacts[?limit&after&properties…]`, `GET|PATCH /crm/v3/objects/contacts/{id}`,
 *   `POST /crm/v3/objects/contacts/batch/read`, `POST /crm/v3/objects/contacts/search` (filters EQ and IN)
 * - `GET /crm/v3/lists/{listId}/memberships[?limit&after]`
 * - `POST /crm/v4/associations/contacts/{notes|emails|calls}/batch/read`
 * - `POST /crm/v3/objects/{notes|emails|calls}` (with `associations`), `POST /crm/v3/objects/{notes|emails|calls}/batch/read`
 *
 * Every `/crm` request needs a known Bearer token (else 401) with the scope
 * of what it does (else 403 MISSING_SCOPES). Failures can be scripted
 * (429 with `Retry-After`, 5xx, slow or dropped answers), and every request
 * is recorded.
 */
export interface HubSpotFake {
  /** Root to pass as HUBSPOT_API_BASE_URL (it carries a path prefix). */
  readonly baseUrl: string;
  /** The portal (hub) id of the default token. */
  readonly portalId: number;
  /** A private app token with every scope the integration uses, of `portalId`. */
  readonly token: string;
  /** Every request received, in order (failed ones included). */
  readonly requests: RecordedRequest[];
  /** Adds a private app token (of `portalId` unless told), with the given scopes (default: all the integration uses). */
  addToken(token: string, options?: { portalId?: number; scopes?: string[] }): void;
  /** Revokes a token: HubSpot refuses it from now on. */
  revokeToken(token: string): void;
  /** Adds a contact with these properties; returns its id. */
  addContact(properties: Record<string, string>, id?: string): string;
  /** A contact's properties as stored now (after PATCHes); undefined when none. */
  contact(id: string): Record<string, string> | undefined;
  /** Deletes a contact (reads then answer 404). */
  deleteContact(id: string): void;
  /** Sets a list's members (contact ids, in membership order). */
  setList(listId: string, contactIds: string[]): void;
  /** Adds an engagement (note, email, call) associated to a contact, as if a rep had logged it; returns its id. */
  addEngagement(kind: FakeEngagementKind, contactId: string, properties: Record<string, string>): string;
  /** Engagements of a kind, oldest first (created through the API or `addEngagement`). */
  engagements(kind: FakeEngagementKind): FakeEngagement[];
  /**
   * The next `times` requests (matching `path`, a substring of the path after the prefix, when given) fail this way; Infinity: until
   * `heal`. Presets: `rate_limited` (429, `Retry-After: 1`, TEN_SECONDLY_ROLLING), `server_error` (500), `bad_gateway` (502).
   */
  failNext(times: number, how: HubSpotFailure, path?: string): void;
  /** Forgets every scripted failure. */
  heal(): void;
  close(): Promise<void>;
}

export type FakeEngagementKind = 'notes' | 'emails' | 'calls';

/** An engagement object the fake holds. */
export interface FakeEngagement {
  id: string;
  properties: Record<string, string>;
  /** Contact ids it is associated to, with the association type ids used. */
  associations: { contactId: string; typeId: number }[];
  createdAt: string;
}

export type HubSpotFailure =
  'rate_limited' | 'server_error' | 'bad_gateway' | { rateLimited: { retryAfterSeconds?: number } } | ScriptedFailure;

/** Every scope the integration uses. */
export const ALL_FAKE_SCOPES = ['crm.lists.read', 'crm.objects.contacts.read', 'crm.objects.contacts.write', 'sales-email-read'];

const ENGAGEMENT_KINDS: readonly FakeEngagementKind[] = ['notes', 'emails', 'calls'];

interface StoredObject {
  id: string;
  properties: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

function hubspotError(status: number, category: string, message: string): FakeAnswer {
  return { status, body: { status: 'error', message, correlationId: randomUUID(), category } };
}

const NOT_FOUND = (what: string) => hubspotError(404, 'OBJECT_NOT_FOUND', `resource not found: ${what}`);

/** Starts the fake on 127.0.0.1 at a free port. */
export async function startHubSpotFake(options: { portalId?: number } = {}): Promise<HubSpotFake> {
  const portalId = options.portalId ?? 24_681_357;
  const token = `pat-na1-${randomUUID()}`;
  const tokens = new Map<string, { portalId: number; scopes: string[] }>([[token, { portalId, scopes: [...ALL_FAKE_SCOPES] }]]);
  const contacts = new Map<string, StoredObject>();
  const lists = new Map<string, string[]>();
  const engagements = new Map<FakeEngagementKind, Map<string, FakeEngagement>>(ENGAGEMENT_KINDS.map((kind) => [kind, new Map()]));
  const requests: RecordedRequest[] = [];
  const script: { times: number; how: HubSpotFailure; path?: string }[] = [];
  const sockets = new Set<Socket>();
  let nextId = 1001;
  const newId = () => String(nextId++);
  const now = () => new Date().toISOString();

  const objectView = (stored: StoredObject, wanted: string[]) => ({
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
  const engagementObject = (engagement: FakeEngagement): StoredObject => ({
    id: engagement.id,
    properties: engagement.properties,
    createdAt: engagement.createdAt,
    updatedAt: engagement.createdAt,
  });
  const batchAnswer = (results: unknown[], missing: string[], what: string): FakeAnswer => ({
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

  const nextFailure = (request: RecordedRequest): HubSpotFailure | undefined => {
    const index = script.findIndex((entry) => entry.path === undefined || request.path.includes(entry.path));
    if (index < 0) return undefined;
    const entry = script[index]!;
    entry.times -= 1;
    if (entry.times <= 0) script.splice(index, 1);
    return entry.how;
  };

  /** The token's grant, or the refusal to send. */
  const authorize = (request: RecordedRequest, scope: string): FakeAnswer | undefined => {
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

  function route(request: RecordedRequest, params: URLSearchParams): FakeAnswer {
    const path = request.path.slice(FAKE_PREFIX.length);
    const body = (request.body ?? {}) as Record<string, unknown>;
    const { method } = request;

    if (method === 'POST' && path === '/oauth/v2/private-apps/get/access-token-info') {
      const grant = typeof body.tokenKey === 'string' ? tokens.get(body.tokenKey) : undefined;
      if (!grant) return hubspotError(401, 'INVALID_AUTHENTICATION', 'The access token is invalid, expired or has been revoked.');
      return { status: 200, body: { userId: 7_654_321, hubId: grant.portalId, appId: 3_141_592, scopes: grant.scopes } };
    }

    let match = /^\/crm\/v3\/objects\/contacts\/batch\/read$/.exec(path);
    if (method === 'POST' && match) {
      const refused = authorize(request, 'crm.objects.contacts.read');
      if (refused) return refused;
      const ids = ((body.inputs ?? []) as { id: string }[]).map((input) => String(input.id));
      if (ids.length > 100) return hubspotError(400, 'VALIDATION_ERROR', 'Batch input cannot exceed 100 inputs.');
      const found = ids.filter((id) => contacts.has(id));
      const wanted = wantedProperties(params, body);
      return batchAnswer(
        found.map((id) => objectView(contacts.get(id)!, wanted)),
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

    match = /^\/crm\/v3\/objects\/contacts\/([^/]+)$/.exec(path);
    if (match && (method === 'GET' || method === 'PATCH')) {
      const refused = authorize(request, method === 'GET' ? 'crm.objects.contacts.read' : 'crm.objects.contacts.write');
      if (refused) return refused;
      const stored = contacts.get(decodeURIComponent(match[1]!));
      if (!stored) return NOT_FOUND(`contact ${match[1]}`);
      if (method === 'PATCH') {
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
      return { status: 200, body: objectView(stored, wantedProperties(params)) };
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
      const kind = match[1] as FakeEngagementKind;
      const refused = authorize(request, kind === 'emails' ? 'sales-email-read' : 'crm.objects.contacts.read');
      if (refused) return refused;
      const ids = ((body.inputs ?? []) as { id: string }[]).map((input) => String(input.id));
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
      const kind = match[1] as FakeEngagementKind;
      const refused = authorize(request, kind === 'emails' ? 'sales-email-read' : 'crm.objects.contacts.read');
      if (refused) return refused;
      const ids = ((body.inputs ?? []) as { id: string }[]).map((input) => String(input.id));
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
      const kind = match[1] as FakeEngagementKind;
      const refused = authorize(request, 'crm.objects.contacts.write');
      if (refused) return refused;
      const properties = Object.fromEntries(
        Object.entries((body.properties ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
      );
      if (!properties.hs_timestamp)
        return hubspotError(400, 'VALIDATION_ERROR', 'Property values were not valid: hs_timestamp is required');
      const associations: FakeEngagement['associations'] = [];
      for (const association of (body.associations ?? []) as { to: { id: string }; types: { associationTypeId: number }[] }[]) {
        const contactId = String(association.to.id);
        if (!contacts.has(contactId))
          return hubspotError(400, 'VALIDATION_ERROR', `One or more associations are invalid: contact ${contactId}`);
        for (const type of association.types) associations.push({ contactId, typeId: type.associationTypeId });
      }
      const engagement: FakeEngagement = { id: newId(), properties, associations, createdAt: now() };
      engagements.get(kind)!.set(engagement.id, engagement);
      return { status: 201, body: objectView(engagementObject(engagement), Object.keys(properties)) };
    }

    return hubspotError(404, 'OBJECT_NOT_FOUND', `No route ${method} ${path}`);
  }

  function respond(res: ServerResponse, request: RecordedRequest, params: URLSearchParams, failure: HubSpotFailure | undefined): void {
    if (failure === undefined || (typeof failure === 'object' && 'normal' in failure)) return send(res, route(request, params));
    if (failure === 'rate_limited' || (typeof failure === 'object' && 'rateLimited' in failure)) {
      const seconds = typeof failure === 'object' ? failure.rateLimited.retryAfterSeconds : 1;
      return send(res, {
        status: 429,
        headers: seconds === undefined ? {} : { 'retry-after': String(seconds) },
        body: {
          status: 'error',
          message: 'You have reached your ten_secondly_rolling limit.',
          errorType: 'RATE_LIMIT',
          correlationId: randomUUID(),
          policyName: 'TEN_SECONDLY_ROLLING',
          groupName: 'publicapi:private-app:24681357',
        },
      });
    }
    if (failure === 'server_error') return send(res, hubspotError(500, 'INTERNAL_ERROR', 'internal error'));
    if (failure === 'bad_gateway') return send(res, { status: 502, body: '<html><body>502 Bad Gateway</body></html>' });
    if ('slowMs' in failure) {
      const timer = setTimeout(() => respond(res, request, params, undefined), failure.slowMs);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    if ('malformed' in failure) return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"results": [{"id": "cut');
    if ('disconnect' in failure) return void res.socket?.destroy();
    return send(res, failure);
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      const request: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        ...(body === undefined ? {} : { body }),
        at: Date.now(),
      };
      requests.push(request);
      if (!url.pathname.startsWith(`${FAKE_PREFIX}/`)) return send(res, hubspotError(404, 'OBJECT_NOT_FOUND', `No route ${url.pathname}`));
      respond(res, request, url.searchParams, nextFailure(request));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}${FAKE_PREFIX}`,
    portalId,
    token,
    requests,
    addToken(value, grant = {}) {
      tokens.set(value, { portalId: grant.portalId ?? portalId, scopes: grant.scopes ?? [...ALL_FAKE_SCOPES] });
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
    deleteContact(id) {
      contacts.delete(id);
    },
    setList(listId, contactIds) {
      lists.set(listId, [...contactIds]);
    },
    addEngagement(kind, contactId, properties) {
      const engagement: FakeEngagement = {
        id: newId(),
        properties: { ...properties },
        associations: [{ contactId, typeId: ASSOCIATION_TYPE[kind] }],
        createdAt: now(),
      };
      engagements.get(kind)!.set(engagement.id, engagement);
      return engagement.id;
    },
    engagements(kind) {
      return [...engagements.get(kind)!.values()];
    },
    failNext(times, how, path) {
      script.push({ times, how, ...(path === undefined ? {} : { path }) });
    },
    heal() {
      script.length = 0;
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}

/** HubSpot's association type ids from an engagement to a contact. */
const ASSOCIATION_TYPE: Record<FakeEngagementKind, number> = { notes: 202, emails: 198, calls: 194 };

/** HubSpot's default options of `hs_lead_status`. */
export const LEAD_STATUSES = ['NEW', 'OPEN', 'IN_PROGRESS', 'OPEN_DEAL', 'UNQUALIFIED', 'ATTEMPTED_TO_CONTACT', 'CONNECTED', 'BAD_TIMING'];

function send(res: ServerResponse, answer: FakeAnswer): void {
  const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
  const type = typeof answer.body === 'string' ? 'text/html' : 'application/json;charset=utf-8';
  res.writeHead(answer.status, { 'content-type': type, ...answer.headers }).end(text);
}
