import type { Logger } from '@aws-lambda-powertools/logger';
import * as z from 'zod/mini';
import { isFinalCallStatus, type CallCommandFields, type CallStatus, type TranscriptEntry } from '../calls/record';
import { describeError } from '../platform/logger';
import { isUuid } from '../platform/ids';
import { cleanText } from '../platform/text';
import type { StreamingLlmClient } from '../providers/llm/port';
import { createOfflineLlm } from '../providers/llm/offline';
import { isValidTwilioSignature } from '../providers/telephony/signature';
import { RELAY_TOKEN_PARAMETER, relayUrlOf } from '../providers/telephony/public-urls';
import { isRelayTokenShaped, relayTokenHash, sameRelayTokenHash } from '../calls/relay-token';
import { callerTurns, NotACallError, readCallBrief, type CallBrief } from './call-brief';
import { CLOSE_CODES, ConnectionGoneError, type RelayConnections } from './connections';
import { requestMeetingSummary, type EndOfCallDependencies } from './end-of-call';
import { RELAY_LIMITS } from './limits';
import { openingLine } from './offline-voice';
import { endMessage, parseInboundMessage, RelayProtocolError, textMessage, type InboundMessage, type OutboundMessage } from './protocol';
import type { RelayTokenStore } from './relay-tokens';
import type { RelaySession, RelaySessionStore, SessionBrief } from './sessions';
import { bodyOf, headerOf, type SocketEvent, type SocketResult } from './socket-event';
import { cutAt, startsWithWords } from './speech';
import { valueSize } from '../platform/item-size';
import type { OpenTranscript, TranscriptStore } from './transcript-store';
import { speakTurn } from './voice-turn';
import type { CommandUsageRecorder } from '../usage/dynamo-command-usage';
import { UsageMeter, withUsageMeter } from '../usage/meter';

/** What the ConversationRelay socket works with. */
export interface RelayDependencies extends EndOfCallDependencies {
  connections: RelayConnections;
  sessions: RelaySessionStore;
  /** Each call's one-time relay token, from the socket's `$connect` to its `setup`. */
  relayTokens: RelayTokenStore;
  transcripts: TranscriptStore;
  /** The model, resolved on first use (the voice policy: short timeouts). */
  llm: () => Promise<StreamingLlmClient>;
  /** TWILIO_AUTH_TOKEN, resolved on first use; undefined when telephony is not configured (then every socket is refused). */
  authToken: () => Promise<string | undefined>;
  /**
   * PUBLIC_BASE_URL: the relay URL Twilio signs is `relayUrlOf(PUBLIC_BASE_URL)`, never the Host header. Without it every socket is
   * refused.
   */
  publicBaseUrl?: string;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Counts each turn's model tokens on the call's command. @default not counted */
  usage?: CommandUsageRecorder;
}

const OK: SocketResult = { statusCode: 200 };
const FORBIDDEN: SocketResult = { statusCode: 403, body: 'Forbidden' };

/**
 * Use case: one event of the ConversationRelay socket (Twilio's side of a
 * live call; docs/voice-calls.md "The voice assistant"). The same module answers API
 * Gateway's WebSocket routes in AWS and the local socket server:
 * - `$connect`: the upgrade must carry a valid X-Twilio-Signature over
 *   `relayUrlOf(PUBLIC_BASE_URL)` with the query it came with, and that
 *   query a relay token (`?token=…`, each call's own); otherwise 403 (the
 *   socket is never opened). The token's hash is held for the socket: API
 *   Gateway passes the query on to `$connect` only;
 * - `$default`: one message. `setup` must come first and name, in
 *   `customParameters.command_id`, a stakeholder coordination whose call is
 *   this `callSid`, has not ended, and was given the token this socket
 *   connected with, not yet spent; the token is spent then, in one
 *   conditional write, so a call has one socket, ever: a replayed URL, a
 *   second socket, another call's token are all refused (the socket is
 *   closed, 1008, with the reason). Each final `prompt` is one turn: the
 *   model (or the offline writer) answers from the pre-call prompt, its
 *   reply streamed as `text` tokens as it is written (`last: false`, then
 *   one `last: true`), and the caller's words and the reply are kept
 *   together. `interrupt` cuts the
 *   last reply in the transcript to what was spoken; `dtmf` is kept;
 *   `error` is logged. Turns and time are bounded (RELAY_LIMITS): at a
 *   limit the assistant says goodbye and sends `end`;
 * - `$disconnect` (and the assistant's own `end`): the call is over, and
 *   its summary is queued, exactly once however many times that is said.
 * Every write is a conditional update of its own, made as the call goes
 * (one per turn), so a socket that drops loses nothing already said.
 */
