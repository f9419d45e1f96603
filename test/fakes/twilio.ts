import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  accountOfCallsPath,
  callResource,
  formValue,
  hasBasicAuth,
  isDialable,
  newCallSid,
  newCredentials,
  postSignedCallback,
  readForm,
  sendJson,
  sendTwilioError,
  sendUnauthorized,
  type CallbackAnswer,
  type TwilioForm,
} from '../../infra/local/twilio-wire';

/** A request the fake received (every one, refused ones included). */
export interface FakeTwilioRequest {
  method: string;
  /** Path and query, prefix included. */
  path: string;
  headers: IncomingHttpHeaders;
  /** Form body; repeated keys (StatusCallbackEvent) are arrays. */
  form: TwilioForm;
}

/** A call the fake accepted. */
export interface FakeTwilioCall {
  sid: string;
  to: string;
  from: string;
  statusCallback?: string;
  twiml?: string;
}

/**
 * How the next create fails: Twilio's 400 21211 (invalid To), 401 20003
 * (authentication), 429 20429, 500, a 201 whose body is not JSON, any
 * Twilio error body, or an answer held for `hangMs` (then answered
 * normally, if the client still listens).
 */
export type FakeTwilioFailure =
  | 'invalid-to'
  | 'unauthorized'
  | 'rate-limited'
  | 'server-error'
  | 'malformed'
  | { hangMs: number }
  | { status: number; code: number; message: string };

/** Loopback stand-in for Twilio's Calls API, for tests of the real twilio library. */
export interface FakeTwilio {
  /** Root to pass as TWILIO_API_BASE_URL (carries the path prefix, when one was asked for). */
  readonly baseUrl: string;
  readonly accountSid: string;
  readonly authToken: string;
  /** A valid E.164 caller id to use as TWILIO_FROM_NUMBER. */
  readonly fromNumber: string;
  readonly requests: readonly FakeTwilioRequest[];
  readonly calls: readonly FakeTwilioCall[];
  /** The settings that point the service at this fake. */
  readonly settings: Record<string, string>;
  /** The next `times` creates fail this way (in order, after any already queued). */
  failNext(how: FakeTwilioFailure, times?: number): void;
  /**
   * Sends a status callback as Twilio does: form POST to `url`, signed with
   * this fake's auth token over `signedUrl` (default `url`; give the
   * PUBLIC_BASE_URL form when the service is reached at another address).
   */
  sendStatusCallback(
    url: string,
    params: Record<string, string>,
    options?: { signedUrl?: string; authToken?: string },
  ): Promise<CallbackAnswer>;
  close(): Promise<void>;
}

/** Starts the fake on 127.0.0.1 at a free port, optionally below a path prefix (`/twilio`) to prove it is joined. */
export async function startFakeTwilio(options: { pathPrefix?: string } = {}): Promise<FakeTwilio> {
  const { accountSid, authToken } = newCredentials();
  const prefix = options.pathPrefix?.replace(/\/+$/, '') ?? '';
  const requests: FakeTwilioRequest[] = [];
  const calls: FakeTwilioCall[] = [];
  const failures: FakeTwilioFailure[] = [];
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    void (async () => {
      const form = await readForm(req);
      const path = req.url ?? '/';
      requests.push({ method: req.method ?? 'GET', path, headers: req.headers, form });
      const pathOnly = path.split('?')[0]!;
      const account = pathOnly.startsWith(`${prefix}/`) ? accountOfCallsPath(pathOnly.slice(prefix.length)) : undefined;
      if (req.method !== 'POST' || account === undefined) {
        sendTwilioError(res, 404, 20404, 'The requested resource was not found');
        return;
      }
      const failure = failures.shift();
      if (failure !== undefined && typeof failure === 'object' && 'status' in failure)
        return sendTwilioError(res, failure.status, failure.code, failure.message);
      if (failure !== undefined && typeof failure === 'object') {
        const timer = setTimeout(() => create(res, account, form, req.headers.authorization), failure.hangMs);
        res.on('close', () => clearTimeout(timer));
        return;
      }
      if (failure === 'unauthorized') return sendUnauthorized(res);
      if (failure === 'invalid-to')
        return sendTwilioError(res, 400, 21211, `The 'To' number ${formValue(form, 'To') ?? ''} is not a valid phone number.`);
      if (failure === 'rate-limited') return sendTwilioError(res, 429, 20429, 'Too Many Requests');
      if (failure === 'server-error') return sendTwilioError(res, 500, 20500, 'An internal server error has occurred');
      if (failure === 'malformed') {
        res.writeHead(201, { 'content-type': 'application/json' }).end('{"sid": "CA');
        return;
      }
      create(res, account, form, req.headers.authorization);
    })().catch(() => {
      if (!res.headersSent) sendTwilioError(res, 400, 20001, 'Malformed request');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  function create(res: ServerResponse, account: string, form: TwilioForm, authorization: string | undefined): void {
    if (!hasBasicAuth(authorization, accountSid, authToken)) return sendUnauthorized(res);
    if (account !== accountSid) return sendTwilioError(res, 404, 20404, 'The requested resource was not found');
    const to = formValue(form, 'To');
    const from = formValue(form, 'From');
    if (!to) return sendTwilioError(res, 400, 21201, "No 'To' number is specified");
    if (!isDialable(to)) return sendTwilioError(res, 400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    if (!isDialable(from)) return sendTwilioError(res, 400, 21212, `The 'From' number ${from ?? ''} is not a valid phone number.`);
    const twiml = formValue(form, 'Twiml');
    if (!twiml && !formValue(form, 'Url')) return sendTwilioError(res, 400, 21205, 'Url parameter is required.');
    const statusCallback = formValue(form, 'StatusCallback');
    const call: FakeTwilioCall = {
      sid: newCallSid(),
      to,
      from: from!,
      ...(statusCallback ? { statusCallback } : {}),
      ...(twiml ? { twiml } : {}),
    };
    calls.push(call);
    sendJson(res, 201, callResource({ ...call, accountSid, status: 'queued', createdAt: Date.now() }));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}${prefix}`;
  const fromNumber = '+15005550006';

  return {
    baseUrl,
    accountSid,
    authToken,
    fromNumber,
    requests,
    calls,
    settings: {
      TWILIO_API_BASE_URL: baseUrl,
      TWILIO_ACCOUNT_SID: accountSid,
      TWILIO_AUTH_TOKEN: authToken,
      TWILIO_FROM_NUMBER: fromNumber,
    },
    failNext(how, times = 1) {
      for (let i = 0; i < times; i += 1) failures.push(how);
    },
    sendStatusCallback(url, params, callbackOptions = {}) {
      return postSignedCallback(url, params, {
        authToken: callbackOptions.authToken ?? authToken,
        ...(callbackOptions.signedUrl ? { signedUrl: callbackOptions.signedUrl } : {}),
      });
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}
