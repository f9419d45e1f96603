import * as z from 'zod/mini';
import '../../platform/zod-messages';

/** Our state of a call (docs/voice-calls.md "Call states"). */
export type CallState = 'pending' | 'in_progress' | 'completed' | 'failed';

/** Every `CallStatus` Twilio reports, with our state for it. */
const STATE_OF_STATUS = {
  queued: 'pending',
  initiated: 'pending',
  ringing: 'pending',
  'in-progress': 'in_progress',
  completed: 'completed',
  busy: 'failed',
  failed: 'failed',
  'no-answer': 'failed',
  canceled: 'failed',
} as const satisfies Record<string, CallState>;

/** A Twilio call status word. */
export type TwilioCallStatus = keyof typeof STATE_OF_STATUS;

/** The Twilio call statuses, in the order a call goes through them (final ones last). */
export const TWILIO_CALL_STATUSES = Object.keys(STATE_OF_STATUS) as TwilioCallStatus[];

/** Our state for a Twilio call status; undefined for a word Twilio does not use. */
export function callStateOf(twilioStatus: string): CallState | undefined {
  return Object.hasOwn(STATE_OF_STATUS, twilioStatus) ? STATE_OF_STATUS[twilioStatus as TwilioCallStatus] : undefined;
}

/** A call in a final state never changes again. */
export function isFinalCallState(state: CallState): boolean {
  return state === 'completed' || state === 'failed';
}

/**
 * Where a status lies in a call's life: queued and initiated 0, ringing 1,
 * in-progress 2, every final status 3. With the events this service
 * subscribes to (initiated, ringing, answered, completed) these are the
 * SequenceNumbers Twilio itself gives, so a derived order agrees with a sent one.
 */
export function statusRank(status: TwilioCallStatus): number {
  switch (STATE_OF_STATUS[status]) {
    case 'pending':
      return status === 'ringing' ? 1 : 0;
    case 'in_progress':
      return 2;
    default:
      return 3;
  }
}

/** One status callback, read and checked. */
export interface StatusCallback {
  /** Twilio's call id: `CA` and 32 hex digits. */
  callSid: string;
  callStatus: TwilioCallStatus;
  state: CallState;
  /**
   * Order of this event within its call: Twilio's `SequenceNumber` (0, 1, …),
   * or, when Twilio sent none, the status's rank (`statusRank`); see `sequenceSource`.
   */
  sequenceNumber: number;
  /** `twilio`: sent as `SequenceNumber`; `status-rank`: derived from the status because none was sent. */
  sequenceSource: 'twilio' | 'status-rank';
  /** When Twilio sent it, ISO 8601 (Twilio's `Timestamp` is RFC 2822). */
  timestamp?: string;
  /** `CallDuration` in seconds (sent with the final status). */
  durationSeconds?: number;
  /** `AnsweredBy` (`human`, `machine_start`, `fax`, `unknown`, …; only with machine detection). */
  answeredBy?: string;
}

/** A status callback whose parameters are missing or malformed. Names the parameters at fault, never their values. */
export class StatusCallbackError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StatusCallbackError';
  }
}

const digits = (max: number) =>
  z.pipe(z.string().check(z.regex(new RegExp(`^\\d{1,${max}}$`), 'must be a whole number ≥ 0')), z.transform(Number));

/**
 * A status callback's form parameters as they are read (others are
 * ignored); the API reference describes Twilio's callback with it. In
 * `zod/mini`, so the status webhook's cold start does not load zod's
 * chainable API.
 */
export const statusCallbackParams = z.object({
  CallSid: z
    .string()
    .check(
      z.regex(/^CA[0-9a-f]{32}$/, 'must be CA followed by 32 hex digits'),
      z.meta({ description: "Twilio's call id: `CA` and 32 hex digits.", example: 'CA0123456789abcdef0123456789abcdef' }),
    ),
  CallStatus: z.enum(TWILIO_CALL_STATUSES as [TwilioCallStatus, ...TwilioCallStatus[]]),
  SequenceNumber: z
    .optional(digits(9))
    .check(z.meta({ description: "Order of the event within its call; without it, the status's own order is used.", example: '1' })),
  Timestamp: z.optional(
    z.pipe(
      z.string().check(z.maxLength(64)),
      z.transform((text: string, ctx) => {
        const time = Date.parse(text);
        if (Number.isNaN(time)) {
          ctx.issues.push({ code: 'custom', message: 'must be a date', input: text });
          return z.NEVER;
        }
        return new Date(time).toISOString();
      }),
    ),
  ),
  CallDuration: z.optional(digits(9)).check(z.meta({ description: 'Seconds, with the final status.' })),
  AnsweredBy: z.optional(z.string().check(z.regex(/^[a-z_]{1,40}$/, 'must be a Twilio AnsweredBy word'))),
});

/**
 * Reads a status callback's form parameters (CallSid, CallStatus,
 * SequenceNumber, Timestamp, CallDuration, AnsweredBy; others are ignored).
 * Empty parameters count as absent. Throws StatusCallbackError when a
 * parameter is missing or malformed.
 */
export function parseStatusCallback(params: Record<string, string>): StatusCallback {
  const present = Object.fromEntries(Object.entries(params).filter(([, value]) => value !== ''));
  const parsed = statusCallbackParams.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = issue.path.join('.');
      return present[name] === undefined ? `${name} is missing` : `${name} ${issue.message}`;
    });
    throw new StatusCallbackError(`Malformed Twilio status callback: ${problems.join('; ')}`);
  }
  const { CallSid, CallStatus, SequenceNumber, Timestamp, CallDuration, AnsweredBy } = parsed.data;
  return {
    callSid: CallSid,
    callStatus: CallStatus,
    state: STATE_OF_STATUS[CallStatus],
    sequenceNumber: SequenceNumber ?? statusRank(CallStatus),
    sequenceSource: SequenceNumber === undefined ? 'status-rank' : 'twilio',
    ...(Timestamp === undefined ? {} : { timestamp: Timestamp }),
    ...(CallDuration === undefined ? {} : { durationSeconds: CallDuration }),
    ...(AnsweredBy === undefined ? {} : { answeredBy: AnsweredBy }),
  };
}
