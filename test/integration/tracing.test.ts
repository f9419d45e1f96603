import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { capturesOutgoingHttps, tracingOf } from '../../shared/composition/adapters';
import { FUNCTIONS } from '../../shared/catalogue/functions';
import { noTracing, tracerOptions } from '../../shared/platform/tracing';

const ROOT = resolve(import.meta.dirname, '..', '..');

/**
 * What a tracer built as in Lambda (tracing on) instruments, seen from a
 * fresh process: the X-Ray SDK patches the process's http/https modules
 * and subscribes to undici's channels, which a jest worker must not keep.
 */
function instrumentedBy(captureHttps: boolean): { https: boolean; http: boolean; fetch: boolean } {
  const script = `
    import http from 'node:http';
    import https from 'node:https';
    import { hasSubscribers } from 'node:diagnostics_channel';
    const before = { http: http.request, https: https.request };
    const { powertoolsTracing } = await import(${JSON.stringify(resolve(ROOT, 'shared/platform/tracing.ts'))});
    powertoolsTracing('researchWorker', { captureHttps: ${String(captureHttps)} });
    process.stdout.write(JSON.stringify({
      http: http.request !== before.http,
      https: https.request !== before.https,
      fetch: hasSubscribers('undici:request:create'),
    }));`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      AWS_LAMBDA_FUNCTION_NAME: 'researchWorker',
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
      AWS_XRAY_CONTEXT_MISSING: 'IGNORE_ERROR',
      AWS_XRAY_LOG_LEVEL: 'silent',
    },
  });
  if (child.status !== 0) throw new Error(child.stderr);
  return JSON.parse(child.stdout) as { https: boolean; http: boolean; fetch: boolean };
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
    expect(tracerOptions('researchWorker', { captureHttps: true })).toEqual({ serviceName: 'researchWorker', captureHTTPsRequests: true });
    expect(tracerOptions('getCommandApi', { captureHttps: false })).toEqual({ serviceName: 'getCommandApi', captureHTTPsRequests: false });
  });

  it('in Lambda, a capturing tracer instruments http, https and fetch; one without capture instruments none', () => {
    expect(instrumentedBy(true)).toEqual({ http: true, https: true, fetch: true });
    expect(instrumentedBy(false)).toEqual({ http: false, https: false, fetch: false });
  });
});
