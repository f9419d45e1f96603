import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeleteMessageCommand, ReceiveMessageCommand, type Message } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { lambdaContext } from '../../../infra/local/lambda-context';
import { build as buildSummaryWorker } from '../../../functions/workers/post-call-summary';
import { attachRelaySocket, type LocalRelay, type SocketHandler } from '../../../infra/local/relay-server';
import { openRelayCaller, type RelayCaller } from '../../../infra/local/relay-caller';
import { signTwilioRequest } from '../../../infra/local/twilio-wire';
import { build as buildRelay } from '../../../functions/webhooks/relay';
import { build as buildCallStatusWebhook } from '../../../functions/webhooks/twilio-call-status';
import { queueById } from '../../../shared/catalogue/job-types';
import { TABLE } from '../../../shared/catalogue/table';
import type { Settings } from '../../../shared/composition/settings';
import type { Telephony } from '../../../shared/providers/telephony/port';
import { relayUrlOf } from '../../../shared/providers/telephony/public-urls';
import { eventually } from '../../support/embedded';
import { stakeholderHarness, type StakeholderHarness } from '../stakeholder-coordination/harness';
import { sqsEventOf } from '../../../infra/local/sqs-poller';

/** The auth token the relay checks signatures with (the `twilio` secret, from the settings locally). */
export const AUTH_TOKEN = 'voice-relay-test-auth-token';

/** A telephony that takes every call, each with a new Twilio-shaped sid, keeping the TwiML of each. */
export function acceptingTelephony(): Telephony & { sids: string[]; twimlOf: Map<string, string> } {
  const sids: string[] = [];
  const twimlOf = new Map<string, string>();
  return {
    provider: 'local',
    sids,
    twimlOf,
    async placeCall(call) {
      const sid = `CA${(sids.length + 1).toString(16).padStart(32, '0')}`;
      sids.push(sid);
      twimlOf.set(sid, call.twiml);
      return { sid, status: 'queued', provider: 'local' };
    },
  };
}

/** An attribute of the TwiML's `<ConversationRelay>` or `<Connect>` (XML entities decoded). */
export function twimlAttribute(twiml: string, element: 'ConversationRelay' | 'Connect', name: string): string | undefined {
  const attributes = new RegExp(`<${element}\\b([^>]*)>`).exec(twiml)?.[1] ?? '';
  const raw = new RegExp(`\\b${name}="([^"]*)"`).exec(attributes)?.[1];
  return raw
    ?.replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&amp;/g, '&');
}

/** A placed call: its command, its CallSid, and its own relay URL (`…/relay?token=…`, from its TwiML). */
export interface PlacedCall {
  commandId: string;
  callSid: string;
  relayUrl: string;
}

/**
 * The relay socket function (functions/webhooks/relay.ts, composed with its
 * settings) behind the local socket server on a plain HTTP server, over the
 * embedded DynamoDB and SQS with the demo data, and stakeholder commands
 * whose calls were placed (the real accept path and call worker).
 * `options.events: 'at-once'` hands each socket event over as it comes,
 * beside a turn still running, as API Gateway does.
 */
