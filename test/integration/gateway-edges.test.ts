import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createGateway } from '../../infra/local/http-gateway';
import type { RequestRecord } from '../../infra/local/request-log';
import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime';
import { call } from '../support/http';

/** What the local gateway does at the edges of HTTP, through the running local runtime. */
let runtime: LocalRuntime;

beforeAll(async () => {
  runtime = await startLocalRuntime({
    port: 0,
    workers: false,
    scheduleEveryMs: 0,
    settings: { LOG_LEVEL: 'SILENT', OPENAI_API_KEY: undefined },
  });
});
afterAll(() => runtime.stop());

/** The raw answer to bytes written on a fresh connection. */
function rawExchange(url: string, bytes: string): Promise<string> {
  const { port, hostname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('a path that is not valid percent-encoding', () => {
  const path = '/api/commands/%E0%A4%A';

  it('answers 401 UNAUTHORIZED without a key', async () => {
    const answer = await call(runtime.url, 'GET', path);
    expect(answer).toMatchObject({ status: 401, body: { success: false, error: { code: 'UNAUTHORIZED' } } });
  });

  it('answers 404 COMMAND_NOT_FOUND in the envelope with a key', async () => {
    const answer = await call(runtime.url, 'GET', path, { key: runtime.apiKey });
    expect(answer).toMatchObject({ status: 404, body: { success: false, error: { code: 'COMMAND_NOT_FOUND' } } });
  });
});

describe('HEAD /health', () => {
  it('answers 200 with the headers of GET and no body', async () => {
    const get = await call(runtime.url, 'GET', '/health');
    const head = await new Promise<{ status: number; headers: Record<string, unknown>; bytes: number }>((resolve, reject) => {
      const req = httpRequest(`${runtime.url}/health`, { method: 'HEAD' }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(head).toMatchObject({ status: 200, bytes: 0 });
    expect(head.headers['content-type']).toBe(get.headers.get('content-type'));
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.text)));
  });

  it('sends no body bytes on the wire', async () => {
    const answer = await rawExchange(runtime.url, 'HEAD /health HTTP/1.1\r\nHost: local\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer.split('\r\n\r\n')[1]).toBe('');
  });
});

describe('requests Node cannot parse', () => {
  it('answers oversized headers 431 HEADERS_TOO_LARGE in the envelope', async () => {
    const response = await fetch(`${runtime.url}/health`, { headers: { 'x-padding': 'a'.repeat(20_000) } });
    expect(response.status).toBe(431);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ success: false, error: { code: 'HEADERS_TOO_LARGE', message: expect.any(String) } });
  });

  it('answers a malformed request 400 INVALID_REQUEST in the envelope, with its length, and closes', async () => {
    const answer = await rawExchange(runtime.url, 'GET /health HTTP/1.1\r\nHost: local\r\nContent-Length: nope\r\n\r\n');
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head).toMatch(/content-type: application\/json/i);
    expect(head).toContain(`content-length: ${Buffer.byteLength(body!)}`);
    expect(JSON.parse(body!)).toEqual({ success: false, error: { code: 'INVALID_REQUEST', message: expect.any(String) } });
  });
});

describe('the request log', () => {
  let server: Server;
  const logged: RequestRecord[] = [];
  beforeAll(async () => {
    server = createGateway(
      [
        {
          method: 'POST',
          path: '/api/agents/sales/leadFollowUp',
          functionName: 'leadFollowUpApi',
          timeoutSeconds: 10,
          handler: async () => ({ statusCode: 202, headers: { location: '/api/commands/c-42' }, body: '{"success":true}' }),
        },
      ],
      { functionName: 'notFoundApi', timeoutSeconds: 10, handler: async () => ({ statusCode: 404, headers: {}, body: '{}' }) },
      { log: (entry) => logged.push(entry) },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('records each answered request with its status, duration and the command id of its Location', async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await call(url, 'POST', '/api/agents/sales/leadFollowUp?debug=1', { body: {} });
    await call(url, 'GET', '/nowhere');
    expect(logged).toEqual([
      {
        at: expect.any(Date),
        method: 'POST',
        path: '/api/agents/sales/leadFollowUp',
        status: 202,
        durationMs: expect.any(Number),
        commandId: 'c-42',
      },
      { at: expect.any(Date), method: 'GET', path: '/nowhere', status: 404, durationMs: expect.any(Number) },
    ]);
  });
});
