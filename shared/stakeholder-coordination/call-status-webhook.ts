import type { Logger } from '@aws-lambda-powertools/logger';
import { NOTHING_STAGED, type EventPublisher, type StagedEvents } from '../commands/events';
import { isFinalCallStatus, type CallCommandFields, type CallRecord } from '../calls/record';
import type { CommandStore } from '../commands/store';
import type { Clock } from '../platform/clock';
import { AppError } from '../platform/errors';
import { describeError } from '../platform/logger';
import type { HttpEvent, HttpResult } from '../platform/http/types';
import { isUuid } from '../platform/ids';
import { parseStatusCallback, StatusCallbackError, type StatusCallback } from '../providers/telephony/call-status';
import { isValidTwilioSignature } from '../providers/telephony/signature';
import { publicUrlOf } from '../providers/telephony/public-urls';
import { CALL_STATUS_PATH } from './call-status-path';
import type { CallStatusUpdate, CallStore } from './call-store';
import { formParameters } from './twilio-form';

/** What the status callback webhook works with. */
export interface CallStatusWebhookDependencies {
  calls: Pick<CallStore, 'applyStatus'>;
  /** TWILIO_AUTH_TOKEN, resolved on first use; undefined when telephony is not configured. */
  authToken: () => Promise<string | undefined>;
  /** PUBLIC_BASE_URL: the URL Twilio signed is rebuilt from it, never from the Host header. Without it every callback is refused. */
  publicBaseUrl?: string;
  clock: Clock;
  logger?: Pick<Logger, 'info' | 'warn'>;
  /**
   * The tenant's webhooks hear of each callback applied (`call.status_changed`); the command is read for its tenant and call. @default none
   */
  events?: { publisher: EventPublisher; commands: Pick<CommandStore, 'get'> };
  /**
   * Told when a callback finds the command's call `completed`: the backstop
   * of the post-call summary, whose other trigger (the relay socket's close,
   * API Gateway's best-effort `$disconnect`) may never come. `onCallEnded`
   * must be idempotent: it is told on the callback that completed the call,
   * and again on every repeat of it (Twilio's retries), while the call the
   * command holds is that completed call (read through `commands`); never
   * for a call the command does not hold. @default none
   */
  callEnded?: { commands: Pick<CommandStore, 'get'>; onCallEnded: (commandId: string) => Promise<void> };
}

/** Why a failed call failed, in words, from Twilio's status. */
const FAILURE_REASONS: Readonly<Record<string, string>> = {
  busy: 'the line was busy',
  'no-answer': 'nobody answered',
  canceled: 'the call was canceled before it was answered',
  failed: 'the provider could not connect the call',
};

/** The answer Twilio gets when the callback was taken (applied, or a repeat or late one ignored): 204, nothing to say. */
const TAKEN: HttpResult = { statusCode: 204, headers: { 'cache-control': 'no-store' }, body: '' };

/**
 * Use case: `POST /webhooks/twilio/call-status?command_id=…`, a Twilio
 * status callback. No API key: its own check is X-Twilio-Signature,
 * validated against PUBLIC_BASE_URL + this path + the query (the URL the
 * worker gave Twilio), never the Host header; an unsigned or forged one
 * answers 403 FORBIDDEN and changes nothing. A signed one is applied by one
 * conditional update of the command's call (CallStore.applyStatus): only
 * to the call it names, only when newer than the last applied
 * (SequenceNumber), never out of a final state. Repeated and out-of-order
 * callbacks (Twilio retries) answer 204 like applied ones, so every
 * callback is idempotent.
 *
 * A `completed` callback then tells `callEnded` (the post-call summary's
 * backstop). Its failure is not swallowed: the status is already written,
 * the callback answers 500, and Twilio's retry of it (the status write a
 * no-op then) tells `callEnded` again. A lost summary request costs more
 * than one repeated, idempotent callback; the webhook stays fast (a read and
 * at most two conditional writes and one queue send).
 */
