import type { RelayVoiceSettings } from '../../../shared/providers/telephony/relay-settings';
import { Logger } from '@aws-lambda-powertools/logger';
import type { SQSRecord } from 'aws-lambda';
import { DEMO_DATA_FILE, importFile } from '../../../infra/local/provision';
import type { JobEnvelope } from '../../../shared/commands/job';
import type { CallCommand, CallCommandFields } from '../../../shared/calls/record';
import { dynamoCommandStore } from '../../../shared/commands/dynamo-store';
import { processJobRecord, type WorkerDependencies } from '../../../shared/commands/worker';
import { dynamoIdempotencyStore } from '../../../shared/commands/idempotency';
import { systemClock } from '../../../shared/platform/clock';
import { createOfflineLlm } from '../../../shared/providers/llm/offline';
import type { LlmClient } from '../../../shared/providers/llm/port';
import type { Telephony } from '../../../shared/providers/telephony/port';
import { dynamoConversationStore } from '../../../shared/sites/conversations';
import { dynamoSiteDirectory } from '../../../shared/sites/dynamo-directory';
import { dynamoSiteWorkStore } from '../../../shared/sites/dynamo-site-work';
import { acceptStakeholderCoordination } from '../../../shared/stakeholder-coordination/accept';
import { stakeholderCallJob, type StakeholderCallDependencies } from '../../../shared/stakeholder-coordination/call-phase';
import { dynamoCallStore, type CallStore } from '../../../shared/stakeholder-coordination/call-store';
import { inMemoryTenants, recordingQueue } from '../../unit/lead-follow-up/fixtures';
import { startEmbeddedServices, type EmbeddedServices } from '../../support/embedded';

export const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
export const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
export const PUBLIC_BASE_URL = 'https://switchboard.example.com/prod';

/** What a test may change of the worker: its model, its telephony, its call store. */
export interface WorkerOptions {
  llm?: LlmClient;
  telephony?: () => Promise<Telephony | undefined>;
  calls?: CallStore;
  /** PUBLIC_BASE_URL of the worker; `undefined` leaves it unset. @default PUBLIC_BASE_URL */
  publicBaseUrl?: string | undefined;
  /** The RELAY_* settings as read. @default DEFAULT_RELAY_VOICE */
  relayVoice?: RelayVoiceSettings;
}

/**
 * The stakeholder coordination on the embedded DynamoDB with the demo data:
 * requests accepted as the API accepts them (the call job kept, not sent),
 * and jobs delivered to the call worker through the real job runner.
 */
export async function stakeholderHarness() {
  const services: EmbeddedServices = await startEmbeddedServices();
  const { db } = services;
  const tableName = services.aws.tableName;
  await importFile(db, tableName, DEMO_DATA_FILE);
  const commands = dynamoCommandStore(db, tableName);
  const calls = dynamoCallStore(db, tableName);
  const queue = recordingQueue();
  const idempotency = dynamoIdempotencyStore(db, tableName);
  const apiDeps = {
    commands,
    idempotency,
    queue,
    clock: systemClock,
    sites: dynamoSiteDirectory(db, tableName),
    conversations: dynamoConversationStore(db, tableName),
    siteWork: dynamoSiteWorkStore(db, tableName),
    maxWaitSeconds: 0,
  };
  const workerDeps: WorkerDependencies = {
    commands,
    idempotency,
    tenants: inMemoryTenants({ 'tenant-a': [DEMO_SITE], 'tenant-b': [DEMO_SITE] }),
    queue,
    clock: systemClock,
    logger: new Logger({ logLevel: 'SILENT' }),
    leaseMs: 60_000,
    maxReceiveCount: 5,
    retryDelaysSeconds: [0],
  };
  let messages = 0;

  return {
    services,
    commands,
    calls,
    queue,
    /** Accepts a request as the API does (for `tenantId`, tenant-a by default); returns the 202 body's data and the call job it queued. */
    async accept(fields: Record<string, unknown>, headers: Record<string, string> = {}, tenantId = 'tenant-a') {
      const answer = await acceptStakeholderCoordination(apiDeps, {
        principal: { tenantId, siteIds: [DEMO_SITE], keyId: 'key-1' },
        body: { site_id: DEMO_SITE, lead_id: DEMO_LEAD, ...fields },
        headers,
      });
      const sent = queue.sent.pop();
      return {
        status: answer.statusCode,
        headers: answer.headers,
        data: (JSON.parse(answer.body) as { data: Record<string, unknown> }).data,
        job: sent?.job,
      };
    },
    /** Delivers a call job to the worker (`receiveCount` > 1: a redelivery of the same message). */
    async deliver(job: JobEnvelope, options: WorkerOptions = {}, receiveCount = 1) {
      const deps: StakeholderCallDependencies = {
        commands,
        calls: options.calls ?? calls,
        clock: systemClock,
        llm: async () => options.llm ?? createOfflineLlm(),
        telephony: options.telephony ?? (async () => undefined),
        ...(options.relayVoice ? { relayVoice: options.relayVoice } : {}),
        ...('publicBaseUrl' in options
          ? options.publicBaseUrl
            ? { publicBaseUrl: options.publicBaseUrl }
            : {}
          : { publicBaseUrl: PUBLIC_BASE_URL }),
      };
      messages += 1;
      const record = {
        messageId: `message-${messages}`,
        body: JSON.stringify(job),
        attributes: { ApproximateReceiveCount: String(receiveCount) },
        messageAttributes: {},
      };
      await processJobRecord(stakeholderCallJob(deps), workerDeps, record as unknown as SQSRecord);
    },
    async command(id: string): Promise<CallCommand> {
      const found = await commands.get<CallCommandFields>(id);
      if (!found) throw new Error(`no command ${id}`);
      return found;
    },
    stop: () => services.stop(),
  };
}

export type StakeholderHarness = Awaited<ReturnType<typeof stakeholderHarness>>;
