import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { get, createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { daemonAddress } from '../../shared/platform/xray/daemon';
import { parseTraceHeader } from '../../shared/platform/xray/trace-header';
import { xrayTracing, type XRayTracing } from '../../shared/platform/xray/tracing';
import { startFakeXRayDaemon, type FakeXRayDaemon, type SegmentDocument } from '../fakes/xray-daemon';
import { eventually } from '../support/eventually';

const TRACE_ID = '1-67a1b2c3-0123456789abcdef01234567';
const FUNCTION_SEGMENT = '53995c3f42cd8ad8';
const SAMPLED = `Root=${TRACE_ID};Parent=${FUNCTION_SEGMENT};Sampled=1`;

/** DynamoDB's JSON protocol on 127.0.0.1: the table named in the call picks the answer. */
function startFakeDynamoDb(): Promise<{ server: Server; url: string; headers: IncomingHttpHeaders[] }> {
  const headers: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      headers.push(request.headers);
      const table = (JSON.parse(body) as { TableName: string }).TableName;
      const answers: Record<string, [number, object]> = {
        missing: [400, { __type: 'com.amazonaws.dynamodb.v20120810#ResourceNotFoundException', message: 'Requested resource not found' }],
        busy: [400, { __type: 'com.amazonaws.dynamodb.v20120810#ThrottlingException', message: 'Rate exceeded' }],
        broken: [500, { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'Internal server error' }],
      };
      const [status, answer] = answers[table] ?? [200, { Item: { pk: { S: 'a' } } }];
      response.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': `REQ-${table}` });
      response.end(JSON.stringify(answer));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, headers })),
  );
}

/** A provider on 127.0.0.1 answering with the status its path names (`/status/503`), else 200. */
function startFakeProvider(): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const status = Number(/\/status\/(\d{3})/.exec(request.url ?? '')?.[1] ?? 200);
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end('{}');
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })),
  );
}

function getStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) =>
    get(url, (response) => (response.resume(), resolve(response.statusCode ?? 0))).on('error', reject),
  );
}

