// The library's validator module alone: the status webhook's cold start skips loading the whole REST client.
import { validateRequest } from 'twilio/lib/webhooks/webhooks.js';

/**
 * Whether `X-Twilio-Signature` proves a webhook request came from Twilio:
 * base64 HMAC-SHA1, keyed with the account's auth token, over the full URL
 * Twilio requested followed by the POST parameters sorted by name. Checked
 * with the twilio library's own validator (constant-time compare).
 *
 * `url` must be built by the caller from PUBLIC_BASE_URL and the request's
 * path and query, never from the Host header (which the sender controls).
 * A missing or empty signature, or an empty auth token, is never valid.
 */
export function isValidTwilioSignature(
  authToken: string,
  signature: string | undefined,
  url: string,
  params: Record<string, string>,
): boolean {
  if (!authToken || !signature) return false;
  try {
    return validateRequest(authToken, signature, url, params);
  } catch {
    // A URL the validator cannot parse was not signed by Twilio.
    return false;
  }
}
