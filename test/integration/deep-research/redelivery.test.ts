import { DeleteMessageCommand, ReceiveMessageCommand, SendMessageCommand, type Message } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { build } from '../../../functions/workers/research';
import { lambdaContext } from '../../../infra/local/lambda-context';
import { registerKeys } from '../../../infra/local/provision';
import { dynamoTenantStore } from '../../../shared/access/dynamo-tenants';
import { queueById } from '../../../shared/catalogue/job-types';
import { TABLE } from '../../../shared/catalogue/table';
import { dynamoIdempotencyStore } from '../../../shared/commands/idempotency';
import { sqsJobQueue } from '../../../shared/commands/sqs-queue';
import { startCommand } from '../../../shared/commands/start';
import type { CommandStore } from '../../../shared/commands/store';
import { dynamoCommandStore } from '../../../shared/commands/dynamo-store';
import type { Settings } from '../../../shared/composition/settings';
import { parseDeepResearchRequest } from '../../../shared/deep-research/schema';
import { systemClock } from '../../../shared/platform/clock';
import { canonicalJson, sha256Hex } from '../../../shared/platform/hashing';
import { startFakeGoogle, type GoogleFake } from '../../fakes/google';
import { startEmbeddedServices, type EmbeddedServices } from '../../support/embedded';
import { sqsEventOf } from '../../../infra/local/sqs-poller';

/**
 * A research job delivered more than once spends its provider requests
 * once: the research worker composed as in Lambda, fed SQS batches by hand
 * (as the event source does), against the embedded DynamoDB and SQS and the
 * loopback Google.
 */
const TENANT = 'acme-research';
type Handler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;

let services: EmbeddedServices;
let google: GoogleFake;
let commands: CommandStore;

function settings(overrides: Settings): Settings {
  const queue = queueById('research');
  return {
    AWS_REGION: services.aws.region,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: services.aws.dynamodbEndpoint,
    AWS_ENDPOINT_URL_SQS: services.aws.sqsEndpoint,
    [TABLE.envVar]: services.aws.tableName,
    [queue.urlEnvVar]: services.aws.queues.research.url,
    [queue.dlqUrlEnvVar]: services.aws.queues.research.dlqUrl,
    // The worker announces the commands it ends to the tenant's webhooks (none registered here).
    [queueById('webhooks').urlEnvVar]: services.aws.queues.webhooks.url,
    LOG_LEVEL: 'SILENT',
    POWERTOOLS_METRICS_DISABLED: 'true',
    JOB_RETRY_DELAYS_SECONDS: '0',
    // No cache: a second search would cost requests again, so only the kept outcome can save them.
    SEARCH_CACHE_TTL: '0',
    GOOGLE_CSE_API_KEY: google.apiKey,
    GOOGLE_CSE_ID: google.engineId,
    GOOGLE_CSE_BASE_URL: google.baseUrl,
    ...overrides,
  };
}

/** Hands what is on the research queue to `worker` once, as Lambda's event source would; returns how many jobs it saw. */
async function deliver(worker: Handler): Promise<number> {
  const { url } = services.aws.queues.research;
  const { Messages = [] } = await services.aws.sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: url,
      MaxNumberOfMessages: 10,
      AttributeNames: ['All'],
      MessageAttributeNames: ['All'],
      WaitTimeSeconds: 0,
    }),
  );
  const unique = [...new Map(Messages.map((message) => [message.MessageId, message])).values()];
  if (unique.length === 0) return 0;
  const answer = await worker(sqsEvent(unique), lambdaContext('researchWorker', 360));
  const failed = new Set(answer.batchItemFailures.map((failure) => failure.itemIdentifier));
  for (const message of unique) {
    if (!failed.has(message.MessageId!))
      await services.aws.sqs.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: message.ReceiptHandle! }));
  }
  return unique.length;
}

function sqsEvent(messages: Message[]): SQSEvent {
  return sqsEventOf(messages, { queueArn: 'arn:aws:sqs:us-east-1:000000000000:switchboard-research', region: 'us-east-1' });
}

const send = (job: unknown) =>
  services.aws.sqs.send(new SendMessageCommand({ QueueUrl: services.aws.queues.research.url, MessageBody: JSON.stringify(job) }));

const startDeps = () => ({
  commands,
  idempotency: dynamoIdempotencyStore(services.db, services.aws.tableName),
  queue: sqsJobQueue(services.aws.sqs, { queues: { research: services.aws.queues.research.url }, deadLetterQueues: {} }),
  clock: systemClock,
});

