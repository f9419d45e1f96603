import { formatBanner } from '../../infra/local/banner';
import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime';
import { environmentSecrets } from '../../shared/platform/secrets';
import { configuredTelephony } from '../../shared/providers/telephony/from-settings';
import { startFakeTwilio } from '../fakes/twilio';
import { eventually } from '../support/embedded';

const quiet = { LOG_LEVEL: 'SILENT', OPENAI_API_KEY: undefined };
const bannerOf = (runtime: LocalRuntime, env: Record<string, string | undefined>) =>
  formatBanner(runtime, { keySource: { kind: 'generated' }, extraKeys: 0, graceSeconds: 5, env });

describe('local runtime telephony', () => {
  it('starts the local telephony without Twilio settings, with PUBLIC_BASE_URL on its own port, and stops it', async () => {
    // Until the status webhook lands, the gateway answers the callbacks 404: reported through onError, not printed.
    const runtime = await startLocalRuntime({
      port: 0,
      workers: false,
      scheduleEveryMs: 0,
      localRingTimeoutMs: 60_000,
      settings: quiet,
      onError: () => undefined,
    });
    const local = runtime.localTelephony!;
    try {
      expect(local).toBeDefined();
      expect(runtime.publicBaseUrl).toBe(runtime.url);
      expect(runtime.url).not.toMatch(/:0$/);
      expect(bannerOf(runtime, {})).toContain('telephony:         local telephony (no calls leave this machine');
      expect(local.settings).toMatchObject({
        TWILIO_API_BASE_URL: local.baseUrl,
        TWILIO_ACCOUNT_SID: local.accountSid,
        LOCAL_TELEPHONY: 'true',
      });

      // What the functions are given places calls labelled `local`, and the callbacks reach this runtime's gateway.
      const telephony = await configuredTelephony({ settings: local.settings, secrets: environmentSecrets(local.settings) })();
      const placed = await telephony!.placeCall({
        to: '+14155552671',
        twiml: '<Response/>',
        statusCallbackUrl: `${runtime.publicBaseUrl}/webhooks/twilio/call-status`,
      });
      expect(placed.provider).toBe('local');
      const delivered = await eventually(
        async () => {
          const [call] = local.calls();
          return call && call.callbacks.length >= 2 && call.callbacks.every((callback) => callback.httpStatus !== undefined)
            ? call
            : undefined;
        },
        15_000,
        'the callbacks to reach the gateway',
      );
      expect(delivered.callbacks.map((callback) => callback.callStatus)).toEqual(['initiated', 'ringing']);
    } finally {
      await runtime.stop();
    }
    await expect(fetch(`${local.baseUrl}/2010-04-01/Accounts/${local.accountSid}/Calls.json`, { method: 'POST' })).rejects.toThrow();
  });

  it('uses Twilio when its settings are given, and keeps a PUBLIC_BASE_URL that is set', async () => {
    const fake = await startFakeTwilio();
    const runtime = await startLocalRuntime({
      port: 0,
      workers: false,
      scheduleEveryMs: 0,
      settings: { ...quiet, ...fake.settings, PUBLIC_BASE_URL: 'https://hooks.example.com/prod' },
    });
    try {
      expect(runtime.localTelephony).toBeUndefined();
      expect(runtime.publicBaseUrl).toBe('https://hooks.example.com/prod');
      expect(bannerOf(runtime, fake.settings)).toContain(`telephony:         Twilio (calls from ${fake.fromNumber} at 127.0.0.1`);
      expect(bannerOf(runtime, fake.settings)).not.toContain(fake.authToken);
    } finally {
      await runtime.stop();
      await fake.close();
    }
  });

  it('does not stand in for a half-configured Twilio, and the banner names what is missing', async () => {
    const runtime = await startLocalRuntime({
      port: 0,
      workers: false,
      scheduleEveryMs: 0,
      settings: { ...quiet, TWILIO_FROM_NUMBER: '+15005550006' },
    });
    try {
      expect(runtime.localTelephony).toBeUndefined();
      expect(bannerOf(runtime, { TWILIO_FROM_NUMBER: '+15005550006' })).toContain('TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN not set');
    } finally {
      await runtime.stop();
    }
  });
});
