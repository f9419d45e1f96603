import { dynamoIdempotencyStore } from '../../shared/commands/idempotency';
import { readCommandRetention } from '../../shared/commands/retention';
import { dynamoCommandStore } from '../../shared/commands/dynamo-store';
import { documentClientOf, loggerOf, metricsOf, tableNameOf, tracingOf } from '../../shared/composition/adapters';
import { jobQueueOnFirstSendOf } from '../../shared/composition/job-queue-on-first-send';
import { lambdaEntry } from '../../shared/composition/lambda';
import { secretsOf } from '../../shared/composition/secrets';
import type { Settings } from '../../shared/composition/settings';
import { systemClock } from '../../shared/platform/clock';
import { optionalUrl, readConfig } from '../../shared/platform/config';
import { withMiddleware } from '../../shared/platform/handler-chain';
import { invocationLogging } from '../../shared/platform/invocation-logging';
import { twilioAuthToken } from '../../shared/providers/telephony/auth-token';
import { apiGatewayConnections } from '../../shared/voice-assistant/api-gateway-connections';
import type { RelayConnections } from '../../shared/voice-assistant/connections';
import { handleRelayEvent } from '../../shared/voice-assistant/relay';
import { dynamoRelayTokens } from '../../shared/voice-assistant/relay-tokens';
import { dynamoRelaySessions } from '../../shared/voice-assistant/sessions';
import type { SocketEvent, SocketResult } from '../../shared/voice-assistant/socket-event';
import { dynamoMeetingSummaryStore } from '../../shared/voice-assistant/summary-store';
import { readTranscriptGrace } from '../../shared/voice-assistant/transcript-grace';
import { dynamoTranscriptStore } from '../../shared/voice-assistant/transcript-store';
import { voiceLlm } from '../../shared/voice-assistant/voice-llm';
import { dynamoCommandUsageRecorder } from '../../shared/usage/dynamo-command-usage';

/** What a runtime other than Lambda gives the socket function: its own sockets (the local socket server). */
export interface RelayTransport {
  relayConnections?: RelayConnections;
}

/**
 * The ConversationRelay socket ($connect, $default, $disconnect of the
 * WebSocket API): Twilio's signed socket, the assistant's turns, the
 * transcript, the post-call job. It answers through API Gateway's
 * `@connections` API at RELAY_CONNECTIONS_URL (set by the CDK app; else the
 * stage the event came from), or through the sockets a local runtime hands it.
 */
export function build(settings: Settings, transport: RelayTransport = {}) {
  const tracing = tracingOf('conversationRelayWebhook', settings);
  const db = documentClientOf(settings, tracing);
  const tableName = tableNameOf(settings);
  const logger = loggerOf('conversationRelayWebhook', settings);
  const secrets = secretsOf('conversationRelayWebhook', settings);
  // Optional like every telephony setting: without PUBLIC_BASE_URL no signature can be checked, so every socket is refused.
  const { PUBLIC_BASE_URL, RELAY_CONNECTIONS_URL } = readConfig(
    { PUBLIC_BASE_URL: optionalUrl(), RELAY_CONNECTIONS_URL: optionalUrl() },
    settings,
  );
  let connections =
    transport.relayConnections ?? (RELAY_CONNECTIONS_URL ? apiGatewayConnections({ endpoint: RELAY_CONNECTIONS_URL }) : undefined);
  const deps = {
    commands: dynamoCommandStore(db, tableName),
    idempotency: dynamoIdempotencyStore(db, tableName),
    queue: jobQueueOnFirstSendOf('conversationRelayWebhook', settings, tracing),
    clock: systemClock,
    metrics: metricsOf('conversationRelayWebhook', settings),
    ...readCommandRetention(settings),
    ...readTranscriptGrace(settings),
    sessions: dynamoRelaySessions(db, tableName),
    relayTokens: dynamoRelayTokens(db, tableName),
    transcripts: dynamoTranscriptStore(db, tableName),
    usage: dynamoCommandUsageRecorder(db, tableName),
    summaries: dynamoMeetingSummaryStore(db, tableName),
    llm: voiceLlm(secrets, settings, { allowOffline: settings.ALLOW_OFFLINE_PROVIDERS === 'true', logger }),
    authToken: twilioAuthToken({ secrets }),
    ...(PUBLIC_BASE_URL ? { publicBaseUrl: PUBLIC_BASE_URL } : {}),
    logger,
  };
  return withMiddleware<SocketEvent, SocketResult>(
    async (event) => {
      const { domainName, stage } = event.requestContext;
      connections ??= apiGatewayConnections({ endpoint: `https://${domainName}/${stage}` });
      return handleRelayEvent({ ...deps, connections }, event);
    },
    [invocationLogging(logger)],
  );
}

export const handler = lambdaEntry(build);
