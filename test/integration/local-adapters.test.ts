import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { createGateway } from '../../infra/local/http-gateway';
import { startPoller } from '../../infra/local/sqs-poller';
import type { HttpEvent } from '../../shared/platform/http/types';
import { eventually, startEmbeddedServices, type EmbeddedServices } from '../support/embedded';

/**
 * The local runtime must hand handlers the very shapes AWS does: the HTTP
 * gateway's events and the poller's SQS records are compared with fixtures
 * in the shape AWS documents (test/events/).
 */
const fixture = async <T>(name: string): Promise<T> =>
  JSON.parse(await readFile(new URL(`../events/${name}`, import.meta.url), 'utf8')) as T;

const keysDeep = (value: unknown, prefix = ''): string[] =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.entries(value).flatMap(([key, inner]) =>
        ['headers', 'pathParameters', 'queryStringParameters', 'messageAttributes'].includes(key)
          ? [`${prefix}${key}`]
          : [`${prefix}${key}`, ...keysDeep(inner, `${prefix}${key}.`)],
      )
    : [];

describe('local HTTP gateway', () => {
  let server: Server;
  const seen: HttpEvent[] = [];
  beforeAll(async () => {
    const capture = async (event: HttpEvent) => {
      seen.push(event);
      return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' };
    };
    server = createGateway(
      [{ method: 'GET', path: '/api/commands/{id}', functionName: 'getCommandApi', timeoutSeconds: 10, handler: capture }],
      {
        functionName: 'notFoundApi',
        timeoutSeconds: 10,
        handler: capture,
      },
      { log: () => undefined },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('turns a request into an HTTP API payload v2 event of the documented shape', async () => {
    const expected = await fixture<HttpEvent>('http-api-v2-get-command.json');
    const { port } = server.address() as AddressInfo;
    await fetch(`http://127.0.0.1:${port}${expected.rawPath}?verbose=1`, { headers: { 'X-Api-Key': 'sbk_example' } });
    const event = seen.at(-1)!;
    expect(keysDeep(event).sort()).toEqual(keysDeep(expected).sort());
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: expected.routeKey,
      rawPath: expected.rawPath,
      rawQueryString: 'verbose=1',
      queryStringParameters: { verbose: '1' },
      pathParameters: expected.pathParameters,
      isBase64Encoded: false,
      requestContext: { routeKey: expected.routeKey, stage: '$default', http: { method: 'GET', path: expected.rawPath } },
    });
    expect(event.headers['x-api-key']).toBe('sbk_example');
  });

  it('sends unmatched requests to the default route with their body', async () => {
    const { port } = server.address() as AddressInfo;
    await fetch(`http://127.0.0.1:${port}/api/elsewhere`, { method: 'POST', body: '{"a":1}' });
    expect(seen.at(-1)).toMatchObject({ routeKey: '$default', body: '{"a":1}', requestContext: { http: { method: 'POST' } } });
  });
});

describe('local SQS poller', () => {
  let services: EmbeddedServices;
  beforeAll(async () => {
    services = await startEmbeddedServices({ visibilityTimeoutSeconds: 1 });
  });
  afterAll(() => services.stop());

  it('hands records of the documented shape and deletes only those not reported as failures', async () => {
    const expected = await fixture<SQSEvent>('sqs-batch.json');
    const url = services.aws.queues.sales.url;
    const batches: SQSEvent[] = [];
    const failOnce = new Set<string>();
    const poller = startPoller({
      sqs: services.aws.sqs,
      queueUrl: url,
      queueArn: 'arn:aws:sqs:us-east-1:000000000000:switchboard-sales',
      region: 'us-east-1',
      functionName: 'salesWorker',
      timeoutSeconds: 60,
      batchSize: 10,
      concurrency: 1,
      handler: async (event) => {
        batches.push(event);
        const failures = event.Records.filter((record) => record.body === 'fail-once' && !failOnce.has(record.messageId));
        failures.forEach((record) => failOnce.add(record.messageId));
        return { batchItemFailures: failures.map((record) => ({ itemIdentifier: record.messageId })) };
      },
    });
    try {
      await services.aws.sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'ok' }));
      await services.aws.sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: 'fail-once' }));
      const retried = await eventually(
        async () => {
          const records = batches.flatMap((batch) => batch.Records).filter((record) => record.body === 'fail-once');
          return records.length >= 2 ? records : undefined;
        },
        10_000,
        'the failed record to come back',
      );
      expect(retried[1]!.attributes.ApproximateReceiveCount).toBe('2');
      const okDeliveries = batches.flatMap((batch) => batch.Records).filter((record) => record.body === 'ok');
      expect(okDeliveries).toHaveLength(1);
      expect(keysDeep(okDeliveries[0]).sort()).toEqual(keysDeep(expected.Records[0]).sort());
      expect(okDeliveries[0]).toMatchObject({ eventSource: 'aws:sqs', awsRegion: 'us-east-1' });
    } finally {
      await poller.stop();
    }
  });
});
