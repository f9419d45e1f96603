import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  accountOfCallsPath,
  callResource,
  formValue,
  formValues,
  hasBasicAuth,
  isDialable,
  newCallSid,
  newCredentials,
  postSignedCallback,
  readForm,
  rfc2822,
  sendJson,
  sendTwilioError,
  sendUnauthorized,
} from './twilio-wire';

/** Twilio's status words for the states a local call goes through. */
export type LocalCallStatus = 'queued' | 'initiated' | 'ringing' | 'in-progress' | 'completed' | 'busy' | 'no-answer' | 'canceled';

/** One status callback the local telephony sent (or tried to). */
export interface LocalCallback {
  callStatus: LocalCallStatus;
  sequenceNumber: number;
  /** The service's HTTP answer; absent when the POST failed (see `error`). */
  httpStatus?: number;
  error?: string;
}

/** A call the local telephony holds. */
export interface LocalCall {
  sid: string;
  to: string;
  from: string;
  status: LocalCallStatus;
  /** The TwiML given at create: the voice issue's terminal client reads the relay URL and command_id from it. */
  twiml?: string;
  statusCallback?: string;
  createdAt: string;
  answeredAt?: string;
  endedAt?: string;
  callbacks: LocalCallback[];
  /** Twilio's report of the ended relay session, POSTed to the TwiML's `<Connect action>` when an answered call hangs up. */
  sessionReport?: { httpStatus?: number; error?: string };
}

/** The local telephony of `npm start`. */
export interface LocalTelephony {
  /** TWILIO_API_BASE_URL of this server. */
  readonly baseUrl: string;
  readonly accountSid: string;
  /** Random per start; status callbacks are signed with it. */
  readonly authToken: string;
  readonly fromNumber: string;
  /**
   * The settings that point the functions at it: TWILIO_API_BASE_URL, TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM_NUMBER,
   * LOCAL_TELEPHONY=true.
   */
  readonly settings: Record<string, string>;
  /** The calls placed so far, oldest first (copies). */
  calls(): LocalCall[];
  /** Answers a ringing call: posts `in-progress`. Resolves once the callback was delivered (or failed). */
  answer(sid: string): Promise<void>;
  /** Ends a call: an answered one is `completed` with its duration; a ringing one is declined (`busy`). */
  hangUp(sid: string): Promise<void>;
  /** Stops ringing timers and callbacks, and closes the server. */
  stop(): Promise<void>;
}

/** How long a local call rings before it ends `no-answer` (the person at the terminal needs time). */
export const DEFAULT_LOCAL_RING_TIMEOUT_MS = 180_000;

/** A call with the state that is not shown. */
interface HeldCall extends LocalCall {
  events: Set<string>;
  sequence: number;
  timer?: NodeJS.Timeout;
  /** Callbacks go out one after another, in order. */
  delivery: Promise<void>;
}

/** Statuses reported under the `completed` event (Twilio sends every final status for it). */
const FINAL: ReadonlySet<LocalCallStatus> = new Set(['completed', 'busy', 'no-answer', 'canceled']);

/**
 * A Twilio-compatible Calls API on 127.0.0.1 that rings nobody: a create
 * answers 201 `queued` like Twilio, then the call reports `initiated` and
 * `ringing` at once, and `no-answer` after `ringTimeoutMs` unless answered
 * (`answer`, then `hangUp`). Status callbacks go to each call's
 * StatusCallback, which must lie under `publicBaseUrl` (this service),
 * signed with this server's random auth token as Twilio signs them, for the
 * events the create subscribed to (StatusCallbackEvent; `completed` alone
 * when none). The create's `Timeout` is not used: a person answers here.
 */
