import { refreshingLazy } from '../../platform/memo';
import type { SecretSource } from '../../platform/secrets';

/** How long resolved credentials are kept before the secret is read again (a secret filled after deploy is picked up by then). */
export const TELEPHONY_REFRESH_MS = 5 * 60 * 1000;

/**
 * The auth token Twilio signs webhooks with (for the status webhook's and
 * the relay socket's signature checks), from the secret source; undefined
 * when unset (then every request is refused). Kept for TELEPHONY_REFRESH_MS;
 * a failed lookup is retried. A module apart from the REST client's set-up,
 * so the webhooks do not load the twilio library.
 */
export function twilioAuthToken(deps: { secrets: SecretSource; now?: () => number }): () => Promise<string | undefined> {
  return refreshingLazy(
    async () => (await deps.secrets.read(['TWILIO_AUTH_TOKEN'])).TWILIO_AUTH_TOKEN || undefined,
    TELEPHONY_REFRESH_MS,
    deps.now ?? Date.now,
  );
}
