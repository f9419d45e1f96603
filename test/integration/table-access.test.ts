/**
 * Every DynamoDB request each function makes, on its real paths, judged
 * by its IAM policy as synthesized for prod: each request must be allowed
 * (action, table or index ARN, and `dynamodb:LeadingKeys` against the
 * condition's patterns, as IAM evaluates `ForAllValues:StringLike` with the
 * key required), and each table grant must be used by some request, so
 * the catalogue declares neither too little nor too much.
 *
 * Each function is composed (its module's `build`) with exactly the
 * settings its Lambda gets from the catalogue, and talks to the embedded
 * DynamoDB through a recording proxy of its own.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeleteMessageCommand, ReceiveMessageCommand, SendMessageCommand, type Message } from '@aws-sdk/client-sqs';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { DEMO_DATA_FILE, importFile, registerKeys } from '../../infra/local/provision';
import { postSignedCallback } from '../../infra/local/twilio-wire';
import { createGateway, type HttpHandler } from '../../infra/local/http-gateway';
import { lambdaContext } from '../../infra/local/lambda-context';
import { requestLogFromEnv } from '../../infra/local/request-log';
import { FUNCTIONS, functionById, type FunctionDefinition, type FunctionId } from '../../shared/catalogue/functions';
import { QUEUES, queueById, type JobQueueId } from '../../shared/catalogue/job-types';
import { DEFAULT_ROUTE_FUNCTION, ROUTES } from '../../shared/catalogue/routes';
import { TABLE } from '../../shared/catalogue/table';
import type { CallCommandFields } from '../../shared/calls/record';
import { dynamoCommandStore } from '../../shared/commands/dynamo-store';
import { dynamoLeadLinks } from '../../shared/crm/dynamo-lead-links';
import { crmSyncJob } from '../../shared/crm/sync/job';
import type { Settings } from '../../shared/composition/settings';
import { newId } from '../../shared/platform/ids';
import { newRelayToken } from '../../shared/calls/relay-token';
import { canonical, logicalIdOf, synthesizedTemplates, type WithTemplates } from '../infra/template-json';
import { startFakeGoogle, type GoogleFake } from '../fakes/google';
import { startOpenAiFake, type OpenAiFake } from '../fakes/openai';
import { startHubSpotFake, type HubSpotFake } from '../fakes/hubspot';
import { startWebhookReceiver, type WebhookReceiver } from '../fakes/webhook-receiver';
import { startEmbeddedServices, type EmbeddedServices } from '../support/embedded';
import { call } from '../support/http';
import type { RelayTransport } from '../../functions/webhooks/relay';
import type { RelayConnections } from '../../shared/voice-assistant/connections';
import { relayUrlOf } from '../../shared/providers/telephony/public-urls';
import { signTwilioRequest } from '../../infra/local/twilio-wire';
import { sqsEventOf } from '../../infra/local/sqs-poller';
import { hubspotSignatureV3 } from '../../shared/crm/webhook-signature';

const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';
/** A lead with no sequence: a reply to it starts a lead follow-up without cancelling the steps the flow still uses. */
const REPLYING_LEAD = 'e5f6a7b8-c9d0-4e1f-8a2b-4c5d6e7f8091';
const API_KEY = `sbk_${'t'.repeat(32)}`;
/** A second tenant with room for one command in progress: the paths a limit refuses. */
const CAPPED_KEY = `sbk_${'l'.repeat(32)}`;
/** Limits high enough never to refuse, so every start reads its month (USAGE#) and takes an in-progress place. */
const ROOMY_LIMITS = { in_progress: 1_000, monthly_tokens: 1_000_000_000, monthly_searches: 1_000_000 };
const LEAD_FOLLOW_UP = '/api/agents/sales/leadFollowUp';
const RESEARCH = '/api/deepResearch/operation';
const STAKEHOLDER = '/api/agents/cmo/stakeholder-coordination';
const CALL_STATUS = '/webhooks/twilio/call-status';
const RELAY_ENDED = '/webhooks/twilio/relay-ended';
/** PUBLIC_BASE_URL, which the CDK app sets on every function. */
const PUBLIC_BASE_URL = 'https://switchboard.example.com';
/** Stands in for the `twilio` secret of the webhook (it reads TWILIO_AUTH_TOKEN only). */
const TWILIO_AUTH_TOKEN = 'table-access-twilio-auth-token';

/** One DynamoDB request as IAM sees it. */
interface TableRequest {
  action: string;
  /** `table` or `index/<name>`. */
  resource: string;
  leadingKeys: string[];
}

type Handler = (event: unknown, context: Context) => Promise<unknown>;

let services: EmbeddedServices;
let gateway: Server;
let url: string;
let prod: WithTemplates;
let google: GoogleFake;
/** The model of the relay's turns, so a turn spends tokens and counts them (the offline writer's turns write nothing). */
let openai: OpenAiFake;
let hubspot: HubSpotFake;
let receiver: WebhookReceiver;
const proxies: Server[] = [];
const recorded = new Map<FunctionId, TableRequest[]>();
const handlers = new Map<FunctionId, Handler>();

/**
 * What IAM reads of a DynamoDB request: its action, the table or index, and
 * the partition keys it touches. A TransactWriteItems is authorized item by
 * item, as the action each item is (a ConditionCheck is ConditionCheckItem).
 */
function asTableRequests(target: string, body: Record<string, unknown>): TableRequest[] {
  const action = target.split('.')[1] ?? target;
  if (action !== 'TransactWriteItems') return [asTableRequest(action, body)];
  const steps = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem' } as const;
  return ((body.TransactItems ?? []) as Record<string, Record<string, unknown>>[]).flatMap((item) =>
    Object.entries(steps)
      .filter(([part]) => item[part] !== undefined)
      .map(([part, stepAction]) => asTableRequest(stepAction, item[part]!)),
  );
}

