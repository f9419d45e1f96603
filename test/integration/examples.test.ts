import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime';
import { signatureHeader } from '../../shared/webhooks/signature';
import { eventually } from '../support/embedded';
import { call } from '../support/http';

/**
 * The files of examples/, as the docs tell users to use them: sites.json
 * loaded as `DATA_FILE` (the import `npm start` and `npm run data:import`
 * run) and worked on, and webhook-receiver.mjs run with plain node,
 * receiving what the service delivers.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SITES_FILE = fileURLToPath(new URL('../../examples/sites.json', import.meta.url));
const RECEIVER_FILE = fileURLToPath(new URL('../../examples/webhook-receiver.mjs', import.meta.url));
const sites = JSON.parse(readFileSync(SITES_FILE, 'utf8')) as { sites: { id: string; leads: { id: string }[] }[] };
const site = sites.sites[0]!;
const lead = site.leads[0]!;

interface Receiver {
  process: ChildProcessWithoutNullStreams;
  url: string;
  events: () => { id: string; type: string; data: { command?: { command_id?: string; status?: string } } }[];
}

/** Starts the receiver as a user would (`node examples/webhook-receiver.mjs`). */
async function startReceiver(secret: string, port: number): Promise<Receiver> {
  const child = spawn(process.execPath, [RECEIVER_FILE], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, SWITCHBOARD_WEBHOOK_SECRET: secret, PORT: String(port) },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await eventually(async () => /Listening on (\S+)/.exec(stderr)?.[1], 10_000, 'the receiver to listen');
  return {
    process: child,
    url,
    events: () =>
      stdout
        .split('\n')
        .slice(0, -1) // complete lines only
        .filter(Boolean)
        .map((line) => JSON.parse(line) as ReturnType<Receiver['events']>[number]),
  };
}

let runtime: LocalRuntime;
let receiver: Receiver | undefined;

beforeAll(async () => {
  runtime = await startLocalRuntime({
    port: 0,
    scheduleEveryMs: 0,
    demoData: false,
    dataFiles: [SITES_FILE],
    settings: { LOG_LEVEL: 'SILENT', OPENAI_API_KEY: undefined },
  });
});
afterAll(async () => {
  receiver?.process.kill('SIGTERM');
  await runtime?.stop();
});

describe('examples/sites.json', () => {
  it('is imported as a data file, and its site is the key’s', () => {
    expect(runtime.siteIds).toEqual([site.id]);
  });

  it('has a lead a follow-up can be written for, on its enabled email channel', async () => {
    const answer = await call(runtime.url, 'POST', '/api/agents/sales/leadFollowUp', {
      key: runtime.apiKey,
      headers: { prefer: 'wait=20' },
      body: { siteId: site.id, leadId: lead.id },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ messages: { email: { title: expect.any(String) } } });
  });
});

describe('examples/webhook-receiver.mjs', () => {
  it('holds the same check as docs/webhooks.md "Verifying signatures"', () => {
    const page = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
    const documented = /```js\n([\s\S]*?)```/.exec(page.slice(page.indexOf('## Verifying signatures')))![1]!;
    const fn = (text: string) => /export function verifyWebhookSignature[\s\S]*?\n}\n/.exec(text)?.[0];
    expect(fn(readFileSync(RECEIVER_FILE, 'utf8'))).toBe(fn(documented));
    expect(fn(documented)).toBeDefined();
  });

  it('receives, verified, the command.completed the service delivers to it', async () => {
    const port = await freePort();
    const endpoint = await call(runtime.url, 'POST', '/api/webhooks', {
      key: runtime.apiKey,
      body: { url: `http://127.0.0.1:${port}/hooks`, events: ['command.completed'] },
    });
    expect(endpoint.status).toBe(201);
    receiver = await startReceiver(endpoint.body.data!.secret as string, port);

    const command = await call(runtime.url, 'POST', '/api/agents/sales/leadFollowUp', {
      key: runtime.apiKey,
      headers: { prefer: 'wait=20', 'idempotency-key': 'examples-receiver' },
      body: { siteId: site.id, leadId: lead.id },
    });
    expect(command.status).toBe(200);
    const commandId = command.body.data!.command_id as string;
    const received = await eventually(
      async () => receiver!.events().find((event) => event.type === 'command.completed' && event.data.command?.command_id === commandId),
      20_000,
      'the receiver to print the command.completed',
    );
    expect(received.data.command?.status).toBe('completed');
    const delivered = await eventually(
      async () => {
        const deliveries = await call(runtime.url, 'GET', `/api/webhooks/${endpoint.body.data!.id as string}/deliveries`, {
          key: runtime.apiKey,
        });
        const list = (deliveries.body.data?.deliveries ?? []) as { event_id: string; status: string }[];
        return list.find((delivery) => delivery.event_id === received.id && delivery.status === 'delivered');
      },
      10_000,
      'the delivery recorded as delivered',
    );
    expect(delivered.status).toBe('delivered');
  });

  it('refuses a wrong signature, and answers a repeated event without handling it twice', async () => {
    const secret = 'whsec_examples-test-secret-0123456789abcdef';
    const port = await freePort();
    receiver?.process.kill('SIGTERM');
    receiver = await startReceiver(secret, port);
    const body = JSON.stringify({
      id: 'evt_examples_1',
      type: 'command.completed',
      created_at: new Date().toISOString(),
      data: { command: { command_id: 'x', status: 'completed' } },
    });
    const send = (signature: string) =>
      fetch(receiver!.url, { method: 'POST', headers: { 'content-type': 'application/json', 'switchboard-signature': signature }, body });
    const now = Math.floor(Date.now() / 1000);

    expect((await send(signatureHeader(['whsec_someone-else'], now, body))).status).toBe(400);
    expect((await send(signatureHeader([secret], now - 600, body))).status).toBe(400);
    expect((await send(signatureHeader([secret], now, body))).status).toBe(204);
    const again = await send(signatureHeader(['whsec_rotated-in', secret], now, body));
    expect([again.status, await again.text()]).toEqual([200, 'duplicate']);
    await eventually(async () => (receiver!.events().length === 1 ? true : undefined), 5_000, 'the one event printed');
    expect(receiver.events().map((event) => event.id)).toEqual(['evt_examples_1']);
  });
});

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