describe('xrayTracing', () => {
  let daemon: FakeXRayDaemon;
  let dynamo: Awaited<ReturnType<typeof startFakeDynamoDb>>;
  let provider: Awaited<ReturnType<typeof startFakeProvider>>;
  let header: string | undefined;
  let tracing: XRayTracing;
  let client: DynamoDBClient;

  beforeAll(async () => {
    [daemon, dynamo, provider] = await Promise.all([startFakeXRayDaemon(), startFakeDynamoDb(), startFakeProvider()]);
  });
  afterAll(async () => {
    await Promise.all([
      daemon.close(),
      new Promise((resolve) => dynamo.server.close(resolve)),
      new Promise((resolve) => provider.server.close(resolve)),
    ]);
  });
  beforeEach(() => {
    daemon.documents.length = 0;
    dynamo.headers.length = 0;
    header = SAMPLED;
    tracing = xrayTracing({ captureHttps: true, daemon: daemon.address, traceHeader: () => header });
    client = tracing.captureClient(
      new DynamoDBClient({
        endpoint: dynamo.url,
        region: 'eu-west-1',
        credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
        maxAttempts: 1,
      }),
    );
  });
  afterEach(() => {
    tracing.stop();
    client.destroy();
  });

  const received = (count: number) =>
    eventually(async () => (daemon.documents.length >= count ? [...daemon.documents] : undefined), 5_000, `${count} segment documents`);
  const named = (documents: SegmentDocument[], name: string) => documents.find((document) => document.name === name)!;

  it("records a span, the AWS calls and provider requests inside it as subsegments of the invocation's segment", async () => {
    const answer = await tracing.span('## sales_lead_follow_up', { commandId: 'cmd-1', 'bad key!': 'x' }, async () => {
      await client.send(new GetItemCommand({ TableName: 'switchboard', Key: { pk: { S: 'a' } } }));
      await (await fetch(`${provider.url}/v1/search?key=AIzaSECRET&q=x`)).text();
      await getStatus(`${provider.url}/calls?token=SECRET2`);
      return 42;
    });
    expect(answer).toBe(42);

    const documents = await received(4);
    expect(daemon.rejected).toEqual([]);
    const span = named(documents, '## sales_lead_follow_up');
    expect(span).toMatchObject({
      type: 'subsegment',
      trace_id: TRACE_ID,
      parent_id: FUNCTION_SEGMENT,
      annotations: { commandId: 'cmd-1', bad_key_: 'x' },
    });
    expect(span.id).toMatch(/^[0-9a-f]{16}$/);
    expect(Number(span.end_time)).toBeGreaterThanOrEqual(Number(span.start_time));
    expect(span).not.toHaveProperty('fault');

    const dynamoDb = named(documents, 'DynamoDB');
    expect(dynamoDb).toMatchObject({
      type: 'subsegment',
      namespace: 'aws',
      trace_id: TRACE_ID,
      parent_id: span.id,
      aws: { operation: 'GetItem', region: 'eu-west-1', request_id: 'REQ-switchboard', table_name: 'switchboard' },
      http: { response: { status: 200 } },
    });
    // The service joins the trace under the call's subsegment.
    expect(dynamo.headers[0]?.['x-amzn-trace-id']).toBe(`Root=${TRACE_ID};Parent=${dynamoDb.id};Sampled=1`);

    const remote = documents.filter((document) => document.namespace === 'remote');
    expect(remote).toHaveLength(2);
    for (const request of remote)
      expect(request).toMatchObject({ name: '127.0.0.1', parent_id: span.id, http: { response: { status: 200 } } });
    expect(remote.map((request) => (request.http as { request: { url: string } }).request.url).sort()).toEqual(
      [`${provider.url}/calls`, `${provider.url}/v1/search`].sort(),
    );
    expect(JSON.stringify(documents)).not.toMatch(/SECRET/);
  });

  it('flags client errors, throttling and faults, with the error named in the cause', async () => {
    const read = (table: string) => client.send(new GetItemCommand({ TableName: table, Key: { pk: { S: 'a' } } })).catch(() => undefined);
    await read('missing');
    await read('busy');
    await read('broken');
    await getStatus(`${provider.url}/status/503`);
    await (await fetch(`${provider.url}/status/404`)).text();
    await expect(tracing.span('## failing', {}, () => Promise.reject(new Error('model refused key sk-abcdefghijklmnop')))).rejects.toThrow(
      'model refused',
    );

    const documents = await received(6);
    const byTable = (table: string) =>
      documents.find((document) => (document.aws as { table_name?: string } | undefined)?.table_name === table)!;
    expect(byTable('missing')).toMatchObject({ error: true, http: { response: { status: 400 } }, parent_id: FUNCTION_SEGMENT });
    expect(byTable('missing')).not.toHaveProperty('fault');
    expect(byTable('missing').cause).toMatchObject({ exceptions: [{ type: 'ResourceNotFoundException' }] });
    expect(byTable('busy')).toMatchObject({ throttle: true, error: true });
    expect(byTable('broken')).toMatchObject({ fault: true, http: { response: { status: 500 } } });
    const remote = documents.filter((document) => document.namespace === 'remote');
    expect(remote.find((document) => (document.http as { response: { status: number } }).response.status === 503)).toMatchObject({
      fault: true,
    });
    expect(remote.find((document) => (document.http as { response: { status: number } }).response.status === 404)).toMatchObject({
      error: true,
    });
    const failing = named(documents, '## failing');
    expect(failing).toMatchObject({ fault: true, cause: { exceptions: [{ type: 'Error', message: 'model refused key [redacted]' }] } });
  });

  it('keeps concurrent spans apart: each call hangs under the span it ran in', async () => {
    const spanOf = (commandId: string) =>
      tracing.span(`## job ${commandId}`, { commandId }, async () => {
        await client.send(new GetItemCommand({ TableName: `table-${commandId}`, Key: { pk: { S: 'a' } } }));
        await client.send(new GetItemCommand({ TableName: `table-${commandId}`, Key: { pk: { S: 'b' } } }));
      });
    await Promise.all([spanOf('a'), spanOf('b'), spanOf('c')]);
    const documents = await received(9);
    for (const commandId of ['a', 'b', 'c']) {
      const span = named(documents, `## job ${commandId}`);
      const calls = documents.filter(
        (document) => (document.aws as { table_name?: string } | undefined)?.table_name === `table-${commandId}`,
      );
      expect(calls.map((call) => call.parent_id)).toEqual([span.id, span.id]);
    }
  });

  it('sends nothing for an invocation Lambda did not sample, or outside one, and the work runs the same', async () => {
    for (const unsampled of [`Root=${TRACE_ID};Parent=${FUNCTION_SEGMENT};Sampled=0`, undefined, 'Root=bad;Parent=x;Sampled=1']) {
      header = unsampled;
      const answer = await tracing.span('## quiet', {}, async () => {
        await client.send(new GetItemCommand({ TableName: 'switchboard', Key: { pk: { S: 'a' } } }));
        await (await fetch(provider.url)).text();
        return 'done';
      });
      expect(answer).toBe('done');
    }
    // A sampled call after them is the only document: nothing earlier was queued.
    header = SAMPLED;
    await client.send(new GetItemCommand({ TableName: 'after', Key: { pk: { S: 'a' } } }));
    const documents = await received(1);
    expect(documents.map((document) => document.name)).toEqual(['DynamoDB']);
  });

  it('records no outgoing request once stopped, and none at all without captureHttps', async () => {
    tracing.stop();
    await (await fetch(provider.url)).text();
    const plain = xrayTracing({ captureHttps: false, daemon: daemon.address, traceHeader: () => SAMPLED });
    await plain.span('## plain', {}, async () => (await fetch(provider.url)).text());
    const documents = await received(1);
    plain.stop();
    expect(documents.map((document) => document.name)).toEqual(['## plain']);
  });
});

describe('trace header and daemon address', () => {
  it("reads Lambda's trace header in any order, and refuses malformed ids", () => {
    expect(parseTraceHeader(`Sampled=1;Parent=${FUNCTION_SEGMENT};Root=${TRACE_ID};Lineage=a:1`)).toEqual({
      traceId: TRACE_ID,
      parentId: FUNCTION_SEGMENT,
      sampled: true,
    });
    expect(parseTraceHeader(`Root=${TRACE_ID};Parent=${FUNCTION_SEGMENT}`)).toMatchObject({ sampled: false });
    expect(parseTraceHeader(`Root=${TRACE_ID};Sampled=1`)).toBeUndefined();
    expect(parseTraceHeader(`Root=2-x;Parent=${FUNCTION_SEGMENT};Sampled=1`)).toBeUndefined();
    expect(parseTraceHeader(undefined)).toBeUndefined();
  });

  it('reads AWS_XRAY_DAEMON_ADDRESS in both of its forms, else the default', () => {
    expect(daemonAddress('169.254.79.129:2000')).toEqual({ host: '169.254.79.129', port: 2000 });
    expect(daemonAddress('tcp:10.0.0.1:2001 udp:10.0.0.2:2002')).toEqual({ host: '10.0.0.2', port: 2002 });
    expect(daemonAddress(undefined)).toEqual({ host: '127.0.0.1', port: 2000 });
    expect(daemonAddress('nonsense')).toEqual({ host: '127.0.0.1', port: 2000 });
  });
});
