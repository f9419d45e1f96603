import { MAX_BODY_BYTES } from '../../shared/catalogue/limits';
import { dynamoIdempotencyStore } from '../../shared/commands/idempotency';
import { readCommandRetention } from '../../shared/commands/retention';
import { dynamoCommandStore } from '../../shared/commands/dynamo-store';
import { documentClientOf, loggerOf, metricsOf, tableNameOf, tracingOf } from '../../shared/composition/adapters';
import { jobQueueOnFirstSendOf } from '../../shared/composition/job-queue-on-first-send';
import { eventPublisherOf } from '../../shared/composition/events';
import { lambdaEntry } from '../../shared/composition/lambda';
import { secretsOf } from '../../shared/composition/secrets';
import type { Settings } from '../../shared/composition/settings';
import { systemClock } from '../../shared/platform/clock';
import { optionalUrl, readConfig } from '../../shared/platform/config';
import { withMiddleware } from '../../shared/platform/handler-chain';
import { bodySizeLimit, errorEnvelope } from '../../shared/platform/http/middleware';
import type { HttpEvent, HttpResult } from '../../shared/platform/http/types';
import { invocationLogging } from '../../shared/platform/invocation-logging';
import { twilioAuthToken } from '../../shared/providers/telephony/auth-token';
import { answerCallStatus } from '../../shared/stakeholder-coordination/call-status-webhook';
import { RELAY_ENDED_PATH } from '../../shared/stakeholder-coordination/call-status-path';
import { answerRelayEnded } from '../../shared/stakeholder-coordination/relay-ended-webhook';
import { dynamoCallStore } from '../../shared/stakeholder-coordination/call-store';
import { requestMeetingSummary } from '../../shared/voice-assistant/end-of-call';
import { dynamoMeetingSummaryStore } from '../../shared/voice-assistant/summary-store';
import { readTranscriptGrace } from '../../shared/voice-assistant/transcript-grace';

/**
 * POST /webhooks/twilio/call-status: Twilio's status callbacks, without an
 * API key. Its own check is the Twilio signature, against PUBLIC_BASE_URL;
 * the write is one conditional update of the command's call, then the
 * tenant's webhooks hear of it (call.status_changed). A `completed` call
 * also requests its post-call summary (the voice assistant's
 * requestMeetingSummary, exactly once with the relay socket's close): the
 * backstop for a `$disconnect` API Gateway never delivered. Should that
 * request fail, the callback answers 500 and Twilio's retry asks again.
 *
 * POST /webhooks/twilio/relay-ended: Twilio's report that a call's relay
 * session ended (the TwiML's `<Connect action>`), signed the same way:
 * requests the same post-call summary, and hangs up. One function for both,
 * as they need the same secret, table access and queue.
 */
export function build(settings: Settings) {
  const tracing = tracingOf('twilioCallStatusWebhook', settings);
  const db = documentClientOf(settings, tracing);
  const logger = loggerOf('twilioCallStatusWebhook', settings);
  // Optional like every telephony setting: without it no signature can be checked, so every callback is refused.
  const { PUBLIC_BASE_URL } = readConfig({ PUBLIC_BASE_URL: optionalUrl() }, settings);
  const tableName = tableNameOf(settings);
  const queue = jobQueueOnFirstSendOf('twilioCallStatusWebhook', settings, tracing);
  const commands = dynamoCommandStore(db, tableName);
  const events = {
    publisher: eventPublisherOf('twilioCallStatusWebhook', { db, tableName, queue, clock: systemClock }),
    commands,
  };
  const endOfCall = {
    commands,
    idempotency: dynamoIdempotencyStore(db, tableName),
    queue,
    clock: systemClock,
    metrics: metricsOf('twilioCallStatusWebhook', settings),
    ...readCommandRetention(settings),
    ...readTranscriptGrace(settings),
    summaries: dynamoMeetingSummaryStore(db, tableName),
    logger,
  };
  const summaryRequested = (trigger: string) => async (commandId: string) => {
    const outcome = await requestMeetingSummary(endOfCall, commandId);
    logger.info(`${trigger}: post-call summary requested`, { commandId, summary: outcome });
  };
  const callEnded = { commands, onCallEnded: summaryRequested('Completed call') };
  const authToken = twilioAuthToken({ secrets: secretsOf('twilioCallStatusWebhook', settings) });
  const publicBaseUrl = PUBLIC_BASE_URL ? { publicBaseUrl: PUBLIC_BASE_URL } : {};
  const deps = {
    calls: dynamoCallStore(db, tableName),
    authToken,
    ...publicBaseUrl,
    clock: systemClock,
    logger,
    events,
    callEnded,
  };
  const relayEnded = { commands, authToken, ...publicBaseUrl, onSessionEnded: summaryRequested('Relay session ended'), logger };
  return withMiddleware<HttpEvent, HttpResult>(
    async (event) => (event.routeKey === `POST ${RELAY_ENDED_PATH}` ? answerRelayEnded(relayEnded, event) : answerCallStatus(deps, event)),
    [invocationLogging(logger), errorEnvelope({ logger }), bodySizeLimit(MAX_BODY_BYTES)],
  );
}

export const handler = lambdaEntry(build);
