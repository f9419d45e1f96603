import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGateway, type GatewayRoute } from '../../infra/local/http-gateway';
import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime';
import { DEMO_LEAD_ID, DEMO_SITE_ID } from '../../shared/api/examples';
import { functionById, type FunctionId } from '../../shared/catalogue/functions';
import { DEFAULT_ROUTE_FUNCTION, ROUTES } from '../../shared/catalogue/routes';
import { bundleFunction, deployedSettingsOf } from '../bench/function-bundle';
import { FunctionProcess, sandboxSettings } from '../bench/function-process';

/**
 * Routes whose code a function's cold start leaves out (a body schema only
 * some of its routes take, imported by the first request that needs it),
 * answered by the function's bundle as deployed: code split, run in a Node
 * process of its own behind the local gateway, against the embedded
 * DynamoDB and SQS. The sources run under Jest; this proves the chunks the
 * first such request imports are in the bundle and load.
 */

const FUNCTIONS_RUN: FunctionId[] = ['webhooksApi', 'crmConnectionApi', 'leadEventsApi'];

let runtime: LocalRuntime;
let outdir: string;
let gateway: Server;
let gatewayUrl: string;
const sandboxes: FunctionProcess[] = [];

beforeAll(async () => {
  runtime = await startLocalRuntime({ port: 0, workers: false, scheduleEveryMs: 0, settings: { LOG_LEVEL: 'ERROR' } });
  outdir = await mkdtemp(join(tmpdir(), 'switchboard-bundled-routes-'));
  const settings = sandboxSettings(runtime);
  const routes: GatewayRoute[] = [];
  for (const id of FUNCTIONS_RUN) {
    const fn = functionById(id);
    const built = await bundleFunction({ name: id, entry: fn.entry, split: fn.lazyChunks !== false }, outdir);
    const sandbox = await FunctionProcess.start(built.file, { ...settings, ...deployedSettingsOf(id), AWS_LAMBDA_FUNCTION_NAME: id });
    sandboxes.push(sandbox);
    for (const route of ROUTES.filter((candidate) => candidate.function === id)) {
      routes.push({
        ...route,
        functionName: id,
        timeoutSeconds: fn.timeoutSeconds,
        handler: async (event, context) => (await sandbox.invoke(event, context)).result,
      });
    }
  }
  // Nothing else is served here: another route would reach the catch-all, which answers as notFoundApi does.
  const fallback = functionById(DEFAULT_ROUTE_FUNCTION);
  const notServed = async () => ({ statusCode: 404, headers: { 'content-type': 'application/json' }, body: '{"success":false}' });
  gateway = createGateway(
    routes,
    { functionName: fallback.id, timeoutSeconds: fallback.timeoutSeconds, handler: notServed },
    { log: () => undefined },
  );
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.stop()));
  await new Promise<void>((resolve) => (gateway ? gateway.close(() => resolve()) : resolve()));
  await runtime?.stop();
  if (outdir) await rm(outdir, { recursive: true, force: true });
});

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; answer: Record<string, unknown> }> {
  const response = await fetch(`${gatewayUrl}${path}`, {
    method,
    headers: { 'x-api-key': runtime.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, answer: (await response.json()) as Record<string, unknown> };
}

describe('bundled functions answer the routes whose code their cold start leaves out', () => {
  it('webhooksApi registers, changes and rotates an endpoint, and refuses a bad body, with the body schemas it imports', async () => {
    const invalid = await call('POST', '/api/webhooks', { url: 'http://127.0.0.1:9/hooks', colour: 'blue' });
    expect(invalid.status).toBe(400);
    expect(invalid.answer).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });

    const registered = await call('POST', '/api/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['command.completed'] });
    expect(registered.status).toBe(201);
    const endpoint = registered.answer.data as { id: string; secret: string };
    expect(endpoint.secret).toEqual(expect.any(String));

    const changed = await call('PATCH', `/api/webhooks/${endpoint.id}`, { description: 'bundled' });
    expect(changed.status).toBe(200);
    expect(changed.answer.data).toMatchObject({ id: endpoint.id, description: 'bundled' });

    const rotated = await call('POST', `/api/webhooks/${endpoint.id}/rotate-secret`, { previous_secret_expires_in: 0 });
    expect(rotated.status).toBe(200);
    expect((rotated.answer.data as { secret: string }).secret).not.toBe(endpoint.secret);
  });

  it('crmConnectionApi checks a connect body and starts reading an import with the modules it imports', async () => {
    const connect = await call('PUT', '/api/integrations/hubspot', { access_token: '' });
    expect(connect.status).toBe(400);
    expect(connect.answer).toMatchObject({
      success: false,
      error: { code: 'INVALID_REQUEST', message: 'access_token: must not be empty' },
    });

    const importing = await call('POST', '/api/integrations/hubspot/import', { site_id: DEMO_SITE_ID, colour: 'blue' });
    expect(importing.status).toBe(400);
    // The import's request schema refused it: the module the first import loads answered.
    expect(importing.answer).toMatchObject({
      success: false,
      error: { code: 'INVALID_REQUEST', details: [{ code: 'unrecognized_keys', message: 'Unrecognized key: "colour"' }] },
    });
  });

  it('leadEventsApi answers a reply with a lead follow-up command, through the parser it imports', async () => {
    const reply = await call('POST', `/api/leads/${DEMO_LEAD_ID}/events`, {
      site_id: DEMO_SITE_ID,
      event: { type: 'replied', channel: 'email', summary: 'Asked for a call on Friday.' },
    });
    expect(reply.status).toBe(200);
    expect(reply.answer).toMatchObject({
      success: true,
      data: { event: { type: 'replied' }, interaction_recorded: true, command_id: expect.stringMatching(/^[0-9a-f-]{36}$/) },
    });
  });
});