export async function handleRelayEvent(deps: RelayDependencies, event: SocketEvent): Promise<SocketResult> {
  const { eventType, connectionId } = event.requestContext;
  try {
    if (eventType === 'CONNECT') return await connect(deps, event);
    if (eventType === 'DISCONNECT') {
      await disconnect(deps, connectionId);
      return OK;
    }
    await onMessage(deps, connectionId, bodyOf(event));
    return OK;
  } catch (error) {
    deps.logger.error('Relay event failed', { eventType, connectionId, error: describeError(error) });
    return { statusCode: 500, body: 'Internal error' };
  }
}

/**
 * `$connect`: only Twilio, signing this service's relay URL with a call's
 * token in it, may open the socket; the token's hash is held for `setup`.
 */
async function connect(deps: RelayDependencies, event: SocketEvent): Promise<SocketResult> {
  const signature = headerOf(event, 'x-twilio-signature');
  const authToken = await deps.authToken();
  const url = deps.publicBaseUrl ? signedUrlOf(deps.publicBaseUrl, event.queryStringParameters) : undefined;
  if (!authToken || !url || !isValidTwilioSignature(authToken, signature, url, {})) {
    deps.logger.warn('Relay socket refused: its signature does not match', {
      signed: Boolean(signature),
      configured: Boolean(authToken && url),
    });
    return FORBIDDEN;
  }
  const token = event.queryStringParameters?.[RELAY_TOKEN_PARAMETER];
  if (!isRelayTokenShaped(token)) {
    deps.logger.warn('Relay socket refused: its URL carries no relay token', { connectionId: event.requestContext.connectionId });
    return FORBIDDEN;
  }
  await deps.relayTokens.hold(event.requestContext.connectionId, relayTokenHash(token), deps.clock.now());
  return OK;
}