export async function voiceHarness(extraSettings: Settings = {}, options: { events?: 'in-order' | 'at-once' } = {}) {
  const stakeholder: StakeholderHarness = await stakeholderHarness();
  const { services } = stakeholder;
  const server: Server = createServer((_req, res) => res.writeHead(404).end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const publicBaseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const relayUrl = relayUrlOf(publicBaseUrl);
  const summaryQueue = services.aws.queues.summary;
  const settings: Settings = {
    AWS_REGION: services.aws.region,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: services.aws.dynamodbEndpoint,
    AWS_ENDPOINT_URL_SQS: services.aws.sqsEndpoint,
    [TABLE.envVar]: services.aws.tableName,
    [queueById('summary').urlEnvVar]: summaryQueue.url,
    PUBLIC_BASE_URL: publicBaseUrl,
    TWILIO_AUTH_TOKEN: AUTH_TOKEN,
    LOG_LEVEL: 'SILENT',
    POWERTOOLS_METRICS_DISABLED: 'true',
    ALLOW_OFFLINE_PROVIDERS: 'true',
    ...extraSettings,
  };
  const composed: { handler?: SocketHandler } = {};
  const relay: LocalRelay = attachRelaySocket(server, {
    path: new URL(relayUrl).pathname,
    functionName: 'conversationRelayWebhook',
    timeoutSeconds: 29,
    handler: (event, context) => composed.handler!(event, context),
    onError: () => undefined,
    ...(options.events ? { events: options.events } : {}),
  });
  composed.handler = buildRelay(settings, { relayConnections: relay.connections });
  const telephony = acceptingTelephony();
  const seenSummaryJobs = new Map<string, Message>();

  return {
    stakeholder,
    services,
    relayUrl,
    relay,
    telephony,
    /** A stakeholder command whose call was placed: its id, its call's sid and its relay URL. */
    async placedCall(fields: Record<string, unknown> = {}): Promise<PlacedCall> {
      const accepted = await stakeholder.accept({
        meeting_agenda: ['Winter campaign results', 'Budget for January'],
        phone_numbers: ['+14155550123'],
        ...fields,
      });
      await stakeholder.deliver(accepted.job!, { telephony: async () => telephony });
      const command = await stakeholder.command(String(accepted.data.command_id));
      const callSid = command.call!.provider_call_id!;
      // The call worker's PUBLIC_BASE_URL is not this server's: the call's URL is this relay's, with the query the TwiML gave it.
      const given = new URL(twimlAttribute(telephony.twimlOf.get(callSid)!, 'ConversationRelay', 'url')!);
      return { commandId: command.id, callSid, relayUrl: `${relayUrl}${given.search}` };
    },
    /**
     * Opens the socket at `url` (a call's relay URL; default: the bare relay URL) as ConversationRelay does: the upgrade signed
     * over that URL (or with `signature` as given; null: unsigned).
     */
    connect(signature?: string | null, url: string = relayUrl): Promise<RelayCaller> {
      return openRelayCaller(url, (signature === undefined ? signTwilioRequest(AUTH_TOKEN, url, {}) : signature) ?? undefined);
    },
    /** A connected socket after a `setup` for the call, at the call's own relay URL. */
    async answered(call: Pick<PlacedCall, 'commandId' | 'callSid'> & { relayUrl?: string }): Promise<RelayCaller> {
      const url = call.relayUrl ?? relayUrl;
      const caller = await openRelayCaller(url, signTwilioRequest(AUTH_TOKEN, url, {}));
      caller.setup(call.callSid, { command_id: call.commandId });
      return caller;
    },
    /** The summary jobs on the summary queue so far (each message once, left on the queue). */
    async summaryJobs(): Promise<{ command_id: string; type: string }[]> {
      for (let round = 0; round < 3; round++) {
        const { Messages = [] } = await services.aws.sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: summaryQueue.url,
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: 0,
            VisibilityTimeout: 0,
            AttributeNames: ['All'],
          }),
        );
        for (const message of Messages) seenSummaryJobs.set(message.MessageId!, message);
      }
      return [...seenSummaryJobs.values()].map((message) => JSON.parse(message.Body!) as { command_id: string; type: string });
    },
    /**
     * Hands the jobs on the summary queue to the post-call summary worker
     * (functions/workers/post-call-summary.ts composed with `extra` settings)
     * as Lambda's event source does, until the queue is empty.
     */
    async drainSummaries(extra: Settings = {}): Promise<void> {
      const worker = buildSummaryWorker({
        ...settings,
        [queueById('summary').dlqUrlEnvVar]: summaryQueue.dlqUrl,
        // It publishes meeting_summary.created (no endpoint is registered here: nothing is queued).
        [queueById('webhooks').urlEnvVar]: services.aws.queues.webhooks.url,
        // It queues the summary's note on a lead's CRM contact (no tenant here is connected: the job would skip it).
        [queueById('crmsync').urlEnvVar]: services.aws.queues.crmsync.url,
        ...extra,
      });
      // The summary is marked requested before its child command is written and its job queued: a drain that
      // starts in between waits (a few seconds at most) for the job rather than finding the queue empty.
      const firstJobBy = Date.now() + 5_000;
      let handled = 0;
      for (let round = 0; round < 10; round++) {
        const { Messages = [] } = await services.aws.sqs.send(
          new ReceiveMessageCommand({ QueueUrl: summaryQueue.url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, AttributeNames: ['All'] }),
        );
        const unique = [...new Map(Messages.map((message) => [message.MessageId, message])).values()];
        if (unique.length === 0 && handled === 0 && Date.now() < firstJobBy) {
          round -= 1;
          await new Promise((resolve) => setTimeout(resolve, 50));
          continue;
        }
        if (unique.length === 0) return;
        handled += unique.length;
        const answer = await worker(sqsEvent(unique), lambdaContext('postCallSummaryWorker', 120));
        const failed = new Set(answer.batchItemFailures.map((failure) => failure.itemIdentifier));
        for (const message of unique) {
          if (!failed.has(message.MessageId!))
            await services.aws.sqs.send(new DeleteMessageCommand({ QueueUrl: summaryQueue.url, ReceiptHandle: message.ReceiptHandle! }));
        }
      }
      throw new Error('The summary queue did not drain');
    },
    async stop() {
      await relay.close(1_000);
      // Every socket event still being handled ends before the services it writes to stop (nothing runs on after the file).
      await relay.settled();
      await new Promise((resolve) => server.close(resolve));
      await stakeholder.stop();
    },
  };
}

