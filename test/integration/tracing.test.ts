import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { capturesOutgoingHttps, tracingOf } from '../../shared/composition/adapters';
import { FUNCTIONS } from '../../shared/catalogue/functions';
import { noTracing } from '../../shared/platform/tracing';

const ROOT = resolve(import.meta.dirname, '..', '..');

/**
 * What tracing built as in Lambda (tracing on) instruments, seen from a
 * fresh process (its module reads the environment when imported): it
 * listens on the diagnostics channels of `http`/`https` and undici, and
 * patches nothing.
 */
function instrumentedBy(captureHttps: boolean): { patched: boolean; http: boolean; fetch: boolean } {
  const script = `
    import http from 'node:http';
    import https from 'node:https';
    import { hasSubscribers } from 'node:diagnostics_channel';
    const before = { http: http.request, https: https.request };
    const { lambdaTracing } = await import(${JSON.stringify(resolve(ROOT, 'shared/platform/tracing.ts'))});
    lambdaTracing({ captureHttps: ${String(captureHttps)} });
    process.stdout.write(JSON.stringify({
      patched: http.request !== before.http || https.request !== before.https,
      http: hasSubscribers('http.client.request.start') && hasSubscribers('http.client.response.finish'),
      fetch: hasSubscribers('undici:request:create') && hasSubscribers('undici:request:headers'),
    }));`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      AWS_LAMBDA_FUNCTION_NAME: 'researchWorker',
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
    },
  });
  if (child.status !== 0) throw new Error(child.stderr);
  return JSON.parse(child.stdout) as { patched: boolean; http: boolean; fetch: boolean };
}

describe('tracingOf', () => {
  it('traces nothing outside Lambda (tests, npm start) or when tracing is turned off', () => {
    expect(tracingOf('salesWorker', {})).toBe(noTracing);
    expect(tracingOf('salesWorker', { AWS_LAMBDA_FUNCTION_NAME: 'sales', POWERTOOLS_TRACE_ENABLED: 'false' })).toBe(noTracing);
  });

  it('runs the work of a span unchanged when nothing is traced', async () => {
    await expect(noTracing.span('## x', { commandId: 'c' }, async () => 42)).resolves.toBe(42);
  });

  it('captures outgoing HTTPS in every worker and in functions that read provider secrets, nowhere else', () => {
    const capturing = FUNCTIONS.filter((fn) => capturesOutgoingHttps(fn.id)).map((fn) => fn.id);
    for (const fn of FUNCTIONS.filter((candidate) => candidate.kind === 'worker')) expect(capturing).toContain(fn.id);
    expect(capturing).toEqual(
      expect.arrayContaining(['researchWorker', 'salesWorker', 'webhookDeliveryWorker', 'callWorker', 'conversationRelayWebhook']),
    );
    expect(capturing).not.toContain('getCommandApi');
    expect(capturing).not.toContain('commandJanitor');
  });

  it('in Lambda, capturing tracing listens to http, https and fetch; without capture to none; it patches nothing', () => {
    expect(instrumentedBy(true)).toEqual({ patched: false, http: true, fetch: true });
    expect(instrumentedBy(false)).toEqual({ patched: false, http: false, fetch: false });
  });
});