function asTableRequest(action: string, body: Record<string, unknown>): TableRequest {
  const pkOf = (item: unknown) => String((item as Record<string, { S?: string }> | undefined)?.[TABLE.partitionKey]?.S);
  if (['GetItem', 'DeleteItem', 'UpdateItem', 'ConditionCheckItem'].includes(action))
    return { action, resource: 'table', leadingKeys: [pkOf(body.Key)] };
  if (action === 'PutItem') return { action, resource: 'table', leadingKeys: [pkOf(body.Item)] };
  if (action === 'Query') {
    const index = TABLE.indexes.find((candidate) => candidate.name === body.IndexName);
    const partitionKey = index ? index.partitionKey : TABLE.partitionKey;
    const names = (body.ExpressionAttributeNames ?? {}) as Record<string, string>;
    const values = (body.ExpressionAttributeValues ?? {}) as Record<string, { S?: string }>;
    const keys = [...String(body.KeyConditionExpression).matchAll(/(#?\w+)\s*=\s*(:\w+)/g)]
      .filter(([, name]) => (names[name!] ?? name) === partitionKey)
      .map(([, , value]) => String(values[value!]?.S));
    return { action, resource: index ? `index/${index.name}` : 'table', leadingKeys: keys };
  }
  if (action === 'BatchWriteItem') {
    // IAM checks the partition key of every item the batch writes or deletes.
    const writes = Object.values(
      (body.RequestItems ?? {}) as Record<string, { PutRequest?: { Item: unknown }; DeleteRequest?: { Key: unknown } }[]>,
    ).flat();
    return { action, resource: 'table', leadingKeys: writes.map((write) => pkOf(write.PutRequest?.Item ?? write.DeleteRequest?.Key)) };
  }
  return { action, resource: 'table', leadingKeys: [] };
}

/** A proxy in front of the embedded DynamoDB that records the requests of one function. */
async function recordingProxy(functionId: FunctionId): Promise<string> {
  const log = recorded.get(functionId) ?? [];
  recorded.set(functionId, log);
  const target = services.aws.dynamodbEndpoint;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const payload = Buffer.concat(chunks);
      log.push(
        ...asTableRequests(String(req.headers['x-amz-target']), JSON.parse(payload.toString('utf8') || '{}') as Record<string, unknown>),
      );
      const forward = httpRequest(`${target}${req.url ?? '/'}`, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 500, answer.headers);
        answer.pipe(res);
      });
      forward.on('error', (error) => res.destroy(error));
      forward.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxies.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** What the function's Lambda is given (infra/constructs/switchboard-function.ts binds exactly these), pointed at the embedded services. */
function lambdaSettings(definition: FunctionDefinition, dynamodbEndpoint: string, overrides: Settings = {}): Settings {
  const { access } = definition;
  return {
    AWS_REGION: services.aws.region,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: dynamodbEndpoint,
    AWS_ENDPOINT_URL_SQS: services.aws.sqsEndpoint,
    LOG_LEVEL: 'SILENT',
    POWERTOOLS_METRICS_DISABLED: 'true',
    PUBLIC_BASE_URL,
    // As in dev, where no provider key is meant to be set.
    ALLOW_OFFLINE_PROVIDERS: 'true',
    // A request rate for every tenant, so each request takes from its bucket (RATE#); never reached here.
    TENANT_REQUESTS_PER_SECOND: '1000',
    ...(access.table.length > 0 ? { [TABLE.envVar]: services.aws.tableName } : {}),
    ...Object.fromEntries(access.sendsTo.map((id) => [queueById(id).urlEnvVar, services.aws.queues[id].url])),
    ...Object.fromEntries(access.sendsToDeadLetterOf.map((id) => [queueById(id).dlqUrlEnvVar, services.aws.queues[id].dlqUrl])),
    ...overrides,
  };
}

/** The socket function answers through these instead of API Gateway's @connections (what it sent is kept). */
const relayMessages: { connectionId: string; message: unknown }[] = [];
const relayConnections: RelayConnections = {
  send: async (connectionId, message) => void relayMessages.push({ connectionId, message }),
  close: async (connectionId, code, reason) => void relayMessages.push({ connectionId, message: { close: code, reason } }),
};

async function compose(definition: FunctionDefinition, settings: Settings): Promise<Handler> {
  const module = (await import(new URL(`../../${definition.entry}`, import.meta.url).href)) as {
    build: (settings: Settings, transport?: RelayTransport) => Handler;
  };
  return module.build(settings, { relayConnections });
}

const invoke = (id: FunctionId, event: unknown) => handlers.get(id)!(event, lambdaContext(id, functionById(id).timeoutSeconds));

/** Hands what is on a queue to its worker, as Lambda's event source does, until the queue is empty. */
async function drain(queue: JobQueueId): Promise<void> {
  const { url: queueUrl } = services.aws.queues[queue];
  const worker = QUEUES.find((candidate) => candidate.id === queue)!.workerFunction;
  for (let round = 0; round < 20; round++) {
    const { Messages = [] } = await services.aws.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 10,
        AttributeNames: ['All'],
        MessageAttributeNames: ['All'],
        WaitTimeSeconds: 0,
      }),
    );
    if (Messages.length === 0) return;
    const unique = [...new Map(Messages.map((message) => [message.MessageId, message])).values()];
    const answer = (await invoke(worker, sqsEvent(unique))) as SQSBatchResponse;
    const failed = new Set(answer.batchItemFailures.map((failure) => failure.itemIdentifier));
    for (const message of unique) {
      if (!failed.has(message.MessageId!))
        await services.aws.sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle! }));
    }
  }
  throw new Error(`The ${queue} queue did not drain`);
}

/** Hands what is on a queue now to its worker once (a job it delays comes back later, unseen here). */
async function drainOnce(queue: JobQueueId): Promise<void> {
  const { url: queueUrl } = services.aws.queues[queue];
  const worker = QUEUES.find((candidate) => candidate.id === queue)!.workerFunction;
  const { Messages = [] } = await services.aws.sqs.send(
    new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, AttributeNames: ['All'], MessageAttributeNames: ['All'] }),
  );
  expect(Messages.length).toBeGreaterThan(0);
  const answer = (await invoke(worker, sqsEvent(Messages))) as SQSBatchResponse;
  expect(answer.batchItemFailures).toEqual([]);
  for (const message of Messages)
    await services.aws.sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle! }));
}

function sqsEvent(messages: Message[]): SQSEvent {
  return sqsEventOf(messages, { queueArn: 'arn:aws:sqs:us-east-1:000000000000:local', region: 'us-east-1' });
}

const produce = (job: unknown, queue: JobQueueId = 'sales') =>
  services.aws.sqs.send(new SendMessageCommand({ QueueUrl: services.aws.queues[queue].url, MessageBody: JSON.stringify(job) }));

/**
 * Provider settings a function gets here: the research worker searches the loopback Google (its quota counter and cache are table items).
 */
function providerSettings(id: FunctionId): Settings {
  // The webhook receiver of this test is a loopback server, as under npm start.
  if (id === 'webhooksApi' || id === 'webhookTestApi' || id === 'webhookDeliveryWorker') return { WEBHOOK_ALLOW_LOOPBACK: 'true' };
  // The HubSpot connection: the loopback HubSpot, and the sealing key its `crm` secret holds in AWS.
  if (id === 'crmConnectionApi' || id === 'crmImportWorker' || id === 'hubspotWebhook' || id === 'crmSyncWorker')
    return { HUBSPOT_API_BASE_URL: hubspot.baseUrl, CRM_ENCRYPTION_KEY: 'table-access-crm-sealing-key-0123456789' };
  if (id === 'conversationRelayWebhook') return { OPENAI_API_KEY: 'table-access-openai-key', OPENAI_BASE_URL: openai.baseUrl };
  if (id !== 'researchWorker') return {};
  return { GOOGLE_CSE_API_KEY: google.apiKey, GOOGLE_CSE_ID: google.engineId, GOOGLE_CSE_BASE_URL: google.baseUrl };
}

beforeAll(async () => {
  prod = await synthesizedTemplates('prod');
  services = await startEmbeddedServices();
  const { siteIds } = await importFile(services.db, services.aws.tableName, DEMO_DATA_FILE);
  await registerKeys(services.db, services.aws.tableName, [
    { key: API_KEY, siteIds, tenantId: 'local', label: 'table-access', limits: ROOMY_LIMITS },
    { key: CAPPED_KEY, siteIds: [DEMO_SITE], tenantId: 'capped', label: 'table-access', limits: { ...ROOMY_LIMITS, in_progress: 1 } },
  ]);
  google = await startFakeGoogle();
  openai = await startOpenAiFake();
  openai.respondWith(() => ({ content: 'Noted, thank you.' }));
  hubspot = await startHubSpotFake();
  receiver = await startWebhookReceiver();
  for (const definition of FUNCTIONS) {
    const secrets =
      definition.id === 'twilioCallStatusWebhook' || definition.id === 'conversationRelayWebhook' ? { TWILIO_AUTH_TOKEN } : {};
    handlers.set(
      definition.id,
      await compose(
        definition,
        lambdaSettings(definition, await recordingProxy(definition.id), { ...secrets, ...providerSettings(definition.id) }),
      ),
    );
  }
  const route = (id: FunctionId) => ({
    functionName: id,
    timeoutSeconds: functionById(id).timeoutSeconds,
    handler: handlers.get(id) as HttpHandler,
  });
  gateway = createGateway(
    ROUTES.map((r) => ({ method: r.method, path: r.path, ...route(r.function) })),
    route(DEFAULT_ROUTE_FUNCTION),
    { log: requestLogFromEnv({ LOG_LEVEL: 'SILENT' }) },
  );
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await google?.close();
  await openai?.close();
  await hubspot?.close();
  await receiver?.close();
  await new Promise((resolve) => gateway.close(resolve));
  for (const proxy of proxies) await new Promise((resolve) => proxy.close(resolve));
  await services.stop();
});

