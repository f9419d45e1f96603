import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LocalCall, LocalTelephony } from './local-telephony';
import { signTwilioRequest } from './twilio-wire';

/** Where the control paths of the local telephony live on the local HTTP server. */
export const LOCAL_CALLS_PATH = '/local/telephony/calls';

/** A local call as the control paths show it, with what its TwiML connects it to. */
export interface LocalCallView {
  sid: string;
  to: string;
  from: string;
  status: LocalCall['status'];
  command_id: string | null;
  /** The ConversationRelay URL of its TwiML (what Twilio would connect to, and signs). */
  relay_url: string | null;
  welcome_greeting: string | null;
  created_at: string;
  answered_at: string | null;
  ended_at: string | null;
  duration_seconds: number | null;
}

/** What answering a call gives the terminal client: how to connect to the relay as ConversationRelay does. */
export interface LocalAnswer extends LocalCallView {
  /** Where to open the socket on this machine (the relay URL may be a tunnel's public address). */
  connect_url: string;
  /** X-Twilio-Signature of the upgrade: over `relay_url`, with the local telephony's auth token, as Twilio signs it. */
  signature: string;
  /** The `<Parameter>`s of the TwiML, for the `setup` message's `customParameters`. */
  custom_parameters: Record<string, string>;
}

/**
 * The control of the local telephony for `npm run call:local` (a separate
 * process): `GET /local/telephony/calls` lists the calls,
 * `POST …/calls/{sid}/answer` answers a ringing one (the `in-progress`
 * status callback goes out) and gives back how to open its relay socket,
 * signed as Twilio signs it, `POST …/calls/{sid}/hangup` ends it (`completed`
 * with its duration). Only for clients on this machine (loopback): anyone
 * else gets 404, as if the paths did not exist.
 */
export function localTelephonyControl(
  telephony: LocalTelephony,
  options: { connectUrlOf: (relayUrl: string) => string },
): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!.replace(/\/+$/, '');
    if (path !== LOCAL_CALLS_PATH && !path.startsWith(`${LOCAL_CALLS_PATH}/`)) return false;
    req.resume();
    if (!isLoopback(req.socket.remoteAddress)) {
      send(res, 404, { success: false, error: { code: 'NOT_FOUND', message: 'Not found.' } });
      return true;
    }
    void control(telephony, options, req.method ?? 'GET', path.slice(LOCAL_CALLS_PATH.length)).then(
      ([status, body]) => send(res, status, body),
      (error: unknown) =>
        send(res, 409, {
          success: false,
          error: { code: 'INVALID_TRANSITION', message: error instanceof Error ? error.message : String(error) },
        }),
    );
    return true;
  };
}

async function control(
  telephony: LocalTelephony,
  options: { connectUrlOf: (relayUrl: string) => string },
  method: string,
  rest: string,
): Promise<[number, unknown]> {
  if (rest === '') {
    if (method !== 'GET') return [405, { success: false, error: { code: 'METHOD_NOT_ALLOWED', message: 'GET only.' } }];
    return [200, { success: true, data: { calls: telephony.calls().map(viewOf) } }];
  }
  const match = /^\/(CA[0-9a-f]{32})(?:\/(answer|hangup))?$/.exec(rest);
  const call = match ? telephony.calls().find((candidate) => candidate.sid === match[1]) : undefined;
  if (!match || !call) return [404, { success: false, error: { code: 'NOT_FOUND', message: 'No such local call.' } }];
  const action = match[2];
  if (!action)
    return method === 'GET'
      ? [200, { success: true, data: viewOf(call) }]
      : [405, { success: false, error: { code: 'METHOD_NOT_ALLOWED', message: 'GET only.' } }];
  if (method !== 'POST') return [405, { success: false, error: { code: 'METHOD_NOT_ALLOWED', message: 'POST only.' } }];
  if (action === 'hangup') {
    await telephony.hangUp(call.sid);
    return [200, { success: true, data: viewOf(telephony.calls().find((candidate) => candidate.sid === call.sid)!) }];
  }
  await telephony.answer(call.sid);
  const answered = viewOf(telephony.calls().find((candidate) => candidate.sid === call.sid)!);
  if (!answered.relay_url)
    return [
      409,
      {
        success: false,
        error: { code: 'INVALID_TRANSITION', message: 'The call was answered, but its TwiML connects it to no relay socket.' },
      },
    ];
  const answer: LocalAnswer = {
    ...answered,
    connect_url: options.connectUrlOf(answered.relay_url),
    signature: signTwilioRequest(telephony.authToken, answered.relay_url, {}),
    custom_parameters: parametersOf(call.twiml ?? ''),
  };
  return [200, { success: true, data: answer }];
}

/** A local call with what its TwiML says. */
export function viewOf(call: LocalCall): LocalCallView {
  const twiml = call.twiml ?? '';
  const relay = /<ConversationRelay\b([^>]*)>/.exec(twiml)?.[1] ?? '';
  const attribute = (name: string) => {
    const value = new RegExp(`\\b${name}="([^"]*)"`).exec(relay)?.[1];
    return value === undefined ? null : unescapeXml(value);
  };
  const duration = call.answeredAt && call.endedAt ? Math.round((Date.parse(call.endedAt) - Date.parse(call.answeredAt)) / 1000) : null;
  return {
    sid: call.sid,
    to: call.to,
    from: call.from,
    status: call.status,
    command_id: parametersOf(twiml).command_id ?? null,
    relay_url: attribute('url'),
    welcome_greeting: attribute('welcomeGreeting'),
    created_at: call.createdAt,
    answered_at: call.answeredAt ?? null,
    ended_at: call.endedAt ?? null,
    duration_seconds: duration,
  };
}

/** The `<Parameter name value/>`s of a TwiML document. */
function parametersOf(twiml: string): Record<string, string> {
  const parameters: Record<string, string> = {};
  for (const match of twiml.matchAll(/<Parameter\b([^>]*)\/?>/g)) {
    const name = /\bname="([^"]*)"/.exec(match[1]!)?.[1];
    const value = /\bvalue="([^"]*)"/.exec(match[1]!)?.[1];
    if (name !== undefined && value !== undefined) parameters[unescapeXml(name)] = unescapeXml(value);
  }
  return parameters;
}

function unescapeXml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Whether a client's address is this machine's (the local control paths answer no one else). */
export function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1' || (address?.startsWith('127.') ?? false);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}
