import { ConfigError } from '../../shared/platform/config';
import { environmentSecrets, type SecretSource } from '../../shared/platform/secrets';
import { TELEPHONY_REFRESH_MS, twilioAuthToken } from '../../shared/providers/telephony/auth-token';
import { configuredTelephony, isE164, telephonySettingsSchema, TWILIO_SECRET_KEYS } from '../../shared/providers/telephony/from-settings';
import { readConfig } from '../../shared/platform/config';
import { startFakeTwilio, type FakeTwilio } from '../fakes/twilio';

const call = { to: '+14155552671', twiml: '<Response/>', statusCallbackUrl: 'https://hooks.example.com/webhooks/twilio/call-status' };

let fake: FakeTwilio;
beforeAll(async () => {
  fake = await startFakeTwilio();
});
afterAll(async () => {
  await fake.close();
});

describe('configuredTelephony', () => {
  it('places calls through TWILIO_API_BASE_URL with the credentials of the secret source', async () => {
    const telephony = await configuredTelephony({ settings: fake.settings, secrets: environmentSecrets(fake.settings) })();
    expect(telephony?.provider).toBe('twilio');
    const placed = await telephony!.placeCall(call);
    expect(placed.provider).toBe('twilio');
    expect(fake.calls.map((placedCall) => placedCall.sid)).toContain(placed.sid);
  });

  it('labels calls `local` under LOCAL_TELEPHONY=true', async () => {
    const settings = { ...fake.settings, LOCAL_TELEPHONY: 'true' };
    const telephony = await configuredTelephony({ settings, secrets: environmentSecrets(settings) })();
    expect((await telephony!.placeCall(call)).provider).toBe('local');
  });

  it.each(['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM_NUMBER'])('is not configured (undefined) without %s', async (name) => {
    const settings = { ...fake.settings, [name]: undefined };
    expect(await configuredTelephony({ settings, secrets: environmentSecrets(settings) })()).toBeUndefined();
  });

  it.each(['+1 415 555 2671', '4155552671', '+1555', 'twilio'])(
    'fails the cold start on TWILIO_FROM_NUMBER %j, naming the setting',
    (from) => {
      const settings = { ...fake.settings, TWILIO_FROM_NUMBER: from };
      expect(() => configuredTelephony({ settings, secrets: environmentSecrets(settings) })).toThrow(ConfigError);
      expect(() => configuredTelephony({ settings, secrets: environmentSecrets(settings) })).toThrow(
        /TWILIO_FROM_NUMBER: must be a valid E\.164/,
      );
    },
  );

  it('fails the cold start on a malformed TWILIO_API_BASE_URL or PUBLIC_BASE_URL', () => {
    expect(() => configuredTelephony({ settings: { TWILIO_API_BASE_URL: 'api.twilio.com' }, secrets: environmentSecrets({}) })).toThrow(
      /TWILIO_API_BASE_URL/,
    );
    expect(() => configuredTelephony({ settings: { PUBLIC_BASE_URL: 'ftp://x.example.com' }, secrets: environmentSecrets({}) })).toThrow(
      /PUBLIC_BASE_URL/,
    );
  });

  it('refuses an account SID that is not AC…, without echoing it', async () => {
    const settings = { ...fake.settings, TWILIO_ACCOUNT_SID: 'SKnot-an-account-sid' };
    const resolve = configuredTelephony({ settings, secrets: environmentSecrets(settings) });
    await expect(resolve()).rejects.toThrow(/TWILIO_ACCOUNT_SID must be AC/);
    await expect(resolve()).rejects.toThrow(/^(?!.*SKnot-an-account-sid)/s);
  });

  it('reads the secret once, again after the refresh time, and again after a failed read', async () => {
    let reads = 0;
    let fail = false;
    let credentials: Record<string, string | undefined> = {};
    const secrets: SecretSource = {
      async read(names) {
        reads += 1;
        if (fail) throw new Error('Secrets Manager unreachable');
        expect(names).toEqual(TWILIO_SECRET_KEYS);
        return credentials;
      },
    };
    let now = 0;
    const telephony = configuredTelephony({ settings: { TWILIO_FROM_NUMBER: fake.fromNumber }, secrets, now: () => now });
    expect(await telephony()).toBeUndefined();
    credentials = { TWILIO_ACCOUNT_SID: fake.accountSid, TWILIO_AUTH_TOKEN: fake.authToken };
    expect(await telephony()).toBeUndefined();
    expect(reads).toBe(1);
    now = TELEPHONY_REFRESH_MS + 1;
    fail = true;
    await expect(telephony()).rejects.toThrow('unreachable');
    fail = false;
    expect((await telephony())?.provider).toBe('twilio');
    expect(reads).toBe(3);
  });
});

describe('twilioAuthToken', () => {
  it('reads TWILIO_AUTH_TOKEN from the secret source; undefined when unset', async () => {
    expect(await twilioAuthToken({ secrets: environmentSecrets({ TWILIO_AUTH_TOKEN: 'tok' }) })()).toBe('tok');
    expect(await twilioAuthToken({ secrets: environmentSecrets({ TWILIO_AUTH_TOKEN: '  ' }) })()).toBeUndefined();
  });
});

describe('telephonySettingsSchema', () => {
  it('reads LOCAL_TELEPHONY as a boolean and leaves the rest optional', () => {
    expect(readConfig(telephonySettingsSchema, {})).toEqual({ LOCAL_TELEPHONY: false });
    expect(readConfig(telephonySettingsSchema, { LOCAL_TELEPHONY: 'true', PUBLIC_BASE_URL: 'http://127.0.0.1:3000' })).toEqual({
      LOCAL_TELEPHONY: true,
      PUBLIC_BASE_URL: 'http://127.0.0.1:3000',
    });
  });
});

describe('isE164', () => {
  it('holds valid numbers in E.164 form only', () => {
    expect(isE164('+14155552671')).toBe(true);
    expect(isE164('+442071838750')).toBe(true);
    expect(isE164('+1 415 555 2671')).toBe(false);
    expect(isE164('14155552671')).toBe(false);
    expect(isE164('+15555550100')).toBe(false);
  });
});
