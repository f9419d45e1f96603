import type { Logger } from '@aws-lambda-powertools/logger';
import type { CallCommandFields } from '../calls/record';
import type { CommandStore } from '../commands/store';
import { AppError } from '../platform/errors';
import type { HttpEvent, HttpResult } from '../platform/http/types';
import { isUuid } from '../platform/ids';
import { cleanText } from '../platform/text';
import { publicUrlOf } from '../providers/telephony/public-urls';
import { isValidTwilioSignature } from '../providers/telephony/signature';
import { HANGUP_TWIML } from '../providers/telephony/twiml';
import { RELAY_ENDED_PATH } from './call-status-path';
import { formParameters } from './twilio-form';

/** What the `<Connect action>` webhook works with. */
export interface RelayEndedWebhookDependencies {
  commands: Pick<CommandStore, 'get'>;
  /** TWILIO_AUTH_TOKEN, resolved on first use; undefined when telephony is not configured (then every request is refused). */
  authToken: () => Promise<string | undefined>;
  /** PUBLIC_BASE_URL: the URL Twilio signed is rebuilt from it, never from the Host header. Without it every request is refused. */
  publicBaseUrl?: string;
  /**
   * Told that the relay session of the command's call ended: the call's
   * post-call summary is requested. Must be idempotent (the socket's close
   * and the completed status callback tell it too).
   */
  onSessionEnded: (commandId: string) => Promise<void>;
  logger?: Pick<Logger, 'info' | 'warn'>;
}

/** A Twilio CallSid. */
const CALL_SID = /^CA[0-9a-f]{32}$/i;
/** Longest value of Twilio's session report kept in a log line (characters). */
const MAX_LOGGED_VALUE = 200;

/**
 * Use case: `POST /webhooks/twilio/relay-ended?command_id=…`, where Twilio
 * reports that a call's ConversationRelay session ended (the TwiML's
 * `<Connect action>`: form parameters `CallSid`, `SessionStatus`,
 * `SessionDuration`, `HandoffData`, `ErrorCode`, …). No API key: its check is
 * X-Twilio-Signature over PUBLIC_BASE_URL + this path + the query (403
 * FORBIDDEN otherwise, nothing done). For the command's own call it
 * requests the post-call summary (exactly once, however many of the
 * socket's close, the status callback and this report say so), and it
 * answers TwiML that hangs up, the call having nothing more to do.
 */
export async function answerRelayEnded(deps: RelayEndedWebhookDependencies, event: HttpEvent): Promise<HttpResult> {
  const params = formParameters(event);
  const signature = event.headers?.['x-twilio-signature'];
  const authToken = await deps.authToken();
  const url = deps.publicBaseUrl
    ? publicUrlOf(deps.publicBaseUrl, `${RELAY_ENDED_PATH}${event.rawQueryString ? `?${event.rawQueryString}` : ''}`)
    : undefined;
  if (!authToken || !url || !isValidTwilioSignature(authToken, signature, url, params)) {
    deps.logger?.warn('Relay session report refused: its signature does not match', {
      signed: Boolean(signature),
      configured: Boolean(authToken && url),
    });
    throw new AppError('FORBIDDEN', 'The request is not signed by Twilio for this service.');
  }
  const commandId = event.queryStringParameters?.command_id?.toLowerCase();
  if (!commandId || !isUuid(commandId)) {
    throw new AppError('INVALID_REQUEST', 'The action URL names no command (command_id).', [
      { code: 'invalid_format', message: 'Invalid UUID', path: ['command_id'] },
    ]);
  }
  const callSid = params.CallSid;
  if (!callSid || !CALL_SID.test(callSid)) {
    throw new AppError('INVALID_REQUEST', 'The report names no call (CallSid).', [
      { code: 'invalid_format', message: 'Invalid CallSid', path: ['CallSid'] },
    ]);
  }

  const session = {
    commandId,
    sessionStatus: shown(params.SessionStatus),
    sessionDurationSeconds: shown(params.SessionDuration),
    errorCode: shown(params.ErrorCode),
    errorMessage: shown(params.ErrorMessage),
    handoffData: shown(params.HandoffData),
  };
  const call = (await deps.commands.get<CallCommandFields>(commandId))?.call;
  if (call?.provider_call_id !== callSid) {
    deps.logger?.warn('Relay session report for a call the command does not hold: nothing requested', session);
  } else {
    await deps.onSessionEnded(commandId);
    deps.logger?.info('Relay session ended: post-call summary requested', session);
  }
  return { statusCode: 200, headers: { 'content-type': 'text/xml; charset=utf-8', 'cache-control': 'no-store' }, body: HANGUP_TWIML };
}

/** A value of Twilio's report as a log line may hold it: plain, bounded; undefined when absent. */
function shown(value: string | undefined): string | undefined {
  return value === undefined ? undefined : cleanText(value).replace(/\s+/g, ' ').trim().slice(0, MAX_LOGGED_VALUE);
}
