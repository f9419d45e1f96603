import * as z from 'zod';
import { readConfig } from '../platform/config';

/** Seconds between delivery attempts when WEBHOOK_RETRY_DELAYS is not set (PROVIDERS.md "Settings"): about 31 hours in all. */
export const DEFAULT_RETRY_DELAYS_SECONDS = [30, 120, 600, 3600, 21600, 86400] as const;

/** The longest wait between two attempts a setting may ask for: a week. */
const MAX_DELAY_SECONDS = 7 * 86_400;

/** How the completion webhooks behave here. */
export interface WebhookSettings {
  /** Waits before the 2nd, 3rd, … attempt; the delivery fails after the attempt that follows the last wait. */
  retryDelaysSeconds: readonly number[];
  /**
   * True under `npm start`: an endpoint may be `http://` or `https://` on a
   * loopback address. False in AWS (unset): https to public addresses only.
   */
  allowLoopback: boolean;
}

const delays = z
  .string()
  .transform((text, ctx) => {
    const parts = text.split(',').map((part) => part.trim());
    const numbers = parts.map(Number);
    if (parts.length > 20 || parts.some((part) => !/^\d+$/.test(part)) || numbers.some((n) => n > MAX_DELAY_SECONDS)) {
      ctx.addIssue({ code: 'custom', message: `must be 1 to 20 whole numbers of seconds (at most ${MAX_DELAY_SECONDS}) separated by commas, e.g. "30,120,600"` });
      return z.NEVER;
    }
    return numbers;
  })
  .optional();

const flag = z
  .string()
  .transform((text, ctx) => {
    const value = text.trim().toLowerCase();
    if (value === 'true') return true;
    if (value === 'false') return false;
    ctx.addIssue({ code: 'custom', message: 'must be true or false' });
    return z.NEVER;
  })
  .optional();

/** Reads WEBHOOK_RETRY_DELAYS and WEBHOOK_ALLOW_LOOPBACK once, at cold start; a malformed value fails the start with its name. */
export function readWebhookSettings(settings: Record<string, string | undefined>): WebhookSettings {
  const { WEBHOOK_RETRY_DELAYS, WEBHOOK_ALLOW_LOOPBACK } = readConfig({ WEBHOOK_RETRY_DELAYS: delays, WEBHOOK_ALLOW_LOOPBACK: flag }, settings);
  return { retryDelaysSeconds: WEBHOOK_RETRY_DELAYS ?? DEFAULT_RETRY_DELAYS_SECONDS, allowLoopback: WEBHOOK_ALLOW_LOOPBACK ?? false };
}
