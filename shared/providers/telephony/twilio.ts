import twilio from 'twilio';
import { TelephonyError, type OutboundCall, type PlacedCall, type Telephony, type TelephonyProviderName } from './port';

/** Settings of the Twilio adapter (see `TWILIO_*` in docs/configuration.md). */
export interface TwilioTelephonyOptions {
  /** `AC…` */
  accountSid: string;
  authToken: string;
  /** E.164 caller id (a Twilio number of the account). */
  fromNumber: string;
  /**
   * Root of the Twilio REST API, path prefix included (`/2010-04-01/…` is
   * appended): a loopback fake in tests, the local telephony under `npm start`.
   * @default 'https://api.twilio.com'
   */
  apiBaseUrl?: string;
  /** How placed calls are labelled. @default 'twilio' */
  provider?: TelephonyProviderName;
  /**
   * Longest wait for Twilio's answer to a create, in milliseconds (socket
   * inactivity; the whole create is cut off one second later).
   * @default 10_000
   */
  timeoutMs?: number;
}

/**
 * Retry and timeout policy of a call create, written once: no retry at all.
 * A create that reached Twilio may have placed the call even when its answer
 * was lost, so a retried create could ring the person twice. The library's
 * own retrying (`autoRetry`, 429 only) stays off, and a timeout or 5xx comes
 * back to the caller as a TelephonyError, whose caller decides (the call
 * worker marks the call failed; it never dials again for the same command).
 */
const DEFAULT_TIMEOUT_MS = 10_000;
const DEADLINE_GRACE_MS = 1_000;
/** Seconds to let a call ring when the caller does not say (Twilio's own default is 60). */
const DEFAULT_RING_SECONDS = 30;
const STATUS_EVENTS = ['initiated', 'ringing', 'answered', 'completed'];
const MAX_MESSAGE_LENGTH = 300;

/**
 * Telephony over Twilio Programmable Voice, through the official `twilio`
 * library: one `calls.create` per call with the TwiML inline, status
 * callbacks for every progress event by POST. Failures come back as
 * TelephonyError with Twilio's error code (21211 invalid To, 20003
 * authentication, …), the HTTP status, and a message without credentials.
 */
export function createTwilioTelephony(options: TwilioTelephonyOptions): Telephony {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const provider = options.provider ?? 'twilio';
  const httpClient = new BaseUrlRequestClient(options.apiBaseUrl, { timeout: timeoutMs, autoRetry: false });
  // The library would log request bodies (phone numbers) under TWILIO_LOG_LEVEL=debug: its level is fixed here.
  const client = twilio(options.accountSid, options.authToken, { httpClient, autoRetry: false, logLevel: 'info' });
  const safe = redactor(options);

  return {
    provider,
    async placeCall(call: OutboundCall): Promise<PlacedCall> {
      let answer: unknown;
      try {
        answer = await withDeadline(
          client.calls.create({
            to: call.to,
            from: options.fromNumber,
            twiml: call.twiml,
            statusCallback: call.statusCallbackUrl,
            statusCallbackEvent: STATUS_EVENTS,
            statusCallbackMethod: 'POST',
            timeout: call.ringTimeoutSeconds ?? DEFAULT_RING_SECONDS,
          }),
          timeoutMs + DEADLINE_GRACE_MS,
        );
      } catch (error) {
        throw telephonyErrorOf(error, timeoutMs, safe);
      }
      const { sid, status } = (answer ?? {}) as { sid?: unknown; status?: unknown };
      if (typeof sid !== 'string' || !/^CA[0-9a-f]{32}$/i.test(sid)) {
        throw new TelephonyError('Twilio accepted the call but its answer has no call sid: whether the call was placed is unknown');
      }
      return { sid, status: typeof status === 'string' ? status : 'queued', provider };
    },
  };
}

/**
 * The library's HTTP client with the documented custom-client hook
 * (`httpClient` option, `request(opts)`): each request's origin is replaced
 * by `apiBaseUrl`, whose path prefix is kept before the request's path.
 * Without a base URL the requests go where the library sends them.
 */
class BaseUrlRequestClient extends twilio.RequestClient {
  private readonly base: URL | undefined;

  constructor(apiBaseUrl: string | undefined, options: ConstructorParameters<typeof twilio.RequestClient>[0]) {
    super(options);
    this.base = apiBaseUrl === undefined ? undefined : new URL(apiBaseUrl);
  }

  override request<TData>(opts: Parameters<typeof twilio.RequestClient.prototype.request<TData>>[0]) {
    return super.request<TData>(this.base ? { ...opts, uri: rebase(this.base, opts.uri) } : opts);
  }
}

function rebase(base: URL, uri: string): string {
  const target = new URL(uri);
  return `${base.origin}${base.pathname.replace(/\/+$/, '')}${target.pathname}${target.search}`;
}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError()), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

class DeadlineError extends Error {}

const TIMEOUT_CODES = new Set(['ECONNABORTED', 'ETIMEDOUT', 'ESOCKETTIMEDOUT']);

function telephonyErrorOf(error: unknown, timeoutMs: number, safe: (text: string) => string): TelephonyError {
  const unknownOutcome = 'whether the call was placed is unknown, so it is not tried again';
  if (error instanceof DeadlineError)
    return new TelephonyError(`Twilio did not finish answering within ${timeoutMs} ms: ${unknownOutcome}`);
  const fields = (typeof error === 'object' && error !== null ? error : {}) as {
    status?: unknown;
    code?: unknown;
    message?: unknown;
    isAxiosError?: unknown;
  };
  if (fields.isAxiosError === true) {
    if (typeof fields.code === 'string' && TIMEOUT_CODES.has(fields.code)) {
      return new TelephonyError(`Twilio did not answer within ${timeoutMs} ms: ${unknownOutcome}`);
    }
    return new TelephonyError(`Twilio could not be reached (${typeof fields.code === 'string' ? fields.code : 'connection error'})`);
  }
  if (typeof fields.status === 'number') {
    const code = typeof fields.code === 'number' && fields.code > 0 ? fields.code : undefined;
    const said = typeof fields.message === 'string' ? safe(fields.message) : '';
    const reason = fields.status === 401 ? 'the account SID or auth token was refused' : said || 'no message';
    const outcome = fields.status >= 500 ? `; ${unknownOutcome}` : '';
    return new TelephonyError(
      `Twilio answered ${fields.status}${code ? ` (error ${code})` : ''}: ${reason}${outcome}`,
      code,
      fields.status,
    );
  }
  if (error instanceof SyntaxError) return new TelephonyError(`Twilio answered with a body that is not JSON: ${unknownOutcome}`);
  return new TelephonyError(`Twilio call failed (${error instanceof Error ? error.name : typeof error})`);
}

/** Removes credentials (auth token, account SID, any Basic header) from provider text, and bounds its length. */
function redactor(options: TwilioTelephonyOptions): (text: string) => string {
  return (text) => {
    let out = text.replace(/Basic\s+[A-Za-z0-9+/=]+/gi, 'Basic [redacted]');
    for (const secret of [options.authToken, options.accountSid]) {
      if (secret) out = out.split(secret).join('[redacted]');
    }
    out = out.replace(/\s+/g, ' ').trim();
    return out.length > MAX_MESSAGE_LENGTH ? `${out.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : out;
  };
}