/**
 * The tenant connected again with a client secret, a HubSpot contact linked to the demo lead, and a signer of HubSpot's calls
 * (signature v3 over PUBLIC_BASE_URL + /webhooks/hubspot).
 */
async function hubspotWebhookSetup() {
  const clientSecret = 'table-access-hubspot-client-secret';
  const connected = await call(url, 'PUT', '/api/integrations/hubspot', {
    key: API_KEY,
    body: { access_token: hubspot.token, client_secret: clientSecret },
  });
  expect(connected.status).toBe(200);
  const contactId = hubspot.addContact({ firstname: 'Jordan', email: 'jordan@linked.example' });
  await dynamoLeadLinks(services.db, services.aws.tableName, 'hubspot').link('local', DEMO_SITE, DEMO_LEAD, contactId);
  const signedHubSpotCall = (base: string, events: unknown[]) => {
    const body = JSON.stringify(events);
    const timestamp = String(Date.now());
    const signature = hubspotSignatureV3(clientSecret, { method: 'POST', url: `${PUBLIC_BASE_URL}/webhooks/hubspot`, body, timestamp });
    return call(base, 'POST', '/webhooks/hubspot', {
      rawBody: body,
      headers: { 'content-type': 'application/json', 'x-hubspot-signature-v3': signature, 'x-hubspot-request-timestamp': timestamp },
    });
  };
  return { contactId, signedHubSpotCall };
}