beforeAll(async () => {
  services = await startEmbeddedServices();
  google = await startFakeGoogle();
  commands = dynamoCommandStore(services.db, services.aws.tableName);
  // A tenant whose only key covers no site.
  await registerKeys(services.db, services.aws.tableName, [
    { key: 'sbk_redelivery-key-0000000001', siteIds: [], tenantId: TENANT, label: 'research' },
  ]);
});

afterAll(async () => {
  await google?.close();
  await services?.stop();
});

describe('a research job delivered more than once', () => {
  it('spends its provider requests once: a retry after analysis failed reads the kept search', async () => {
    // Where offline providers are not allowed and no model key is set, analysis fails loudly: the job is retried.
    const strict = build(settings({ ALLOW_OFFLINE_PROVIDERS: 'false', OPENAI_API_KEY: undefined })) as Handler;
    const lenient = build(settings({ ALLOW_OFFLINE_PROVIDERS: 'true', OPENAI_API_KEY: undefined })) as Handler;
    const request = parseDeepResearchRequest({ operation_type: 'general_news', query: 'carbon capture', include_content_analysis: true });
    const { command } = await startCommand(startDeps(), { type: 'deep_research', tenantId: TENANT, request });
    const before = google.requests.length;

    expect(await deliver(strict)).toBe(1);
    expect(google.requests.length - before).toBe(3);
    const kept = await commands.get(command.id);
    expect(kept).toMatchObject({
      status: 'in_progress',
      progress: { search: { provider: 'google', provider_requests: 3, cached: false } },
    });
    expect((kept!.progress as { search: { results: unknown[] } }).search.results).toHaveLength(30);

    // The job was queued again (its attempt 2); this time the offline analysis may stand in.
    expect(await deliver(lenient)).toBe(1);
    expect(google.requests.length - before).toBe(3);
    const done = await commands.get(command.id);
    expect(done).toMatchObject({
      status: 'completed',
      attempts: 2,
      result: { provider: 'google', provider_requests: 3, analysis_included: true, total_results: 30 },
    });
    expect(done).not.toHaveProperty('progress');

    // SQS delivers the job yet again: the finished command is left as it is.
    await send({ version: 1, type: 'deep_research', tenant_id: TENANT, command_id: command.id });
    expect(await deliver(lenient)).toBe(1);
    expect(google.requests.length - before).toBe(3);
    expect(await commands.get(command.id)).toEqual(done);
  });

  it('a producer’s job, sent twice, makes one command and one search', async () => {
    const worker = build(settings({ ALLOW_OFFLINE_PROVIDERS: 'true' })) as Handler;
    const body = { operation_type: 'custom_search', query: 'direct air capture costs', max_results: 5 };
    const job = { version: 1, type: 'deep_research', idempotency_key: 'crm-research-7', tenant_id: TENANT, request: body };
    const before = google.requests.length;
    await send(job);
    await send(job);
    expect(await deliver(worker)).toBe(2);
    expect(google.requests.length - before).toBe(1);

    // The same request with the job's key finds the job's command (as a POST with that Idempotency-Key does).
    const { command, replayed } = await startCommand(startDeps(), {
      type: 'deep_research',
      tenantId: TENANT,
      request: parseDeepResearchRequest(body),
      idempotency: { key: 'crm-research-7', bodyHash: sha256Hex(canonicalJson(body)) },
    });
    expect(replayed).toBe(true);
    expect(command).toMatchObject({
      status: 'completed',
      tenant_id: TENANT,
      result: { provider: 'google', provider_requests: 1, total_results: 5 },
    });
    expect(command).not.toHaveProperty('site_id');
  });

  it('dead-letters a producer’s job for an unknown tenant or a bad request, creating nothing', async () => {
    expect(await dynamoTenantStore(services.db, services.aws.tableName).get('nobody')).toBeUndefined();
    const worker = build(settings({ ALLOW_OFFLINE_PROVIDERS: 'true' })) as Handler;
    const before = google.requests.length;
    await send({ version: 1, type: 'deep_research', tenant_id: 'nobody', request: { operation_type: 'llm_news' } });
    await send({ version: 1, type: 'deep_research', tenant_id: TENANT, request: { operation_type: 'general_news' } });
    expect(await deliver(worker)).toBe(2);
    expect(google.requests.length).toBe(before);
    const { Messages = [] } = await services.aws.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: services.aws.queues.research.dlqUrl,
        MaxNumberOfMessages: 10,
        MessageAttributeNames: ['All'],
        WaitTimeSeconds: 0,
      }),
    );
    const reasons = [...new Map(Messages.map((message) => [message.MessageId, message])).values()].map(
      (message) => message.MessageAttributes?.dead_letter_reason?.StringValue,
    );
    expect(reasons.sort()).toEqual([expect.stringMatching(/^MISSING_QUERY: /), 'Tenant nobody is unknown']);
  });
});
