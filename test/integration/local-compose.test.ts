import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime';
import { call } from '../support/http';

/**
 * When the local runtime composes its functions: on first use by default (as
 * Lambda's cold start: a function nobody calls is never loaded), or all at
 * start (`npm start`), where a malformed setting stops the start.
 */
const KEY = 'sbk_local-compose-test-key-00001';
const NO_SUCH_COMMAND = '0190a5e0-0000-7000-8000-000000000000';
// Read only by the webhook delivery worker when it is composed.
const BROKEN = { LOG_LEVEL: 'SILENT', WEBHOOK_RETRY_DELAYS: 'soon' };

describe('composing the functions of the local runtime', () => {
  it('with compose "start", refuses to start on a malformed setting and names it', async () => {
    await expect(startLocalRuntime({ port: 0, apiKey: KEY, compose: 'start', scheduleEveryMs: 0, settings: BROKEN })).rejects.toThrow(
      /WEBHOOK_RETRY_DELAYS/,
    );
  });

  it('by default composes a function on its first use: one with a malformed setting it never reads still serves', async () => {
    let runtime: LocalRuntime | undefined;
    try {
      runtime = await startLocalRuntime({ port: 0, apiKey: KEY, scheduleEveryMs: 0, settings: BROKEN });
      expect((await call(runtime.url, 'GET', '/health')).status).toBe(200);
      const missing = await call(runtime.url, 'GET', `/api/commands/${NO_SUCH_COMMAND}`, { key: KEY });
      expect([missing.status, missing.body.error?.code]).toEqual([404, 'COMMAND_NOT_FOUND']);
    } finally {
      await runtime?.stop();
    }
  });
});