describe('the table access of every function, on its real paths', () => {
  it('runs every path that touches the table', async () => {
    // API: health, unknown route, a lead follow-up (then its replay), reading it.
    expect((await call(url, 'GET', '/health')).status).toBe(200);
    expect((await call(url, 'GET', '/api/nope', { key: API_KEY })).status).toBe(404);

    // Webhooks: an endpoint (registered, listed, its secret rotated), so every command that ends below publishes its event.
    const hook = await call(url, 'POST', '/api/webhooks', { key: API_KEY, body: { url: `${receiver.url}/hooks` } });
    expect(hook.status).toBe(201);
    const hookId = String(hook.body.data?.id);
    expect((await call(url, 'GET', '/api/webhooks', { key: API_KEY })).status).toBe(200);
    expect((await call(url, 'POST', `/api/webhooks/${hookId}/rotate-secret`, { key: API_KEY })).status).toBe(200);

    // The HubSpot connection: connected (the connection and its portal's entry), shown, forgotten.
    expect((await call(url, 'PUT', '/api/integrations/hubspot', { key: API_KEY, body: { access_token: hubspot.token } })).status).toBe(200);
    expect((await call(url, 'GET', '/api/integrations/hubspot', { key: API_KEY })).status).toBe(200);
    // A lead import: the contact becomes a lead of the site, linked to it; importing it again updates that lead.
    const contactId = hubspot.addContact({ firstname: 'Table', email: 'table@access.example' });
    for (const round of [1, 2]) {
      const started = await call(url, 'POST', '/api/integrations/hubspot/import', {
        key: API_KEY,
        body: { site_id: DEMO_SITE, contact_ids: [contactId] },
        headers: { 'idempotency-key': `crm-import-${round}` },
      });
      expect(started.status).toBe(202);
      await drain('crm');
      const imported = await call(url, 'GET', `/api/commands/${String(started.body.data?.command_id)}`, { key: API_KEY });
      expect(imported.body.data).toMatchObject({ status: 'completed', [round === 1 ? 'created' : 'updated']: 1 });
    }
    const importReplay = await call(url, 'POST', '/api/integrations/hubspot/import', {
      key: API_KEY,
      body: { site_id: DEMO_SITE, contact_ids: [contactId] },
      headers: { 'idempotency-key': 'crm-import-1' },
    });
    expect(importReplay.status).toBe(200);
    const body = { siteId: DEMO_SITE, leadId: DEMO_LEAD };
    const accepted = await call(url, 'POST', LEAD_FOLLOW_UP, { key: API_KEY, body, headers: { 'idempotency-key': 'access-1' } });
    expect(accepted.status).toBe(202);
    const commandId = String(accepted.body.data?.command_id);
    expect((await call(url, 'POST', LEAD_FOLLOW_UP, { key: API_KEY, body, headers: { 'idempotency-key': 'access-1' } })).status).toBe(202);

    // Workers: the sales phase hands over to the copywriter, which finishes the lead follow-up; a duplicate delivery is ignored.
    await drain('sales');
    await drain('copywriter');
    await produce({ version: 1, type: 'lead_follow_up', tenant_id: 'local', command_id: commandId });
    await drain('sales');
    const read = await call(url, 'GET', `/api/commands/${commandId}`, { key: API_KEY, headers: { prefer: 'wait=1' } });
    expect(read.body.data).toMatchObject({ status: 'completed' });

    // A producer's job, delivered twice, and a sequence (follow-ups).
    const job = {
      version: 1,
      type: 'lead_follow_up',
      idempotency_key: 'crm-1',
      tenant_id: 'local',
      request: { ...body, output: 'follow_up_sequence' },
    };
    await produce(job);
    await drain('sales');
    await produce(job);
    await drain('sales');

    // A sequence whose first attempt died before it kept anything: the next one saves item by item, conditionally.
    const retried = await call(url, 'POST', LEAD_FOLLOW_UP, { key: API_KEY, body: { ...body, output: 'follow_up_sequence' } });
    const past = Date.now() - 60_000;
    await dynamoCommandStore(services.db, services.aws.tableName).claim(
      String(retried.body.data?.command_id),
      { tenantId: 'local', type: 'lead_follow_up' },
      past,
      past + 1,
    );
    await drain('sales');

    // Stakeholder coordination: a request (then its replay), one naming the conversation it started; the call worker
    // (no telephony configured here: the call fails without dialling), a duplicate delivery; a signed status callback.
    const meeting = { site_id: DEMO_SITE, lead_id: DEMO_LEAD, phone_numbers: ['+14155550123'] };
    const coordination = await call(url, 'POST', STAKEHOLDER, {
      key: API_KEY,
      body: meeting,
      headers: { 'idempotency-key': 'access-call-1' },
    });
    expect(coordination.status).toBe(202);
    const coordinationId = String(coordination.body.data?.command_id);
    expect(
      (await call(url, 'POST', STAKEHOLDER, { key: API_KEY, body: meeting, headers: { 'idempotency-key': 'access-call-1' } })).body.data
        ?.command_id,
    ).toBe(coordinationId);
    const conversationId = String(coordination.body.data?.conversation_id);
    expect((await call(url, 'POST', STAKEHOLDER, { key: API_KEY, body: { ...meeting, conversationId } })).status).toBe(202);
    await drain('call');
    await services.aws.sqs.send(
      new SendMessageCommand({
        QueueUrl: services.aws.queues.call.url,
        MessageBody: JSON.stringify({ version: 1, type: 'stakeholder_coordination', tenant_id: 'local', command_id: coordinationId }),
      }),
    );
    await drain('call');
    expect((await call(url, 'GET', `/api/commands/${coordinationId}`, { key: API_KEY })).body.data).toMatchObject({
      status: 'completed',
      call: { status: 'failed' },
    });
    const callback = { CallSid: 'CA0123456789abcdef0123456789abcdef', CallStatus: 'ringing', SequenceNumber: '1' };
    const callbackPath = `${CALL_STATUS}?command_id=${coordinationId}`;
    const signed = await postSignedCallback(`${url}${callbackPath}`, callback, {
      authToken: TWILIO_AUTH_TOKEN,
      signedUrl: `${PUBLIC_BASE_URL}${callbackPath}`,
    });
    expect(signed.status).toBe(204);
    // A call Twilio has (placed by an earlier worker): its callback applies, and the tenant's webhooks hear of it.
    const placedAt = new Date().toISOString();
    const ringingId = newId();
    await dynamoCommandStore(services.db, services.aws.tableName).create({
      id: ringingId,
      type: 'stakeholder_coordination',
      status: 'completed',
      tenant_id: 'local',
      site_id: DEMO_SITE,
      request: meeting,
      created_at: placedAt,
      updated_at: placedAt,
      attempts: 1,
      call: {
        id: newId(),
        status: 'pending',
        phone_number: '+14155550123',
        provider: 'twilio',
        provider_call_id: callback.CallSid,
        requested_at: placedAt,
        last_sequence: 0,
        updated_at: placedAt,
      },
    });
    const ringingPath = `${CALL_STATUS}?command_id=${ringingId}`;
    const applied = await postSignedCallback(`${url}${ringingPath}`, callback, {
      authToken: TWILIO_AUTH_TOKEN,
      signedUrl: `${PUBLIC_BASE_URL}${ringingPath}`,
    });
    expect(applied.status).toBe(204);

    // The voice assistant: a call's socket (signed upgrade, setup, two turns, a keypress, an interrupt, the close),
    // then its summary by the post-call worker, delivered twice.
    const store = dynamoCommandStore(services.db, services.aws.tableName);
    const placed = (await store.get<CallCommandFields>(coordinationId))!;
    const callSid = 'CA0123456789abcdef0123456789abcde0';
    const relayToken = newRelayToken();
    const live = {
      ...placed,
      id: newId(),
      status: 'completed' as const,
      call: { ...placed.call!, status: 'in_progress' as const, provider_call_id: callSid },
      relay: { token_hash: relayToken.hash, issued_at: placedAt },
    };
    await store.create(live);
    const relayQuery = { token: relayToken.token };
    const socket = (eventType: 'CONNECT' | 'MESSAGE' | 'DISCONNECT', body?: unknown, headers?: Record<string, string>) =>
      invoke('conversationRelayWebhook', {
        requestContext: {
          routeKey: eventType === 'CONNECT' ? '$connect' : eventType === 'MESSAGE' ? '$default' : '$disconnect',
          eventType,
          connectionId: 'conn-access-1',
          domainName: 'local',
          stage: 'relay',
        },
        ...(headers ? { headers, queryStringParameters: relayQuery } : {}),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }) as Promise<{ statusCode: number }>;
    expect(
      (
        await socket('CONNECT', undefined, {
          'X-Twilio-Signature': signTwilioRequest(TWILIO_AUTH_TOKEN, relayUrlOf(PUBLIC_BASE_URL, relayToken.token), {}),
        })
      ).statusCode,
    ).toBe(200);
    await socket('MESSAGE', { type: 'setup', callSid, customParameters: { command_id: live.id } });
    await socket('MESSAGE', { type: 'prompt', voicePrompt: 'Yes, good time.', last: true });
    await socket('MESSAGE', { type: 'interrupt', utteranceUntilInterrupt: 'Thank you.' });
    await socket('MESSAGE', { type: 'dtmf', digit: '1' });
    await socket('MESSAGE', {
      type: 'prompt',
      voicePrompt: 'We decided to keep the budget. Maya will send the plan by Friday.',
      last: true,
    });
    await socket('DISCONNECT');
    // Two replies, each streamed as a few text tokens and closed by one `last: true`.
    const sent = relayMessages
      .filter((sent) => sent.connectionId === 'conn-access-1')
      .map((sent) => sent.message as { type?: string; last?: boolean });
    expect(sent.every((message) => message.type === 'text')).toBe(true);
    expect(sent.filter((message) => message.last)).toHaveLength(2);
    expect(sent.at(-1)).toMatchObject({ last: true });
    const summaryJob = (await store.get<CallCommandFields>(live.id))!.meeting_summary!;
    expect(summaryJob).toMatchObject({ status: 'pending' });
    await produce({ version: 1, type: 'post_call_summary', tenant_id: 'local', command_id: summaryJob.command_id }, 'summary');
    await drain('summary');
    expect((await store.get<CallCommandFields>(live.id))!.meeting_summary).toMatchObject({ status: 'completed', generated_by: 'offline' });
    // A call whose socket close never reached the relay: its signed `completed` callback requests the summary (the backstop).
    const unclosedSid = 'CA0123456789abcdef0123456789abcde1';
    const unclosed = {
      ...live,
      id: newId(),
      transcript: [{ role: 'user' as const, content: 'We decided to keep the budget.', at: placedAt }],
      call: { ...live.call, provider_call_id: unclosedSid, last_sequence: 0 },
    };
    await store.create(unclosed);
    const unclosedPath = `${CALL_STATUS}?command_id=${unclosed.id}`;
    const completed = { CallSid: unclosedSid, CallStatus: 'completed', SequenceNumber: '2', CallDuration: '30' };
    expect(
      (
        await postSignedCallback(`${url}${unclosedPath}`, completed, {
          authToken: TWILIO_AUTH_TOKEN,
          signedUrl: `${PUBLIC_BASE_URL}${unclosedPath}`,
        })
      ).status,
    ).toBe(204);
    expect((await store.get<CallCommandFields>(unclosed.id))!.meeting_summary).toMatchObject({ status: 'pending' });
    await drain('summary');
    expect((await store.get<CallCommandFields>(unclosed.id))!.meeting_summary).toMatchObject({ status: 'completed' });
    // A call whose relay session Twilio reports ended (the TwiML's <Connect action>): it requests the summary too.
    const reportedSid = 'CA0123456789abcdef0123456789abcde2';
    const reported = { ...unclosed, id: newId(), call: { ...unclosed.call, provider_call_id: reportedSid } };
    await store.create(reported);
    const reportedPath = `${RELAY_ENDED}?command_id=${reported.id}`;
    const sessionEnded = { CallSid: reportedSid, SessionStatus: 'completed', SessionDuration: '30' };
    expect(
      (
        await postSignedCallback(`${url}${reportedPath}`, sessionEnded, {
          authToken: TWILIO_AUTH_TOKEN,
          signedUrl: `${PUBLIC_BASE_URL}${reportedPath}`,
        })
      ).status,
    ).toBe(200);
    expect((await store.get<CallCommandFields>(reported.id))!.meeting_summary).toMatchObject({ status: 'pending' });
    await drain('summary');
    expect((await store.get<CallCommandFields>(reported.id))!.meeting_summary).toMatchObject({ status: 'completed' });

    // Deep research: a search (quota counted, results cached), its replay, the same search from the cache,
    // then a producer's research job delivered twice.
    const research = { operation_type: 'general_news', query: 'table access', max_results: 12, include_content_analysis: true };
    const researched = await call(url, 'POST', RESEARCH, {
      key: API_KEY,
      body: research,
      headers: { 'idempotency-key': 'access-research' },
    });
    expect(researched.status).toBe(202);
    expect(
      (await call(url, 'POST', RESEARCH, { key: API_KEY, body: research, headers: { 'idempotency-key': 'access-research' } })).status,
    ).toBe(202);
    await drain('research');
    expect((await call(url, 'POST', RESEARCH, { key: API_KEY, body: research })).status).toBe(202);
    const researchJob = {
      version: 1,
      type: 'deep_research',
      idempotency_key: 'crm-research-1',
      tenant_id: 'local',
      request: { operation_type: 'llm_news', max_results: 3 },
    };
    await produce(researchJob, 'research');
    await produce(researchJob, 'research');
    await drain('research');
    const researchRead = await call(url, 'GET', `/api/commands/${String(researched.body.data?.command_id)}`, { key: API_KEY });
    expect(researchRead.body.data).toMatchObject({
      status: 'completed',
      provider: 'google',
      provider_requests: 2,
      analysis_included: true,
    });

    // The APIs when their queue is down: the command is marked (with a key) or closed (without).
    for (const [id, path, queueId, request] of [
      ['leadFollowUpApi', LEAD_FOLLOW_UP, 'sales', body],
      ['stakeholderCoordinationApi', STAKEHOLDER, 'call', meeting],
      ['deepResearchApi', RESEARCH, 'research', research],
      ['crmConnectionApi', '/api/integrations/hubspot/import', 'crm', { site_id: DEMO_SITE }],
    ] as const) {
      const api = functionById(id);
      const unqueued = await compose(
        api,
        lambdaSettings(api, await recordingProxy(id), {
          [queueById(queueId).urlEnvVar]: `${services.aws.sqsEndpoint}/000000000000/missing`,
        }),
      );
      const downGateway = createGateway(
        [{ method: 'POST', path, functionName: api.id, timeoutSeconds: api.timeoutSeconds, handler: unqueued as HttpHandler }],
        {
          functionName: 'none',
          timeoutSeconds: 1,
          handler: handlers.get('notFoundApi') as HttpHandler,
        },
        { log: requestLogFromEnv({ LOG_LEVEL: 'SILENT' }) },
      );
      await new Promise<void>((resolve) => downGateway.listen(0, '127.0.0.1', resolve));
      const downUrl = `http://127.0.0.1:${(downGateway.address() as AddressInfo).port}`;
      expect(
        (await call(downUrl, 'POST', path, { key: API_KEY, body: request, headers: { 'idempotency-key': `access-down-${id}` } })).status,
      ).toBe(500);
      expect((await call(downUrl, 'POST', path, { key: API_KEY, body: request })).status).toBe(500);
      await new Promise((resolve) => downGateway.close(resolve));
    }
    // A reply when the sales queue is down: the lead follow-up it starts is marked, and the event answers 500 (a retry finishes it).
    {
      const api = functionById('leadEventsApi');
      const unqueued = await compose(
        api,
        lambdaSettings(api, await recordingProxy('leadEventsApi'), {
          [queueById('sales').urlEnvVar]: `${services.aws.sqsEndpoint}/000000000000/missing`,
        }),
      );
      const downGateway = createGateway(
        [
          {
            method: 'POST',
            path: '/api/leads/{leadId}/events',
            functionName: api.id,
            timeoutSeconds: api.timeoutSeconds,
            handler: unqueued as HttpHandler,
          },
        ],
        { functionName: 'none', timeoutSeconds: 1, handler: handlers.get('notFoundApi') as HttpHandler },
        { log: requestLogFromEnv({ LOG_LEVEL: 'SILENT' }) },
      );
      await new Promise<void>((resolve) => downGateway.listen(0, '127.0.0.1', resolve));
      const downUrl = `http://127.0.0.1:${(downGateway.address() as AddressInfo).port}`;
      const downReply = {
        key: API_KEY,
        body: { site_id: DEMO_SITE, type: 'replied' },
        headers: { 'idempotency-key': 'access-down-reply' },
      };
      expect((await call(downUrl, 'POST', `/api/leads/${REPLYING_LEAD}/events`, downReply)).status).toBe(500);
      await new Promise((resolve) => downGateway.close(resolve));
      // Retried once the queue is back: the same lead follow-up (read back by its key) is queued, and the event answers.
      expect((await call(url, 'POST', `/api/leads/${REPLYING_LEAD}/events`, downReply)).body.data).toMatchObject({
        command_id: expect.any(String),
      });
    }
    // The HubSpot connection, forgotten (with its portal's entry) once its import ran.
    expect((await call(url, 'DELETE', '/api/integrations/hubspot', { key: API_KEY })).status).toBe(200);

    // The janitor: one command stuck for hours (failed), one never taken up (queued again).
    const commands = dynamoCommandStore(services.db, services.aws.tableName);
    const now = Date.now();
    for (const age of [3 * 60, 20]) {
      const at = new Date(now - age * 60_000).toISOString();
      await commands.create({
        id: newId(),
        type: 'lead_follow_up',
        status: 'in_progress',
        tenant_id: 'local',
        site_id: DEMO_SITE,
        request: body,
        created_at: at,
        updated_at: at,
        attempts: 0,
      });
    }
    await invoke('commandJanitor', {});
    await drain('sales');
    await drain('copywriter');
    await drain('call');
    await drain('research');
    await drain('summary');

    // Webhook deliveries: every event above is sent to the receiver; one of them is sent again (a redelivery).
    await drain('webhooks');
    const deliveries = await call(url, 'GET', `/api/webhooks/${hookId}/deliveries`, { key: API_KEY });
    const told = deliveries.body.data?.deliveries as { event_id: string; status: string }[];
    expect(told.length).toBeGreaterThanOrEqual(6);
    expect(told.every((delivery) => delivery.status === 'delivered')).toBe(true);
    expect((await call(url, 'POST', `/api/webhooks/${hookId}/deliveries/${told[0]!.event_id}/redeliver`, { key: API_KEY })).status).toBe(
      202,
    );
    await drain('webhooks');
    expect(receiver.received.map((item) => item.body.type)).toEqual(
      expect.arrayContaining(['command.completed', 'command.failed', 'call.status_changed', 'meeting_summary.created']),
    );

    // Managing endpoints and events: an update, a test event, the tenant's events, and one redelivered to every endpoint.
    expect((await call(url, 'PATCH', `/api/webhooks/${hookId}`, { key: API_KEY, body: { description: 'table access' } })).status).toBe(200);
    expect((await call(url, 'POST', `/api/webhooks/${hookId}/test`, { key: API_KEY })).body.data).toMatchObject({ status: 200 });
    const events = await call(url, 'GET', '/api/events?type=command.completed&limit=1', { key: API_KEY });
    const eventId = String((events.body.data?.events as { id: string }[])[0]!.id);
    expect((await call(url, 'GET', '/api/events', { key: API_KEY })).status).toBe(200);
    // An endpoint that fails: its failures noted, then (failing since long ago) it is disabled, and the other endpoint told.
    receiver.answerAlways('/failing', { status: 500 });
    const failing = await call(url, 'POST', '/api/webhooks', { key: API_KEY, body: { url: `${receiver.url}/failing` } });
    const failingId = String(failing.body.data?.id);
    for (const round of [1, 2]) {
      expect((await call(url, 'POST', `/api/events/${eventId}/redeliver`, { key: API_KEY })).status).toBe(202);
      await drain('webhooks');
      if (round === 2) break;
      const { Items = [] } = await services.db.send(
        new QueryCommand({
          TableName: services.aws.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': 'WEBHOOK#local' },
        }),
      );
      const slot = Items.find((item) => item.id === failingId)!;
      expect(slot.failing_since).toEqual(expect.any(String));
      await services.db.send(
        new UpdateCommand({
          TableName: services.aws.tableName,
          Key: { pk: slot.pk, sk: slot.sk },
          UpdateExpression: 'SET failing_since = :long_ago',
          ExpressionAttributeValues: { ':long_ago': '2020-01-01T00:00:00.000Z' },
        }),
      );
    }
    await drain('webhooks');
    expect(receiver.received.map((item) => item.body.type)).toEqual(expect.arrayContaining(['webhook.test', 'webhook_endpoint.disabled']));
    const hooks = await call(url, 'GET', '/api/webhooks', { key: API_KEY });
    expect((hooks.body.data?.webhooks as { id: string; disabled: boolean }[]).find((hook) => hook.id === failingId)?.disabled).toBe(true);
    expect((await call(url, 'DELETE', `/api/webhooks/${failingId}`, { key: API_KEY })).status).toBe(200);
    receiver.heal();

    // Erasing the first lead follow-up and its copywriter phase.
    const erased = await call(url, 'DELETE', `/api/commands/${commandId}`, { key: API_KEY });
    expect(erased.body.data).toMatchObject({ deleted: true });

    // Follow-up sequences: the lead's list, an edit, a lead event (then its replay), the dispatcher (a step due now,
    // and one whose follow_up.due a dead run never published), and erasing a sequence's command with its follow-ups.
    const listed = await call(url, 'GET', `/api/leads/${DEMO_LEAD}/follow-ups?site_id=${DEMO_SITE}&limit=2`, { key: API_KEY });
    const steps = listed.body.data?.follow_ups as { id: string }[];
    expect(steps).toHaveLength(2);
    // The same steps across the site's leads, and the tenant's commands (both listings read their own index only).
    const siteListed = await call(url, 'GET', `/api/follow-ups?site_id=${DEMO_SITE}&limit=2`, { key: API_KEY });
    expect((siteListed.body.data?.follow_ups as { id: string }[]).map((step) => step.id)).toEqual(steps.map((step) => step.id));
    const commandsListed = await call(url, 'GET', '/api/commands?type=lead_follow_up&limit=2', { key: API_KEY });
    expect(commandsListed.body.data?.commands).toHaveLength(2);
    // The tenant's usage this month: one Query of its own totals (the commands above ended today).
    const used = await call(url, 'GET', '/api/usage?group_by=type', { key: API_KEY });
    expect((used.body.data?.totals as { commands: number }).commands).toBeGreaterThan(0);
    expect(
      (await call(url, 'PATCH', `/api/follow-ups/${steps[0]!.id}`, { key: API_KEY, body: { content: 'Hi Jordan, a shorter note.' } }))
        .status,
    ).toBe(200);
    const leadEvent = { site_id: DEMO_SITE, event: { type: 'clicked' } };
    expect(
      (
        await call(url, 'POST', `/api/leads/${DEMO_LEAD}/events`, {
          key: API_KEY,
          body: leadEvent,
          headers: { 'idempotency-key': 'access-event' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call(url, 'POST', `/api/leads/${DEMO_LEAD}/events`, {
          key: API_KEY,
          body: leadEvent,
          headers: { 'idempotency-key': 'access-event' },
        })
      ).status,
    ).toBe(200);
    // A reply (then its replay): the lead's stage moves and a lead follow-up starts to draft the answer (once).
    const replyCall = { key: API_KEY, body: { site_id: DEMO_SITE, type: 'replied' }, headers: { 'idempotency-key': 'access-reply' } };
    const replied = await call(url, 'POST', `/api/leads/${REPLYING_LEAD}/events`, replyCall);
    expect(replied.body.data).toMatchObject({ command_id: expect.any(String), lead_stage: 'engaged' });
    expect((await call(url, 'POST', `/api/leads/${REPLYING_LEAD}/events`, replyCall)).body.data).toMatchObject({
      command_id: replied.body.data?.command_id,
    });
    // Pausing the lead's sequence (twice: one pause), the list showing it, resuming it, and resuming again (nothing paused).
    const pauseBody = { key: API_KEY, body: { site_id: DEMO_SITE } };
    expect((await call(url, 'POST', `/api/leads/${DEMO_LEAD}/follow-ups/pause`, pauseBody)).body.data).toMatchObject({ paused: true });
    expect((await call(url, 'POST', `/api/leads/${DEMO_LEAD}/follow-ups/pause`, pauseBody)).status).toBe(200);
    const whilePaused = await call(url, 'GET', `/api/leads/${DEMO_LEAD}/follow-ups?site_id=${DEMO_SITE}&limit=1`, { key: API_KEY });
    expect(whilePaused.body.data).toMatchObject({ paused: true });
    expect((await call(url, 'POST', `/api/leads/${DEMO_LEAD}/follow-ups/resume`, pauseBody)).body.data).toMatchObject({ paused: false });
    expect((await call(url, 'POST', `/api/leads/${DEMO_LEAD}/follow-ups/resume`, pauseBody)).status).toBe(409);
    // HubSpot's webhook: a signed reply of a contact linked to the lead (its open steps cancelled, the event in the tenant's
    // history, its re-import started), the same call retried (the re-import's Idempotency-Key replayed), and one whose
    // re-import cannot be queued (its command marked).
    const { contactId: hubspotContact, signedHubSpotCall } = await hubspotWebhookSetup();
    // Write-backs to HubSpot: the tenant is connected and its lead linked to a contact (above), a step is reported sent; its
    // crm_sync jobs (with the ones the lead follow-ups and call summaries above queued, still waiting) run, one twice.
    expect((await call(url, 'PATCH', `/api/follow-ups/${steps[0]!.id}`, { key: API_KEY, body: { status: 'sent' } })).status).toBe(200);
    // A lead follow-up completed while connected: its messages become a note, which counts on its usage.
    const noted = await call(url, 'POST', LEAD_FOLLOW_UP, { key: API_KEY, body: { siteId: DEMO_SITE, leadId: DEMO_LEAD } });
    expect(noted.status).toBe(202);
    await drain('sales');
    await drain('copywriter');
    await drain('crmsync');
    const writeBack = crmSyncJob('local', {
      site_id: DEMO_SITE,
      lead_id: DEMO_LEAD,
      source: 'step',
      source_id: steps[0]!.id,
      write: { kind: 'engagement', engagement: 'note', body: 'Sent.', at: new Date().toISOString() },
    });
    await produce(writeBack, 'crmsync');
    await drain('crmsync');
    expect(hubspot.engagements('emails').filter((item) => item.associations.some((to) => to.contactId === hubspotContact))).toHaveLength(1);
    expect(hubspot.contact(hubspotContact)?.hs_lead_status).toBe('ATTEMPTED_TO_CONTACT');
    const syncs = await call(url, 'GET', `/api/leads/${DEMO_LEAD}/crm-syncs?site_id=${DEMO_SITE}`, { key: API_KEY });
    expect(syncs.body.data?.crm_syncs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ source: 'step', source_id: steps[0]!.id, kind: 'engagement', status: 'done' }),
        expect.objectContaining({ source: 'follow_up', kind: 'engagement', status: 'done' }),
        expect.objectContaining({ source: 'meeting_summary', kind: 'engagement', status: 'done' }),
      ]),
    );
    const reply = [
      {
        eventId: 1,
        subscriptionType: 'contact.propertyChange',
        portalId: hubspot.portalId,
        objectId: Number(hubspotContact),
        propertyName: 'hs_sales_email_last_replied',
        propertyValue: String(Date.now() - 1_000),
      },
    ];
    expect((await signedHubSpotCall(url, reply)).status).toBe(204);
    expect((await signedHubSpotCall(url, reply)).status).toBe(204);
    const down = functionById('hubspotWebhook');
    const unqueuedWebhook = await compose(
      down,
      lambdaSettings(down, await recordingProxy('hubspotWebhook'), {
        ...providerSettings('hubspotWebhook'),
        [queueById('crm').urlEnvVar]: `${services.aws.sqsEndpoint}/000000000000/missing`,
      }),
    );
    const webhookGateway = createGateway(
      [
        {
          method: 'POST',
          path: '/webhooks/hubspot',
          functionName: down.id,
          timeoutSeconds: down.timeoutSeconds,
          handler: unqueuedWebhook as HttpHandler,
        },
      ],
      { functionName: 'none', timeoutSeconds: 1, handler: handlers.get('notFoundApi') as HttpHandler },
      { log: requestLogFromEnv({ LOG_LEVEL: 'SILENT' }) },
    );
    await new Promise<void>((resolve) => webhookGateway.listen(0, '127.0.0.1', resolve));
    const change = [{ ...reply[0]!, eventId: 2, propertyName: 'jobtitle', propertyValue: 'CTO' }];
    expect((await signedHubSpotCall(`http://127.0.0.1:${(webhookGateway.address() as AddressInfo).port}`, change)).status).toBe(500);
    await new Promise((resolve) => webhookGateway.close(resolve));
    expect((await call(url, 'DELETE', '/api/integrations/hubspot', { key: API_KEY })).status).toBe(200);

    const { Item: template } = await services.db.send(
      new GetCommand({ TableName: services.aws.tableName, Key: { pk: `FOLLOWUP#${steps[1]!.id}`, sk: 'FOLLOWUP' } }),
    );
    const longAgo = new Date(Date.now() - 60 * 60_000).toISOString();
    for (const [id, status, gsi1pk] of [
      [newId(), 'scheduled', 'FOLLOWUP#scheduled'],
      [newId(), 'due', 'FOLLOWUP#announcing'],
    ] as const) {
      const item = {
        ...template,
        pk: `FOLLOWUP#${id}`,
        id,
        status,
        scheduled_for: longAgo,
        gsi1pk,
        gsi1sk: `${longAgo}#${id}`,
        gsi2sk: `${longAgo}#${id}`,
      };
      await services.db.send(new PutCommand({ TableName: services.aws.tableName, Item: item }));
    }
    await invoke('followUpDispatcher', {});
    // The sequence's events (sequence.adapted from the lead event, follow_up.due from the dispatcher) reach the endpoint too; then it goes.
    await drain('webhooks');
    expect(receiver.received.map((item) => item.body.type)).toEqual(expect.arrayContaining(['sequence.adapted', 'follow_up.due']));
    expect((await call(url, 'DELETE', `/api/webhooks/${hookId}`, { key: API_KEY })).status).toBe(200);
    const sequenceCommand = String(retried.body.data?.command_id);
    expect((await call(url, 'DELETE', `/api/commands/${sequenceCommand}`, { key: API_KEY })).body.data).toMatchObject({
      deleted_follow_up_ids: expect.any(Array),
    });
    // Erasing the summarized call's command erases the task its call made on the site.
    expect((await call(url, 'DELETE', `/api/commands/${live.id}`, { key: API_KEY })).body.data).toMatchObject({
      deleted_task_ids: [`${live.id}-task-01`],
    });

    // A tenant at its in-progress limit: every start is refused and gives its Idempotency-Key back; producers' jobs wait.
    const cappedConnection = { access_token: hubspot.token, client_secret: 'table-access-capped-secret' };
    expect((await call(url, 'PUT', '/api/integrations/hubspot', { key: CAPPED_KEY, body: cappedConnection })).status).toBe(200);
    const holder = await call(url, 'POST', LEAD_FOLLOW_UP, { key: CAPPED_KEY, body });
    expect(holder.status).toBe(202);
    for (const [path, request] of [
      [LEAD_FOLLOW_UP, body],
      [STAKEHOLDER, meeting],
      [RESEARCH, research],
      ['/api/integrations/hubspot/import', { site_id: DEMO_SITE }],
    ] as const) {
      const refused = await call(url, 'POST', path, {
        key: CAPPED_KEY,
        body: request,
        headers: { 'idempotency-key': `access-capped-${path}` },
      });
      expect(refused.status).toBe(429);
    }
    await produce({ version: 1, type: 'lead_follow_up', tenant_id: 'capped', request: { site_id: DEMO_SITE, lead_id: DEMO_LEAD } });
    await produce({ version: 1, type: 'deep_research', tenant_id: 'capped', request: { operation_type: 'llm_news' } }, 'research');
    await Promise.all([drainOnce('sales'), drainOnce('research')]);
    // Erasing the command in progress gives its place back.
    expect((await call(url, 'DELETE', `/api/commands/${String(holder.body.data?.command_id)}`, { key: CAPPED_KEY })).status).toBe(200);
  }, 120_000);

  it.each(FUNCTIONS.map((fn) => [fn.id] as const))('%s: every request is allowed by its prod policy', (id) => {
    const denied = (recorded.get(id) ?? []).filter((request) => !allowed(prod, id, request));
    expect(denied).toEqual([]);
  });

  it.each(FUNCTIONS.map((fn) => [fn.id] as const))('%s: every table grant is used', (id) => {
    const unused = functionById(id).access.table.flatMap((grant) =>
      grant.actions.flatMap((action) =>
        grant.keyPrefixes
          .filter(
            (prefix) =>
              !(recorded.get(id) ?? []).some(
                (request) =>
                  request.action === action &&
                  request.resource === (grant.index === undefined ? 'table' : `index/${grant.index}`) &&
                  request.leadingKeys.every((key) => key.startsWith(prefix)),
              ),
          )
          .map((prefix) => `${action} ${grant.index ?? 'table'} ${prefix}`),
      ),
    );
    expect(unused).toEqual([]);
  });

  it('sees the API refused on the keys it must not touch', () => {
    expect(allowed(prod, 'leadFollowUpApi', { action: 'PutItem', resource: 'table', leadingKeys: ['APIKEY#abc'] })).toBe(false);
    expect(allowed(prod, 'leadFollowUpApi', { action: 'DeleteItem', resource: 'table', leadingKeys: ['CMD#abc'] })).toBe(false);
    expect(allowed(prod, 'getCommandApi', { action: 'PutItem', resource: 'table', leadingKeys: ['TENANT#local'] })).toBe(false);
    expect(allowed(prod, 'getCommandApi', { action: 'UpdateItem', resource: 'table', leadingKeys: ['TENANT#local'] })).toBe(false);
    expect(allowed(prod, 'commandJanitor', { action: 'Query', resource: 'index/gsi1', leadingKeys: ['FOLLOWUP#scheduled'] })).toBe(false);
    expect(allowed(prod, 'commandJanitor', { action: 'Query', resource: 'index/gsi1', leadingKeys: [] })).toBe(false);
    expect(allowed(prod, 'deepResearchApi', { action: 'GetItem', resource: 'table', leadingKeys: ['SITE#x'] })).toBe(false);
    expect(allowed(prod, 'researchWorker', { action: 'PutItem', resource: 'table', leadingKeys: ['QUOTA#google#2026-11-23'] })).toBe(false);
    expect(allowed(prod, 'researchWorker', { action: 'UpdateItem', resource: 'table', leadingKeys: ['SEARCH#abc'] })).toBe(false);
    expect(allowed(prod, 'salesWorker', { action: 'Scan', resource: 'table', leadingKeys: [] })).toBe(false);
    expect(allowed(prod, 'stakeholderCoordinationApi', { action: 'PutItem', resource: 'table', leadingKeys: ['SITE#abc'] })).toBe(false);
    // It creates the post-call summary child (PutItem CMD#) but never deletes a command nor touches a relay session.
    expect(allowed(prod, 'twilioCallStatusWebhook', { action: 'DeleteItem', resource: 'table', leadingKeys: ['CMD#abc'] })).toBe(false);
    expect(allowed(prod, 'twilioCallStatusWebhook', { action: 'PutItem', resource: 'table', leadingKeys: ['RELAY#conn-1'] })).toBe(false);
    expect(allowed(prod, 'twilioCallStatusWebhook', { action: 'GetItem', resource: 'table', leadingKeys: ['WEBHOOK#local'] })).toBe(false);
    expect(allowed(prod, 'salesWorker', { action: 'PutItem', resource: 'table', leadingKeys: ['WEBHOOK#local'] })).toBe(false);
    expect(allowed(prod, 'salesWorker', { action: 'GetItem', resource: 'table', leadingKeys: ['DELIVERY#we_1'] })).toBe(false);
    expect(allowed(prod, 'webhookDeliveryWorker', { action: 'PutItem', resource: 'table', leadingKeys: ['EVENT#abc'] })).toBe(false);
    expect(allowed(prod, 'webhookDeliveryWorker', { action: 'GetItem', resource: 'table', leadingKeys: ['CMD#abc'] })).toBe(false);
    expect(allowed(prod, 'webhooksApi', { action: 'UpdateItem', resource: 'table', leadingKeys: ['EVENT#abc'] })).toBe(false);
    expect(allowed(prod, 'webhooksApi', { action: 'DeleteItem', resource: 'table', leadingKeys: ['DELIVERY#we_1'] })).toBe(false);
    expect(allowed(prod, 'webhookDeliveryWorker', { action: 'DeleteItem', resource: 'table', leadingKeys: ['WEBHOOK#local'] })).toBe(false);
    expect(allowed(prod, 'webhooksApi', { action: 'GetItem', resource: 'table', leadingKeys: ['CMD#abc'] })).toBe(false);
    expect(allowed(prod, 'leadEventsApi', { action: 'PutItem', resource: 'table', leadingKeys: ['WEBHOOK#local'] })).toBe(false);
    expect(allowed(prod, 'followUpDispatcher', { action: 'GetItem', resource: 'table', leadingKeys: ['DELIVERY#we_1'] })).toBe(false);
    expect(allowed(prod, 'postCallSummaryWorker', { action: 'PutItem', resource: 'table', leadingKeys: ['EVENT#abc'] })).toBe(false);
    expect(allowed(prod, 'twilioCallStatusWebhook', { action: 'UpdateItem', resource: 'table', leadingKeys: ['SITE#abc'] })).toBe(false);
    expect(allowed(prod, 'callWorker', { action: 'GetItem', resource: 'table', leadingKeys: ['SITE#abc'] })).toBe(false);
    expect(allowed(prod, 'listFollowUpsApi', { action: 'Query', resource: 'index/gsi1', leadingKeys: ['FOLLOWUP#scheduled'] })).toBe(false);
    expect(allowed(prod, 'listFollowUpsApi', { action: 'UpdateItem', resource: 'table', leadingKeys: ['FOLLOWUP#abc'] })).toBe(false);
    expect(allowed(prod, 'listSiteFollowUpsApi', { action: 'Query', resource: 'index/gsi3', leadingKeys: ['CMD#TENANT#local'] })).toBe(
      false,
    );
    expect(allowed(prod, 'listSiteFollowUpsApi', { action: 'Query', resource: 'index/gsi2', leadingKeys: ['FOLLOWUP#LEAD#a'] })).toBe(
      false,
    );
    expect(allowed(prod, 'listCommandsApi', { action: 'Query', resource: 'index/gsi3', leadingKeys: ['FOLLOWUP#SITE#a'] })).toBe(false);
    expect(allowed(prod, 'listCommandsApi', { action: 'GetItem', resource: 'table', leadingKeys: ['CMD#abc'] })).toBe(false);
    expect(allowed(prod, 'listCommandsApi', { action: 'Query', resource: 'index/gsi1', leadingKeys: ['CMD#IN_PROGRESS#0'] })).toBe(false);
    // Usage is read, never written, by the route; and only through the totals' partition.
    expect(allowed(prod, 'usageApi', { action: 'UpdateItem', resource: 'table', leadingKeys: ['USAGE#local'] })).toBe(false);
    expect(allowed(prod, 'usageApi', { action: 'Query', resource: 'index/gsi3', leadingKeys: ['CMD#TENANT#local'] })).toBe(false);
    expect(allowed(prod, 'usageApi', { action: 'GetItem', resource: 'table', leadingKeys: ['CMD#abc'] })).toBe(false);
    expect(allowed(prod, 'updateFollowUpApi', { action: 'UpdateItem', resource: 'table', leadingKeys: ['SITE#abc'] })).toBe(false);
    expect(allowed(prod, 'updateFollowUpApi', { action: 'DeleteItem', resource: 'table', leadingKeys: ['FOLLOWUP#abc'] })).toBe(false);
    expect(allowed(prod, 'leadEventsApi', { action: 'PutItem', resource: 'table', leadingKeys: ['SITE#abc'] })).toBe(false);
    // Reported events go to the tenant's history, never into the site's lead; only the sales phase reads them.
    expect(allowed(prod, 'leadEventsApi', { action: 'UpdateItem', resource: 'table', leadingKeys: ['SITE#abc'] })).toBe(false);
    expect(allowed(prod, 'salesWorker', { action: 'PutItem', resource: 'table', leadingKeys: ['LEADHISTORY#abc#def'] })).toBe(false);
    expect(allowed(prod, 'copywriterWorker', { action: 'Query', resource: 'table', leadingKeys: ['LEADHISTORY#abc#def'] })).toBe(false);
    expect(allowed(prod, 'stakeholderCoordinationApi', { action: 'Query', resource: 'table', leadingKeys: ['LEADHISTORY#abc#def'] })).toBe(
      false,
    );
    expect(allowed(prod, 'followUpDispatcher', { action: 'Query', resource: 'index/gsi1', leadingKeys: ['CMD#IN_PROGRESS#0'] })).toBe(
      false,
    );
    expect(allowed(prod, 'followUpDispatcher', { action: 'Query', resource: 'index/gsi2', leadingKeys: ['FOLLOWUP#LEAD#x'] })).toBe(false);
    expect(allowed(prod, 'deleteCommandApi', { action: 'UpdateItem', resource: 'table', leadingKeys: ['FOLLOWUP#abc'] })).toBe(false);
    expect(allowed(prod, 'conversationRelayWebhook', { action: 'DeleteItem', resource: 'table', leadingKeys: ['CMD#abc'] })).toBe(false);
    expect(allowed(prod, 'conversationRelayWebhook', { action: 'GetItem', resource: 'table', leadingKeys: ['SITE#abc'] })).toBe(false);
    expect(allowed(prod, 'postCallSummaryWorker', { action: 'PutItem', resource: 'table', leadingKeys: ['CMD#abc'] })).toBe(false);
    expect(allowed(prod, 'postCallSummaryWorker', { action: 'GetItem', resource: 'table', leadingKeys: ['RELAY#abc'] })).toBe(false);
  });
});

