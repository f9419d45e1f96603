import * as z from 'zod/mini';
import { lazy } from '../platform/memo';
import { RELAY_LIMITS } from './limits';

/**
 * The ConversationRelay socket messages (docs/voice-calls.md "The voice assistant";
 * twilio.com/docs/voice/conversationrelay/websocket-messages). Twilio sends
 * `setup` once the socket is open, then `prompt`s (what the caller said),
 * `interrupt`, `dtmf` and `error`; we answer `text` tokens or `end`.
 * Fields we do not use are allowed through: Twilio adds fields over time.
 * Built on first use: a `$connect` or `$disconnect` reads no message.
 */
const inboundSchema = lazy(() => {
  const setupSchema = z.looseObject({
    type: z.literal('setup'),
    callSid: z.string().check(z.maxLength(64)),
    sessionId: z.optional(z.string().check(z.maxLength(64))),
    customParameters: z.optional(z.record(z.string(), z.string().check(z.maxLength(256)))),
  });

  const promptSchema = z.looseObject({
    type: z.literal('prompt'),
    voicePrompt: z.string().check(z.maxLength(RELAY_LIMITS.maxMessageBytes)),
    lang: z.optional(z.string().check(z.maxLength(35))),
    /** False for partial transcripts (partialPrompts on); only the last one is answered. */
    last: z.optional(z.boolean()),
  });

  const interruptSchema = z.looseObject({
    type: z.literal('interrupt'),
    /** What Twilio had spoken of the assistant's reply when the caller spoke over it. */
    utteranceUntilInterrupt: z.optional(z.string().check(z.maxLength(RELAY_LIMITS.maxMessageBytes))),
    durationUntilInterruptMs: z.optional(z.union([z.number(), z.string()])),
  });

  const dtmfSchema = z.looseObject({
    type: z.literal('dtmf'),
    digit: z.string().check(z.regex(/^[0-9*#A-Dw]$/, 'must be one keypad key')),
  });

  const errorSchema = z.looseObject({
    type: z.literal('error'),
    description: z.optional(z.string().check(z.maxLength(RELAY_LIMITS.maxMessageBytes))),
  });

  return z.discriminatedUnion('type', [setupSchema, promptSchema, interruptSchema, dtmfSchema, errorSchema]);
});

/** A message Twilio sent on the socket, read and checked. */
export type InboundMessage = z.infer<ReturnType<typeof inboundSchema>>;

/** A message Twilio may send that this service does not act on (a newer type), kept by its type only. */
export interface OtherMessage {
  type: 'other';
  name: string;
}

/** A message that is not one Twilio sends: not JSON, too large, or a known type with malformed fields. */
export class RelayProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RelayProtocolError';
  }
}

/**
 * Reads one socket message. Throws RelayProtocolError for anything Twilio
 * would not send (the message says why, without echoing its content).
 */
export function parseInboundMessage(raw: string): InboundMessage | OtherMessage {
  if (Buffer.byteLength(raw, 'utf8') > RELAY_LIMITS.maxMessageBytes)
    throw new RelayProtocolError(`message larger than ${RELAY_LIMITS.maxMessageBytes} bytes`);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new RelayProtocolError('message is not JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new RelayProtocolError('message is not a JSON object');
  const type = (value as { type?: unknown }).type;
  if (typeof type !== 'string') throw new RelayProtocolError('message has no type');
  if (!['setup', 'prompt', 'interrupt', 'dtmf', 'error'].includes(type)) return { type: 'other', name: type.slice(0, 40) };
  const parsed = inboundSchema().safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RelayProtocolError(`${type} message: ${issue ? `${issue.path.join('.') || 'message'} ${issue.message}` : 'malformed'}`);
  }
  return parsed.data;
}

/** A message we send: text for Twilio to speak, or the end of the session. */
export type OutboundMessage = { type: 'text'; token: string; last: boolean } | { type: 'end'; handoffData: string };

/** Text for Twilio to speak; `last` closes the reply (one message with the whole reply is `last: true`). */
export function textMessage(token: string, last = true): OutboundMessage {
  return { type: 'text', token, last };
}

/** Ends the ConversationRelay session; Twilio hangs up (the TwiML has no `action`). `handoffData` is a JSON string. */
export function endMessage(data: Record<string, unknown>): OutboundMessage {
  return { type: 'end', handoffData: JSON.stringify(data) };
}
