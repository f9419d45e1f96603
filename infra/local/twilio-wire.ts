import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isValidPhoneNumber } from 'libphonenumber-js';

/**
 * The Twilio REST wire as the local telephony and the test fake speak it
 * (docs/voice-calls.md "Placing the call"): `POST …/2010-04-01/Accounts/{sid}/Calls.json`
 * with Basic auth and a form body whose repeated keys are kept as arrays,
 * `{code, message, more_info, status}` errors, and signed status callbacks
 * (`X-Twilio-Signature`, computed here with node:crypto, independently of
 * the twilio library that checks it).
 */

/** A form body: a key sent once is a string, a repeated one (StatusCallbackEvent) an array. */
export type TwilioForm = Record<string, string | string[]>;

/** The create-call path below any prefix; group 1 is the account SID. */
const CALLS_PATH = /\/2010-04-01\/Accounts\/([^/]+)\/Calls\.json$/;

/** The account SID a request's path names, when it is a create-call path. */
export function accountOfCallsPath(path: string): string | undefined {
  return CALLS_PATH.exec(path)?.[1];
}

export async function readForm(req: IncomingMessage, maxBytes = 64 * 1024): Promise<TwilioForm> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new Error('form body too large');
    chunks.push(chunk);
  }
  const form: TwilioForm = {};
  for (const [key, value] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) {
    const seen = form[key];
    form[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return form;
}

/** The single value of a form key (the first, when repeated). */
export function formValue(form: TwilioForm, key: string): string | undefined {
  const value = form[key];
  return Array.isArray(value) ? value[0] : value;
}

/** The values of a form key, repeated or not. */
export function formValues(form: TwilioForm, key: string): string[] {
  const value = form[key];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** Whether the Authorization header is Basic `accountSid:authToken` (constant-time compare). */
export function hasBasicAuth(header: string | undefined, accountSid: string, authToken: string): boolean {
  const expected = Buffer.from(`Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`);
  const given = Buffer.from(header ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Twilio's test of a `To`/`From` number: valid E.164. */
export function isDialable(number: string | undefined): boolean {
  return number !== undefined && /^\+\d+$/.test(number) && isValidPhoneNumber(number);
}

/** Answers with Twilio's error body. */
export function sendTwilioError(res: ServerResponse, status: number, code: number, message: string): void {
  sendJson(res, status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });
}

export function sendJson(res: ServerResponse, status: number, payload: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(payload));
}

/** The 401 Twilio gives to wrong credentials. */
export function sendUnauthorized(res: ServerResponse): void {
  res.setHeader('www-authenticate', 'Basic realm="Twilio API"');
  sendTwilioError(res, 401, 20003, 'Authenticate');
}

/** A new call SID: `CA` and 32 hex digits. */
export function newCallSid(): string {
  return `CA${randomBytes(16).toString('hex')}`;
}

/** A new account SID and auth token. */
export function newCredentials(): { accountSid: string; authToken: string } {
  return { accountSid: `AC${randomBytes(16).toString('hex')}`, authToken: randomBytes(16).toString('hex') };
}

/** Twilio's date format (RFC 2822), as in `date_created` and a callback's `Timestamp`. */
export function rfc2822(epochMs: number): string {
  return new Date(epochMs).toUTCString().replace('GMT', '+0000');
}

/** The call resource Twilio answers a create with (201). */
export function callResource(call: { sid: string; accountSid: string; to: string; from: string; status: string; createdAt: number }) {
  const created = rfc2822(call.createdAt);
  return {
    sid: call.sid,
    account_sid: call.accountSid,
    to: call.to,
    to_formatted: call.to,
    from: call.from,
    from_formatted: call.from,
    status: call.status,
    direction: 'outbound-api',
    api_version: '2010-04-01',
    date_created: created,
    date_updated: created,
    start_time: null,
    end_time: null,
    duration: null,
    price: null,
    price_unit: 'USD',
    answered_by: null,
    parent_call_sid: null,
    phone_number_sid: null,
    caller_name: null,
    forwarded_from: null,
    group_sid: null,
    queue_time: '0',
    trunk_sid: null,
    uri: `/2010-04-01/Accounts/${call.accountSid}/Calls/${call.sid}.json`,
    subresource_uris: {},
  };
}

/**
 * `X-Twilio-Signature` of a request: base64 HMAC-SHA1 keyed with the auth
 * token over the URL followed by each POST parameter's name and value,
 * sorted by name (twilio.com/docs/usage/webhooks/webhooks-security).
 */
export function signTwilioRequest(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((text, key) => text + key + params[key], url);
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}

/** What came back from a signed callback. */
export interface CallbackAnswer {
  status: number;
  body: string;
}

/**
 * POSTs form parameters to a URL the way Twilio sends a webhook, signed with
 * `authToken` over `signedUrl` (the URL itself unless given: a tunnel posts
 * to one address while Twilio signs the public one).
 */
export async function postSignedCallback(
  url: string,
  params: Record<string, string>,
  options: { authToken: string; signedUrl?: string; timeoutMs?: number; signal?: AbortSignal },
): Promise<CallbackAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': 'TwilioProxy/1.1',
      'x-twilio-signature': signTwilioRequest(options.authToken, options.signedUrl ?? url, params),
    },
    body: new URLSearchParams(params).toString(),
    signal: AbortSignal.any([AbortSignal.timeout(options.timeoutMs ?? 10_000), ...(options.signal ? [options.signal] : [])]),
  });
  return { status: response.status, body: await response.text() };
}
