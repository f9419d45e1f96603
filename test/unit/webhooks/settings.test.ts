import { ConfigError } from '../../../shared/platform/config';
import { hopDelaySeconds, nextRetryDelaySeconds } from '../../../shared/webhooks/retry-schedule';
import { DEFAULT_RETRY_DELAYS_SECONDS, readWebhookSettings } from '../../../shared/webhooks/settings';

describe('webhook settings', () => {
  it('default to the documented schedule and no loopback endpoints (as in AWS)', () => {
    expect(readWebhookSettings({})).toEqual({
      retryDelaysSeconds: [30, 120, 600, 3600, 21600, 86400],
      allowLoopback: false,
      reservedPorts: new Set(),
      disableAfterMs: 5 * 86_400_000,
    });
    expect(DEFAULT_RETRY_DELAYS_SECONDS).toEqual([30, 120, 600, 3600, 21600, 86400]);
  });

  it('read WEBHOOK_RETRY_DELAYS, WEBHOOK_ALLOW_LOOPBACK and WEBHOOK_RESERVED_PORTS', () => {
    expect(
      readWebhookSettings({ WEBHOOK_RETRY_DELAYS: '1, 2,3', WEBHOOK_ALLOW_LOOPBACK: 'TRUE', WEBHOOK_RESERVED_PORTS: '3000, 41234,3000' }),
    ).toEqual({
      retryDelaysSeconds: [1, 2, 3],
      allowLoopback: true,
      reservedPorts: new Set([3000, 41234]),
      disableAfterMs: 5 * 86_400_000,
    });
    expect(readWebhookSettings({ WEBHOOK_RETRY_DELAYS: '0', WEBHOOK_ALLOW_LOOPBACK: 'false' })).toEqual({
      retryDelaysSeconds: [0],
      allowLoopback: false,
      reservedPorts: new Set(),
      disableAfterMs: 5 * 86_400_000,
    });
    expect(readWebhookSettings({ WEBHOOK_RETRY_DELAYS: '  ' }).retryDelaysSeconds).toEqual([30, 120, 600, 3600, 21600, 86400]);
  });

  it.each([
    ['P5D', 5 * 86_400],
    ['PT12H', 12 * 3600],
    ['P1DT6H30M15S', 86_400 + 6 * 3600 + 30 * 60 + 15],
    ['P2W', 14 * 86_400],
    ['pt90s', 90],
    ['3600', 3600],
    [' 1 ', 1],
  ])('read WEBHOOK_DISABLE_AFTER %s as an ISO 8601 duration or seconds', (value, seconds) => {
    expect(readWebhookSettings({ WEBHOOK_DISABLE_AFTER: value }).disableAfterMs).toBe(seconds * 1000);
  });

  it.each([
    [{ WEBHOOK_DISABLE_AFTER: 'P' }, /WEBHOOK_DISABLE_AFTER: must be an ISO 8601 duration/],
    [{ WEBHOOK_DISABLE_AFTER: 'P1DT' }, /WEBHOOK_DISABLE_AFTER/],
    [{ WEBHOOK_DISABLE_AFTER: 'P1M' }, /WEBHOOK_DISABLE_AFTER/],
    [{ WEBHOOK_DISABLE_AFTER: '5 days' }, /WEBHOOK_DISABLE_AFTER/],
    [{ WEBHOOK_DISABLE_AFTER: '0' }, /WEBHOOK_DISABLE_AFTER/],
    [{ WEBHOOK_DISABLE_AFTER: 'P31D' }, /WEBHOOK_DISABLE_AFTER/],
    [{ WEBHOOK_RETRY_DELAYS: '30,soon' }, /WEBHOOK_RETRY_DELAYS: must be 1 to 20 whole numbers/],
    [{ WEBHOOK_RETRY_DELAYS: '30,-1' }, /WEBHOOK_RETRY_DELAYS/],
    [{ WEBHOOK_RETRY_DELAYS: '1.5' }, /WEBHOOK_RETRY_DELAYS/],
    [{ WEBHOOK_RETRY_DELAYS: '999999' }, /WEBHOOK_RETRY_DELAYS/],
    [{ WEBHOOK_ALLOW_LOOPBACK: 'yes' }, /WEBHOOK_ALLOW_LOOPBACK: must be true or false/],
    [{ WEBHOOK_RESERVED_PORTS: '3000,dynamodb' }, /WEBHOOK_RESERVED_PORTS: must be port numbers/],
    [{ WEBHOOK_RESERVED_PORTS: '70000' }, /WEBHOOK_RESERVED_PORTS/],
    [{ WEBHOOK_RESERVED_PORTS: '0' }, /WEBHOOK_RESERVED_PORTS/],
  ])('fail the cold start on a malformed value, naming it (%o)', (settings, message) => {
    expect(() => readWebhookSettings(settings)).toThrow(ConfigError);
    expect(() => readWebhookSettings(settings)).toThrow(message);
  });
});

describe('the retry schedule', () => {
  it('waits each delay after the attempt of its rank, and gives up after the attempt that follows the last', () => {
    const delays = [30, 120, 600];
    expect([1, 2, 3, 4, 5].map((attempt) => nextRetryDelaySeconds(delays, attempt))).toEqual([30, 120, 600, undefined, undefined]);
    expect(nextRetryDelaySeconds([], 1)).toBeUndefined();
  });

  it('makes waits longer than SQS allows out of hops of at most 900 s', () => {
    expect(hopDelaySeconds(86_400_000)).toBe(900);
    expect(hopDelaySeconds(30_000)).toBe(30);
    expect(hopDelaySeconds(1_200)).toBe(2);
    expect(hopDelaySeconds(-5)).toBe(0);
  });
});