export type VoiceHarness = Awaited<ReturnType<typeof voiceHarness>>;

/** A call with a short conversation, hung up: resolves once its summary is queued, with the summary's child command id. */
export async function finishedCall(voice: VoiceHarness, lines: readonly string[]): Promise<{ commandId: string; childId: string }> {
  const call = await voice.placedCall();
  const caller = await voice.answered(call);
  for (const line of lines) await caller.say(line);
  caller.close();
  const stored = await eventually(
    async () => {
      const current = await voice.stakeholder.command(call.commandId);
      return current.meeting_summary?.command_id ? current : undefined;
    },
    15_000,
    'the summary to be queued',
  );
  return { commandId: call.commandId, childId: stored.meeting_summary!.command_id! };
}

/**
 * The status-callback function (call status and the relay's end-of-session report) composed on the harness's embedded AWS,
 * checking Twilio signatures against `publicBaseUrl` with AUTH_TOKEN; `overrides` changes settings (a queue that is not there).
 */
export function callStatusWebhookOf(voice: VoiceHarness, publicBaseUrl: string, overrides: Settings = {}) {
  const { aws } = voice.services;
  return buildCallStatusWebhook({
    AWS_REGION: aws.region,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: aws.dynamodbEndpoint,
    AWS_ENDPOINT_URL_SQS: aws.sqsEndpoint,
    [TABLE.envVar]: aws.tableName,
    [queueById('summary').urlEnvVar]: aws.queues.summary.url,
    [queueById('webhooks').urlEnvVar]: aws.queues.webhooks.url,
    PUBLIC_BASE_URL: publicBaseUrl,
    TWILIO_AUTH_TOKEN: AUTH_TOKEN,
    LOG_LEVEL: 'SILENT',
    POWERTOOLS_METRICS_DISABLED: 'true',
    ...overrides,
  });
}

function sqsEvent(messages: Message[]): SQSEvent {
  return sqsEventOf(messages, { queueArn: 'arn:aws:sqs:us-east-1:000000000000:switchboard-summary', region: 'us-east-1' });
}
