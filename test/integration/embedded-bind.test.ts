import { startLocalRuntime } from '../../infra/local/runtime';
import { call } from '../support/http';

/** The embedded DynamoDB and SQS have no authentication: they stay on the loopback address whatever HOST says. */
describe('local runtime with HOST=0.0.0.0', () => {
  it('binds the HTTP server to HOST and the embedded DynamoDB and SQS to 127.0.0.1', async () => {
    const runtime = await startLocalRuntime({
      host: '0.0.0.0',
      port: 0,
      workers: false,
      scheduleEveryMs: 0,
      settings: { LOG_LEVEL: 'SILENT' },
    });
    try {
      expect(runtime.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
      expect(runtime.dynamodbEndpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(runtime.sqsEndpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      for (const queue of Object.values(runtime.queues)) expect(new URL(queue.url).hostname).toBe('127.0.0.1');
      expect((await call(runtime.url.replace('0.0.0.0', '127.0.0.1'), 'GET', '/health')).status).toBe(200);
    } finally {
      await runtime.stop();
    }
  });
});