export async function startLocalTelephony(options: {
  publicBaseUrl: string;
  ringTimeoutMs?: number;
  /** Where failed callback deliveries are reported. @default stderr */
  onError?: (error: Error) => void;
}): Promise<LocalTelephony> {
  const ringTimeoutMs = options.ringTimeoutMs ?? DEFAULT_LOCAL_RING_TIMEOUT_MS;
  const onError = options.onError ?? ((error: Error) => process.stderr.write(`local telephony: ${error.message}\n`));
  const publicBase = new URL(options.publicBaseUrl);
  const { accountSid, authToken } = newCredentials();
  const fromNumber = '+15005550006';
  const calls = new Map<string, HeldCall>();
  const sockets = new Set<Socket>();
  let stopped = false;
  const stopping = new AbortController();

  const server = createServer((req, res) => {
    void (async () => {
      const form = await readForm(req);
      const path = (req.url ?? '/').split('?')[0]!;
      const account = accountOfCallsPath(path);
      if (req.method !== 'POST' || account === undefined) return sendTwilioError(res, 404, 20404, 'The requested resource was not found');
      if (!hasBasicAuth(req.headers.authorization, accountSid, authToken)) return sendUnauthorized(res);
      if (account !== accountSid) return sendTwilioError(res, 404, 20404, 'The requested resource was not found');
      const to = formValue(form, 'To');
      if (!isDialable(to)) return sendTwilioError(res, 400, 21211, `The 'To' number ${to ?? ''} is not a valid phone number.`);
      const from = formValue(form, 'From');
      if (!isDialable(from)) return sendTwilioError(res, 400, 21212, `The 'From' number ${from ?? ''} is not a valid phone number.`);
      const statusCallback = formValue(form, 'StatusCallback');
      if (statusCallback !== undefined && !isUnder(statusCallback, publicBase)) {
        return sendTwilioError(
          res,
          400,
          21609,
          `StatusCallback must be a URL of this service (under ${publicBase.href}) for the local telephony.`,
        );
      }
      const twiml = formValue(form, 'Twiml');
      const now = Date.now();
      const call: HeldCall = {
        sid: newCallSid(),
        to: to!,
        from: from!,
        status: 'queued',
        ...(twiml ? { twiml } : {}),
        ...(statusCallback ? { statusCallback } : {}),
        createdAt: new Date(now).toISOString(),
        callbacks: [],
        events: new Set(
          formValues(form, 'StatusCallbackEvent')
            .flatMap((value) => value.split(/[\s,]+/))
            .filter(Boolean),
        ),
        sequence: 0,
        delivery: Promise.resolve(),
      };
      calls.set(call.sid, call);
      sendJson(res, 201, callResource({ ...call, accountSid, createdAt: now }));
      void move(call, 'initiated');
      void move(call, 'ringing');
      call.timer = setTimeout(() => void move(call, 'no-answer'), ringTimeoutMs);
      call.timer.unref();
    })().catch(() => {
      if (!res.headersSent) sendTwilioError(res, 400, 20001, 'Malformed request');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  /** Moves a call to a status and queues its callback when the create subscribed to that event. */
  function move(call: HeldCall, status: LocalCallStatus): Promise<void> {
    call.status = status;
    const now = Date.now();
    if (status === 'in-progress') call.answeredAt = new Date(now).toISOString();
    if (FINAL.has(status)) {
      clearTimeout(call.timer);
      call.endedAt = new Date(now).toISOString();
    }
    const event = status === 'in-progress' ? 'answered' : FINAL.has(status) ? 'completed' : status;
    const subscribed = call.events.size === 0 ? event === 'completed' : call.events.has(event);
    if (!subscribed || !call.statusCallback || stopped) return call.delivery;
    const params: Record<string, string> = {
      AccountSid: accountSid,
      ApiVersion: '2010-04-01',
      CallSid: call.sid,
      CallStatus: status,
      CallbackSource: 'call-progress-events',
      Called: call.to,
      Caller: call.from,
      Direction: 'outbound-api',
      From: call.from,
      SequenceNumber: String(call.sequence),
      Timestamp: rfc2822(now),
      To: call.to,
    };
    call.sequence += 1;
    if (FINAL.has(status)) {
      const seconds = call.answeredAt ? Math.round((now - Date.parse(call.answeredAt)) / 1000) : 0;
      params.CallDuration = String(seconds);
      params.Duration = String(Math.ceil(seconds / 60));
    }
    const url = call.statusCallback;
    const record: LocalCallback = { callStatus: status, sequenceNumber: Number(params.SequenceNumber) };
    call.delivery = call.delivery.then(async () => {
      if (stopped) return;
      try {
        record.httpStatus = (await postSignedCallback(url, params, { authToken, signal: stopping.signal })).status;
        if (record.httpStatus >= 400) onError(new Error(`status callback ${status} of ${call.sid} was answered ${record.httpStatus}`));
      } catch (error) {
        record.error = error instanceof Error ? error.message : String(error);
        if (stopped) return;
        onError(new Error(`status callback ${status} of ${call.sid} could not be delivered (${record.error})`));
      }
      call.callbacks.push(record);
    });
    return call.delivery;
  }

  /** As Twilio does when a ConversationRelay session ends: a signed POST of the session's report to the `<Connect action>` URL. */
  async function reportSessionEnded(call: HeldCall): Promise<void> {
    const encoded = /<Connect\b[^>]*\baction="([^"]*)"/.exec(call.twiml ?? '')?.[1];
    if (encoded === undefined || stopped) return;
    const action = encoded
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
    const seconds = call.answeredAt ? Math.round((Date.now() - Date.parse(call.answeredAt)) / 1000) : 0;
    const params = {
      AccountSid: accountSid,
      ApiVersion: '2010-04-01',
      CallSid: call.sid,
      CallStatus: 'in-progress',
      Direction: 'outbound-api',
      From: call.from,
      To: call.to,
      SessionStatus: 'ended',
      SessionDuration: String(seconds),
    };
    const report: NonNullable<LocalCall['sessionReport']> = {};
    call.sessionReport = report;
    try {
      report.httpStatus = (await postSignedCallback(action, params, { authToken, signal: stopping.signal })).status;
      if (report.httpStatus >= 400) onError(new Error(`relay session report of ${call.sid} was answered ${report.httpStatus}`));
    } catch (error) {
      report.error = error instanceof Error ? error.message : String(error);
      if (!stopped) onError(new Error(`relay session report of ${call.sid} could not be delivered (${report.error})`));
    }
  }

  function held(sid: string): HeldCall {
    const call = calls.get(sid);
    if (!call) throw new Error(`No local call ${sid}`);
    return call;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    accountSid,
    authToken,
    fromNumber,
    settings: {
      TWILIO_API_BASE_URL: baseUrl,
      TWILIO_ACCOUNT_SID: accountSid,
      TWILIO_AUTH_TOKEN: authToken,
      TWILIO_FROM_NUMBER: fromNumber,
      LOCAL_TELEPHONY: 'true',
    },
    calls() {
      return [...calls.values()].map(
        ({ events: _events, sequence: _sequence, timer: _timer, delivery: _delivery, callbacks, sessionReport, ...call }) => ({
          ...call,
          callbacks: callbacks.map((callback) => ({ ...callback })),
          ...(sessionReport ? { sessionReport: { ...sessionReport } } : {}),
        }),
      );
    },
    async answer(sid) {
      const call = held(sid);
      if (call.status !== 'ringing') throw new Error(`Local call ${sid} is ${call.status}, not ringing`);
      await move(call, 'in-progress');
    },
    async hangUp(sid) {
      const call = held(sid);
      if (call.status === 'in-progress') {
        await reportSessionEnded(call);
        await move(call, 'completed');
      } else if (call.status === 'ringing') await move(call, 'busy');
      else throw new Error(`Local call ${sid} is ${call.status}, not ringing or in progress`);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      stopping.abort();
      for (const call of calls.values()) clearTimeout(call.timer);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}

/** Whether a URL lies under a base URL: same origin, and within its path prefix. */
function isUnder(url: string, base: URL): boolean {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  const prefix = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
  return target.origin === base.origin && (target.pathname === base.pathname || target.pathname.startsWith(prefix));
}
