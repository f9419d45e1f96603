import { isValidPhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js';
import * as z from 'zod/mini';
import '../../platform/zod-messages';
import { ConfigError, readConfig } from '../../platform/config';
import type { SecretSource } from '../../platform/secrets';
import { TELEPHONY_REFRESH_MS } from './auth-token';
import type { Telephony } from './port';
import { refreshingLazy } from '../../platform/memo';

/** Setting names held in the `twilio` secret (Secrets Manager in AWS, the environment locally). */
export const TWILIO_SECRET_KEYS = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN'] as const;

/** A number in E.164 form (`+` and digits, no spaces) that libphonenumber-js holds valid. */
export function isE164(value: string): boolean {
  return isValidPhoneNumber(value) && parsePhoneNumberFromString(value)?.number === value;
}

const httpUrl = () => z.optional(z.url().check(z.refine((text) => /^https?:\/\//i.test(text), 'must be an http(s) URL')));

/**
 * The telephony settings that are not secret, as a shape for `readConfig`.
 * All optional: without a from-number (or credentials) telephony is simply
 * not configured. A malformed value fails the cold start naming the setting.
 */
export const telephonySettingsSchema = {
  /** E.164 caller id, a number of the Twilio account. */
  TWILIO_FROM_NUMBER: z.optional(z.string().check(z.refine(isE164, 'must be a valid E.164 phone number like +14155552671'))),
  /** Twilio REST root (`/2010-04-01/…` appended). @default https://api.twilio.com */
  TWILIO_API_BASE_URL: httpUrl(),
  /** Where Twilio reaches this service: status callback URL, relay socket, signature checks. */
  PUBLIC_BASE_URL: httpUrl(),
  /** `true` under `npm start` when the local telephony stands in for Twilio: calls are labelled `local`. */
  LOCAL_TELEPHONY: z.pipe(
    z.optional(z.enum(['true', 'false'])),
    z.transform((value) => value === 'true'),
  ),
};

/** The telephony settings as read by `readConfig(telephonySettingsSchema)`. */
export type TelephonySettings = z.infer<z.ZodMiniObject<typeof telephonySettingsSchema>>;

/** What the telephony is built from. */
export interface TelephonyDeps {
  settings: Record<string, string | undefined>;
  secrets: SecretSource;
  now?: () => number;
  /** Per create. @default the adapter's (10 s) */
  timeoutMs?: number;
}

/**
 * The function's telephony, resolved on first use: settings read and
 * checked now (a malformed TWILIO_FROM_NUMBER, TWILIO_API_BASE_URL or
 * PUBLIC_BASE_URL fails the cold start naming it), credentials from the
 * secret source when needed. Undefined when TWILIO_ACCOUNT_SID,
 * TWILIO_AUTH_TOKEN or TWILIO_FROM_NUMBER is missing: telephony is not
 * configured (in AWS the call is then `failed`, "telephony not configured").
 * The answer is kept for TELEPHONY_REFRESH_MS; a failed lookup is retried on the next use.
 */
export function configuredTelephony(deps: TelephonyDeps): () => Promise<Telephony | undefined> {
  const settings = readConfig(telephonySettingsSchema, deps.settings);
  return refreshed(deps.now ?? Date.now, async () => {
    const { TWILIO_ACCOUNT_SID: accountSid, TWILIO_AUTH_TOKEN: authToken } = await deps.secrets.read(TWILIO_SECRET_KEYS);
    if (!accountSid || !authToken || !settings.TWILIO_FROM_NUMBER) return undefined;
    if (!/^AC[0-9a-f]{32}$/i.test(accountSid))
      throw new ConfigError('Invalid configuration: TWILIO_ACCOUNT_SID must be AC followed by 32 hex digits');
    // The REST client (the whole twilio library, about 750 modules) is loaded with the first call placed, not at cold start.
    const { createTwilioTelephony } = await import('./twilio');
    return createTwilioTelephony({
      accountSid,
      authToken,
      fromNumber: settings.TWILIO_FROM_NUMBER,
      provider: settings.LOCAL_TELEPHONY ? 'local' : 'twilio',
      ...(settings.TWILIO_API_BASE_URL ? { apiBaseUrl: settings.TWILIO_API_BASE_URL } : {}),
      ...(deps.timeoutMs ? { timeoutMs: deps.timeoutMs } : {}),
    });
  });
}

/** A lazily resolved value, resolved again after TELEPHONY_REFRESH_MS or after a failure. */
function refreshed<T>(now: () => number, resolve: () => Promise<T>): () => Promise<T> {
  return refreshingLazy(resolve, TELEPHONY_REFRESH_MS, now);
}