export async function answerCallStatus(deps: CallStatusWebhookDependencies, event: HttpEvent): Promise<HttpResult> {
  const params = formParameters(event);
  const signature = event.headers?.['x-twilio-signature'];
  const authToken = await deps.authToken();
  const url = deps.publicBaseUrl
    ? publicUrlOf(deps.publicBaseUrl, `${CALL_STATUS_PATH}${event.rawQueryString ? `?${event.rawQueryString}` : ''}`)
    : undefined;
  if (!authToken || !url || !isValidTwilioSignature(authToken, signature, url, params)) {
    deps.logger?.warn('Call status callback refused: its signature does not match', {
      signed: Boolean(signature),
      configured: Boolean(authToken && url),
    });
    throw new AppError('FORBIDDEN', 'The request is not signed by Twilio for this service.');
  }

  const commandId = event.queryStringParameters?.command_id?.toLowerCase();
  if (!commandId || !isUuid(commandId)) {
    throw new AppError('INVALID_REQUEST', 'The callback URL names no command (command_id).', [
      { code: 'invalid_format', message: 'Invalid UUID', path: ['command_id'] },
    ]);
  }
  let callback: StatusCallback;
  try {
    callback = parseStatusCallback(params);
  } catch (error) {
    if (error instanceof StatusCallbackError) throw new AppError('INVALID_REQUEST', error.message);
    throw error;
  }

  const update = {
    providerCallId: callback.callSid,
    status: callback.state,
    providerStatus: callback.callStatus,
    sequence: callback.sequenceNumber,
    ...(callback.durationSeconds === undefined ? {} : { durationSeconds: callback.durationSeconds }),
    ...(callback.answeredBy === undefined ? {} : { answeredBy: callback.answeredBy }),
    ...(callback.state === 'failed' ? { reason: FAILURE_REASONS[callback.callStatus] ?? `the call ended as ${callback.callStatus}` } : {}),
  };
  const now = deps.clock.now();
  const staged = deps.events ? await stageCallStatus(deps.events, commandId, update, now) : NOTHING_STAGED;
  const applied = await deps.calls.applyStatus(commandId, update, now, staged.items);
  deps.logger?.info(
    applied ? 'Call status applied' : 'Call status ignored (repeated, out of order, after a final state, or another call)',
    {
      commandId,
      callStatus: callback.callStatus,
      sequence: callback.sequenceNumber,
      final: isFinalCallStatus(callback.state),
    },
  );
  if (applied) await staged.deliver();
  if (deps.callEnded && callback.state === 'completed') await tellCallEnded(deps.callEnded, commandId, callback, applied, deps.logger);
  return TAKEN;
}

/**
 * Tells `callEnded` of a completed call: when this callback completed it, or
 * is a repeat of the callback that did (same call, command's call completed).
 */
async function tellCallEnded(
  callEnded: NonNullable<CallStatusWebhookDependencies['callEnded']>,
  commandId: string,
  callback: StatusCallback,
  applied: boolean,
  logger: CallStatusWebhookDependencies['logger'],
): Promise<void> {
  if (!applied) {
    const call = (await callEnded.commands.get<CallCommandFields>(commandId))?.call;
    if (!call || call.provider_call_id !== callback.callSid || call.status !== 'completed') return;
  }
  try {
    await callEnded.onCallEnded(commandId);
  } catch (error) {
    logger?.warn('Call ended, but what follows it failed: answering 500 so that Twilio retries the callback', {
      commandId,
      error: describeError(error),
    });
    throw error;
  }
}

/**
 * Stages `call.status_changed` for the tenant's webhooks (key
 * `<command id>:call:<sequence>`), with the call as the callback leaves it,
 * to commit with the callback's own write: a callback applied always has
 * its event, one ignored (repeated, late, another call's) has none.
 */
async function stageCallStatus(
  events: NonNullable<CallStatusWebhookDependencies['events']>,
  commandId: string,
  update: CallStatusUpdate,
  now: number,
): Promise<StagedEvents> {
  const command = await events.commands.get<CallCommandFields>(commandId);
  if (!command?.call) return NOTHING_STAGED;
  const { call } = command;
  const after: CallRecord = {
    ...call,
    provider_call_id: update.providerCallId,
    status: update.status,
    provider_status: update.providerStatus,
    last_sequence: update.sequence,
    ...(update.durationSeconds === undefined ? {} : { duration_seconds: update.durationSeconds }),
    ...(update.answeredBy === undefined ? {} : { answered_by: update.answeredBy }),
    ...(update.reason === undefined ? {} : { reason: update.reason }),
    updated_at: new Date(now).toISOString(),
  };
  return events.publisher.stage([
    {
      tenantId: command.tenant_id,
      type: 'call.status_changed',
      data: { command_id: command.id, call: after },
      idempotencyKey: `${command.id}:call:${update.sequence}`,
    },
  ]);
}