/** Whether the function's synthesized policy allows the request, as IAM evaluates our statements. */
function allowed(env: WithTemplates, id: FunctionId, request: TableRequest): boolean {
  const tableArn = `Stateful:${logicalIdOf(env.json, 'stateful', 'AWS::DynamoDB::Table')}.Arn`;
  const resource = request.resource === 'table' ? tableArn : `${tableArn}/${request.resource}`;
  const roleId = logicalIdOf(env.json, 'service', 'AWS::IAM::Role', `${id}Role`);
  const statements = Object.values(env.json.service.Resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties?.Roles) === JSON.stringify([{ Ref: roleId }]))
    .flatMap(
      (r) =>
        (
          r.Properties?.PolicyDocument as {
            Statement: { Action: string | string[]; Resource: unknown; Condition?: Record<string, Record<string, unknown>> }[];
          }
        ).Statement,
    );
  return statements.some((statement) => {
    if (![statement.Action].flat().includes(`dynamodb:${request.action}`)) return false;
    if (![statement.Resource].flat().some((r) => canonical(r, env) === resource)) return false;
    const condition = statement.Condition ?? {};
    const patterns = condition['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'] as string[] | undefined;
    if (condition.Null?.['dynamodb:LeadingKeys'] === 'false' && request.leadingKeys.length === 0) return false;
    if (!patterns) return true;
    return request.leadingKeys.every((key) => patterns.some((pattern) => globMatches(pattern, key)));
  });
}

/** IAM's StringLike: `*` any run of characters, `?` one character. */
function globMatches(pattern: string, value: string): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`).test(value);
}
