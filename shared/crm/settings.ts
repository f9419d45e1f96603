import * as z from 'zod/mini';
import { readConfig } from '../platform/config';
import { refreshingLazy } from '../platform/memo';
import { MIN_SERVICE_KEY_LENGTH, secretBox, type SecretBox } from '../platform/secret-box';
import type { SecretSource } from '../platform/secrets';

/** The setting that holds the service key the CRM secrets are sealed with (a provider secret in AWS, made by the CDK app). */
export const CRM_KEY_SETTING = 'CRM_ENCRYPTION_KEY';

/** How long the key read from Secrets Manager is kept before it is read again (Powertools caches the secret as long). */
const KEY_REFRESH_MS = 300_000;

/** The plain CRM settings, as `readCrmSettings` gives them. */
export interface CrmSettings {
  /** HUBSPOT_API_BASE_URL; absent: HubSpot's own address. */
  hubspotBaseUrl?: string;
  /**
   * LOCAL_CRM: true under `npm start` when its local CRM stands in for
   * HubSpot. Every answer about the connection, and every result the
   * integration records, then carries `local: true`, so nothing written
   * there is mistaken for HubSpot's.
   */
  local: boolean;
}

/** The plain CRM settings, read once at cold start; a malformed one fails it naming the setting. */
export function readCrmSettings(settings: Readonly<Record<string, string | undefined>>): CrmSettings {
  const { HUBSPOT_API_BASE_URL, LOCAL_CRM } = readConfig(
    {
      HUBSPOT_API_BASE_URL: z.optional(
        z.string().check(z.refine((text) => /^https?:\/\/[^/]/i.test(text) && URL.canParse(text), 'must be an http(s) URL')),
      ),
      LOCAL_CRM: z.optional(z.enum(['true', 'false'])),
    },
    settings,
  );
  return { ...(HUBSPOT_API_BASE_URL ? { hubspotBaseUrl: HUBSPOT_API_BASE_URL } : {}), local: LOCAL_CRM === 'true' };
}

/**
 * The secret box of the CRM connections, over CRM_ENCRYPTION_KEY read from
 * the function's secrets on first use (so a route that never opens a
 * secret never reads it). A missing or short key fails that use, naming the
 * setting (the caller sees SYSTEM_ERROR; the log says why).
 */
export function crmSecretBoxOf(secrets: SecretSource): () => Promise<SecretBox> {
  return refreshingLazy(async () => {
    const key = (await secrets.read([CRM_KEY_SETTING]))[CRM_KEY_SETTING];
    if (!key) throw new Error(`${CRM_KEY_SETTING} is not set: the CRM connections cannot be sealed or opened`);
    if (key.length < MIN_SERVICE_KEY_LENGTH) throw new Error(`${CRM_KEY_SETTING} must be at least ${MIN_SERVICE_KEY_LENGTH} characters`);
    return secretBox(key);
  }, KEY_REFRESH_MS);
}