/** The URL Twilio signed: the relay URL of PUBLIC_BASE_URL, with the query the TwiML gave it (the call's token). */
function signedUrlOf(publicBaseUrl: string, query: SocketEvent['queryStringParameters']): string {
  const params = Object.entries(query ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return `${relayUrlOf(publicBaseUrl)}${params.length > 0 ? `?${new URLSearchParams(params).toString()}` : ''}`;
}

async function onMessage(deps: RelayDependencies, connectionId: string, body: string): Promise<void> {
  let message: InboundMessage | { type: 'other'; name: string };
  try {
    message = parseInboundMessage(body);
  } catch (error) {
    if (!(error instanceof RelayProtocolError)) throw error;
    if (!(await deps.sessions.get(connectionId))) return refuse(deps, connectionId, 'the first message must be a valid setup');
    deps.logger.warn('Relay message ignored: not one ConversationRelay sends', { connectionId, problem: error.message });
    return;
  }
  if (message.type === 'setup') return setup(deps, connectionId, message);
  const session = await deps.sessions.get(connectionId);
  if (!session) return refuse(deps, connectionId, 'the first message must be a setup');
  if (session.ended_at) return;
  switch (message.type) {
    case 'prompt':
      if (message.last === false) return;
      return prompt(deps, session, message.voicePrompt);
    case 'interrupt':
      return interrupt(deps, session, message.utteranceUntilInterrupt ?? '');
    case 'dtmf':
      return keep(deps, session, [
        { role: 'user', content: `Pressed ${message.digit} on the keypad.`, dtmf: message.digit, at: iso(deps.clock.now()) },
      ]);
    case 'error':
      deps.logger.warn('ConversationRelay reported an error', {
        connectionId,
        commandId: session.command_id,
        description: cutAt(cleanText(message.description ?? ''), 300),
      });
      return;
    default:
      deps.logger.info('Relay message of a type the assistant does not use, ignored', { connectionId, type: message.name });
  }
}

/** `setup`: binds the socket to its command's call, or closes it with the reason. */
async function setup(deps: RelayDependencies, connectionId: string, message: Extract<InboundMessage, { type: 'setup' }>): Promise<void> {
  const existing = await deps.sessions.get(connectionId);
  if (existing) {
    deps.logger.warn('Repeated setup on a relay socket, ignored', { connectionId });
    return;
  }
  const commandId = message.customParameters?.command_id?.trim().toLowerCase();
  if (!commandId || !isUuid(commandId)) return refuse(deps, connectionId, 'setup names no command (command_id)');
  const command = await deps.commands.get<CallCommandFields>(commandId);
  if (!command) return refuse(deps, connectionId, 'unknown command');
  let brief: CallBrief;
  try {
    brief = readCallBrief(command);
  } catch (error) {
    if (error instanceof NotACallError) return refuse(deps, connectionId, 'the command is not a stakeholder call');
    throw error;
  }
  if (!brief.callSid || brief.callSid !== message.callSid) return refuse(deps, connectionId, 'the call is not the call of this command');
  if ((brief.callStatus && isFinalCallStatus(brief.callStatus as CallStatus)) || brief.summaryRequested)
    return refuse(deps, connectionId, 'the call has ended');
  const refusal = await spendRelayToken(deps, connectionId, command.id, brief.callSid, command.relay);
  if (refusal) return refuse(deps, connectionId, refusal);

  const now = deps.clock.now();
  const session: RelaySession = {
    connection_id: connectionId,
    command_id: command.id,
    tenant_id: command.tenant_id,
    call_sid: brief.callSid,
    started_at: iso(now),
    brief: { pre_call_prompt: brief.preCallPrompt, meeting: brief.meeting },
  };
  if (!(await deps.sessions.start(session, now))) return;
  // Twilio speaks the welcome greeting of the TwiML as the socket opens: it is the transcript's first line.
  const greeting = openingLine(brief.preCallPrompt);
  if (brief.transcript.length === 0 && greeting) {
    await deps.transcripts.append(command.id, brief.callSid, [
      { role: 'assistant', content: greeting, at: iso(now), source: 'welcome_greeting' },
    ]);
  }
  deps.logger.info('Relay session started', { connectionId, commandId: command.id });
}

/**
 * Spends the call's relay token for this socket: the one its URL carried
 * (held at `$connect`) must be the call's, and unspent. Undefined once
 * spent; else why the socket is refused.
 */
async function spendRelayToken(
  deps: RelayDependencies,
  connectionId: string,
  commandId: string,
  callSid: string,
  stored: unknown,
): Promise<string | undefined> {
  const held = await deps.relayTokens.held(connectionId);
  if (!held) return 'the socket carries no relay token';
  const grant = grantSchema.safeParse(stored).data;
  if (!grant || !sameRelayTokenHash(held, grant.token_hash)) return 'the relay token is not the token of this call';
  if (grant.spent_at || !(await deps.relayTokens.spend(commandId, callSid, held, connectionId, deps.clock.now())))
    return 'the relay token was used already: one socket per call';
  return undefined;
}

/** The call's relay grant as stored (written by the call phase), read by shape. */
const grantSchema = z.object({ token_hash: z.string(), spent_at: z.optional(z.string()) });

/**
 * A final `prompt`: one turn of the conversation, at one write. The turn
 * reads the transcript alone (the brief is in the session), speaks the
 * reply as it streams, then keeps the caller's words and the reply in one
 * conditional update. If the socket drops midway the turn still runs to
 * that write (a Lambda invocation is not cut by its socket's close), with
 * what was spoken, so the caller's words are kept, even when AWS ran the
 * `$disconnect` beside the turn and the summary was requested first: the
 * transcript takes writes for the grace after that (TRANSCRIPT_GRACE_SECONDS,
 * longer than this function's timeout), and the summary waits as long.
 * An `interrupt` does not stop a reply still streaming: the local socket
 * server hands a socket's messages over one after another, and in AWS the
 * interrupt runs in another invocation, which could tell this one only
 * through a table read per chunk. Twilio stops the playback the caller
 * spoke over. The transcript keeps only what was spoken: `interrupt` cuts
 * the kept reply, or, for a reply still streaming (AWS), holds the cut for
 * this turn's write, which applies it in the same one write.
 */
async function prompt(deps: RelayDependencies, session: RelaySession, voicePrompt: string): Promise<void> {
  const words = cutAt(cleanText(voicePrompt).replace(/\s+/g, ' ').trim(), RELAY_LIMITS.maxPromptCharacters);
  if (words.length === 0) return;
  const [brief, history] = await Promise.all([briefOf(deps, session), deps.transcripts.read(session.command_id, session.call_sid)]);
  if (!brief || history === 'closed' || history === 'refused') return finish(deps, session, 'the call has ended');

  const heard: TranscriptEntry = { role: 'user', content: words, at: iso(deps.clock.now()) };
  const transcript = [...history.entries, heard];
  const limit =
    !hasRoomForTurn(history, heard) || callerTurns(transcript) > RELAY_LIMITS.maxCallerTurns
      ? 'We have reached the length limit of this call.'
      : deps.clock.now() - Date.parse(session.started_at) > RELAY_LIMITS.maxCallSeconds * 1000
        ? 'We have reached the time limit of this call.'
        : undefined;
  const speak = (token: string, last: boolean) => send(deps, session, textMessage(token, last));
  // A limit's goodbye asks no model.
  // What the turn's model call used counts on the call's command (a socket message is never redelivered: counted once).
  const meter = new UsageMeter({ commandId: session.command_id, tenantId: session.tenant_id, type: 'stakeholder_coordination' });
  const llm = limit ? createOfflineLlm() : await deps.llm();
  const turn = await withUsageMeter(meter, () => speakTurn(llm, brief, transcript, speak, limit));
  await countTurn(deps, meter);
  if (turn.fallbackReason)
    deps.logger.warn('Turn not answered by the model alone', { commandId: session.command_id, reason: turn.fallbackReason });

  const said: TranscriptEntry[] =
    turn.reply.length === 0
      ? []
      : [{ role: 'assistant', content: turn.reply, at: iso(deps.clock.now()), generated_by: turn.generatedBy, model: turn.model }];
  const kept = await deps.transcripts.append(session.command_id, session.call_sid, [heard, ...said]);
  if (kept !== 'appended')
    deps.logger.warn('Turn not kept in the transcript', { commandId: session.command_id, outcome: kept, delivered: turn.delivered });
  if (!turn.delivered) return;
  if (turn.endCall) await finish(deps, session, limit ? 'limit_reached' : 'conversation_ended');
}

/** Writes what a turn used; a failure to count never fails the call (it is logged). */
async function countTurn(deps: RelayDependencies, meter: UsageMeter): Promise<void> {
  const used = meter.take();
  // The offline writer's turns cost nothing: no write for them (the call's command shows the offline label from its phases).
  if (Object.values(used).every((amount) => amount === 0)) return;
  try {
    await deps.usage?.(meter.target, used, deps.clock.now());
  } catch (error) {
    deps.logger.warn('Turn usage not counted', { commandId: meter.target.commandId, error: describeError(error) });
  }
}

/**
 * Whether the transcript has room for this turn: the caller's words and the
 * longest reply (three bytes a character), by entries and by bytes; else
 * the assistant closes the call now rather than speak a reply it cannot keep.
 */
function hasRoomForTurn(history: OpenTranscript, heard: TranscriptEntry): boolean {
  const replyBytes = 1 + RELAY_LIMITS.maxReplyCharacters * 3 + REPLY_FIELDS_BYTES;
  return (
    history.entries.length + 2 <= RELAY_LIMITS.maxTranscriptEntries &&
    history.bytes + 1 + valueSize(heard) + replyBytes <= RELAY_LIMITS.maxTranscriptBytes
  );
}

/** What a reply entry's fields other than its content take (names, role, time, label, model id). */
const REPLY_FIELDS_BYTES = 200;

/** `interrupt`: the caller spoke over the last reply; the transcript keeps only what was spoken of it. */
async function interrupt(deps: RelayDependencies, session: RelaySession, utterance: string): Promise<void> {
  const history = await deps.transcripts.read(session.command_id, session.call_sid);
  if (history === 'closed' || history === 'refused') return;
  const spoken = cleanText(utterance).replace(/\s+/g, ' ').trim();
  const index = history.entries.length - 1;
  const last = history.entries[index];
  if (last?.role === 'assistant' && !last.interrupted && startsWithWords(last.content, spoken)) {
    if (spoken.length >= last.content.length) return;
    const cut = await deps.transcripts.cutReply(session.command_id, session.call_sid, index, history.entries.length, spoken);
    deps.logger.info('Reply interrupted', { commandId: session.command_id, kept: spoken.length, of: last.content.length, recorded: cut });
    return;
  }
  // In AWS an interrupt can arrive while its reply still streams, before the turn's write: the last reply kept is then
  // another one, which must not be cut to this reply's words. The cut is held on the command for the turn's write.
  const held = await deps.transcripts.holdCut(session.command_id, session.call_sid, spoken, deps.clock.now());
  deps.logger.info('Interrupt of a reply not yet kept, held for its write', { commandId: session.command_id, kept: spoken.length, held });
}

/** Keeps entries that need no answer (a keypress). */
async function keep(deps: RelayDependencies, session: RelaySession, entries: TranscriptEntry[]): Promise<void> {
  const kept = await deps.transcripts.append(session.command_id, session.call_sid, entries);
  if (kept === 'closed' || kept === 'refused') await finish(deps, session, 'the call has ended');
}

/** `$disconnect`: the socket closed (hung up, dropped, or after `end`); the call's summary is queued once. */
async function disconnect(deps: RelayDependencies, connectionId: string): Promise<void> {
  const session = await deps.sessions.get(connectionId);
  if (!session) return;
  await deps.sessions.end(connectionId, deps.clock.now());
  const outcome = await requestMeetingSummary(deps, session.command_id);
  deps.logger.info('Relay session closed', { connectionId, commandId: session.command_id, summary: outcome });
}

/**
 * Ends the session from this side: `end` to Twilio (which hangs up), the
 * session marked ended, and the summary queued (once; the `$disconnect`
 * that follows finds it queued).
 */
async function finish(deps: RelayDependencies, session: RelaySession, reason: string): Promise<void> {
  await send(deps, session, endMessage({ reason, command_id: session.command_id }));
  await deps.sessions.end(session.connection_id, deps.clock.now());
  await requestMeetingSummary(deps, session.command_id);
}

/** Sends a message; false when the socket is gone (the call is over: its `$disconnect` queues the summary). */
async function send(deps: RelayDependencies, session: RelaySession, message: OutboundMessage): Promise<boolean> {
  try {
    await deps.connections.send(session.connection_id, message);
    return true;
  } catch (error) {
    if (!(error instanceof ConnectionGoneError)) throw error;
    deps.logger.info('Relay socket gone before a message could be sent', { connectionId: session.connection_id, type: message.type });
    return false;
  }
}

/** Closes a socket that did not prove it belongs to a call of this service. */
async function refuse(deps: RelayDependencies, connectionId: string, reason: string): Promise<void> {
  deps.logger.warn('Relay socket closed', { connectionId, reason });
  try {
    await deps.connections.close(connectionId, CLOSE_CODES.policyViolation, reason);
  } catch (error) {
    if (!(error instanceof ConnectionGoneError)) throw error;
  }
}

/**
 * What the turn needs of the call: the brief the session keeps, or (for a
 * session set up before it kept one) the command's, undefined when the
 * command is gone, is no call, or its transcript is closed.
 */
async function briefOf(deps: RelayDependencies, session: RelaySession): Promise<Pick<CallBrief, 'preCallPrompt' | 'meeting'> | undefined> {
  if (session.brief) return briefFromSession(session.brief);
  const command = await deps.commands.get(session.command_id);
  if (!command) return undefined;
  try {
    const brief = readCallBrief(command);
    return brief.summaryRequested || brief.callSid !== session.call_sid ? undefined : brief;
  } catch (error) {
    if (error instanceof NotACallError) return undefined;
    throw error;
  }
}

function briefFromSession(brief: SessionBrief): Pick<CallBrief, 'preCallPrompt' | 'meeting'> {
  return { preCallPrompt: brief.pre_call_prompt, meeting: brief.meeting };
}

const iso = (ms: number) => new Date(ms).toISOString();
