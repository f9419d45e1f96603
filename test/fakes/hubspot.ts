import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { startHubSpotServer, sendHubSpot } from '../../infra/local/hubspot-server';
import {
  ALL_HUBSPOT_SCOPES,
  hubspotError,
  hubspotPortal,
  LEAD_STATUSES,
  type Engagement,
  type EngagementKind,
} from '../../infra/local/hubspot-wire';
import { FAKE_PREFIX, type RecordedRequest, type ScriptedFailure } from './loopback';

/**
 * Loopback stand-in for HubSpot's CRM API, for tests of the real
 * `@hubspot/api-client` (point HUBSPOT_API_BASE_URL at `baseUrl`, which
 * carries a path prefix). It is the local CRM's portal
 * (infra/local/hubspot-wire.ts, which lists the wire it speaks) with what
 * tests need on top: failures can be scripted (429 with `Retry-After`,
 * 5xx, slow or dropped answers), and every request is recorded.
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

export type FakeEngagementKind = EngagementKind;

/** An engagement object the fake holds. */
export type FakeEngagement = Engagement;

export type HubSpotFailure =
  'rate_limited' | 'server_error' | 'bad_gateway' | { rateLimited: { retryAfterSeconds?: number } } | ScriptedFailure;

/** Every scope the integration uses. */
export const ALL_FAKE_SCOPES = ALL_HUBSPOT_SCOPES;

export { LEAD_STATUSES };

/** Starts the fake on 127.0.0.1 at a free port. */
export async function startHubSpotFake(options: { portalId?: number } = {}): Promise<HubSpotFake> {
  const portal = hubspotPortal({ portalId: options.portalId ?? 24_681_357 });
  const token = `pat-na1-${randomUUID()}`;
  portal.addToken(token);
  const requests: RecordedRequest[] = [];
  const script: { times: number; how: HubSpotFailure; path?: string }[] = [];

  const nextFailure = (request: RecordedRequest): HubSpotFailure | undefined => {
    const index = script.findIndex((entry) => entry.path === undefined || request.path.includes(entry.path));
    if (index < 0) return undefined;
    const entry = script[index]!;
    entry.times -= 1;
    if (entry.times <= 0) script.splice(index, 1);
    return entry.how;
  };

  /** Answers a scripted failure; true when it did (`normal` answers as usual). */
  function fail(res: ServerResponse, failure: HubSpotFailure, answer: () => void): boolean {
    if (typeof failure === 'object' && 'normal' in failure) return false;
    if (failure === 'rate_limited' || (typeof failure === 'object' && 'rateLimited' in failure)) {
      const seconds = typeof failure === 'object' ? failure.rateLimited.retryAfterSeconds : 1;
      sendHubSpot(res, {
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
    } else if (failure === 'server_error') sendHubSpot(res, hubspotError(500, 'INTERNAL_ERROR', 'internal error'));
    else if (failure === 'bad_gateway') sendHubSpot(res, { status: 502, body: '<html><body>502 Bad Gateway</body></html>' });
    else if ('slowMs' in failure) {
      const timer = setTimeout(answer, failure.slowMs);
      res.on('close', () => clearTimeout(timer));
    } else if ('malformed' in failure) res.writeHead(200, { 'content-type': 'application/json' }).end('{"results": [{"id": "cut');
    else if ('disconnect' in failure) res.socket?.destroy();
    else sendHubSpot(res, failure);
    return true;
  }

  const server = await startHubSpotServer({
    portal,
    prefix: FAKE_PREFIX,
    intercept(request, res, answer) {
      requests.push(request);
      if (!request.path.startsWith(`${FAKE_PREFIX}/`)) return false;
      const failure = nextFailure(request);
      return failure !== undefined && fail(res, failure, answer);
    },
  });

  return {
    baseUrl: server.baseUrl,
    portalId: portal.portalId,
    token,
    requests,
    addToken: (value, grant) => portal.addToken(value, grant),
    revokeToken: (value) => portal.revokeToken(value),
    addContact: (properties, id) => portal.addContact(properties, id),
    contact: (id) => portal.contact(id),
    deleteContact: (id) => portal.deleteContact(id),
    setList: (listId, contactIds) => portal.setList(listId, contactIds),
    addEngagement: (kind, contactId, properties) => portal.addEngagement(kind, contactId, properties),
    engagements: (kind) => portal.engagements(kind),
    failNext(times, how, path) {
      script.push({ times, how, ...(path === undefined ? {} : { path }) });
    },
    heal() {
      script.length = 0;
    },
    close: () => server.close(),
  };
}
