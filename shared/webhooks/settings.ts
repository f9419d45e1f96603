import * as z from 'zod/mini';
import { readConfig } from '../platform/config';

/** Seconds between delivery attempts when WEBHOOK_RETRY_DELAYS is not set (docs/configuration.md "Settings"): about 31 hours in all. */
export const DEFAULT_RETRY_DELAYS_SECONDS = [30, 120, 600, 3600, 21600, 86400] as const;

/** How long an endpoint may fail without a success before the service disables it, when WEBHOOK_DISABLE_AFTER is not set: 5 days. */
export const DEFAULT_DISABLE_AFTER_SECONDS = 5 * 86_400;

/** The longest WEBHOOK_DISABLE_AFTER: the 30 days events are kept (a longer window could never see its end through one event's retries). */
const MAX_DISABLE_AFTER_SECONDS = 30 * 86_400;

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
  /**
   * Ports no loopback endpoint may use (WEBHOOK_RESERVED_PORTS): `npm start`
   * lists every port it listens on, so an endpoint cannot reach the
   * runtime's own API, storage or queues. Empty when unset.
   */
  reservedPorts: ReadonlySet<number>;
  /** WEBHOOK_DISABLE_AFTER: an endpoint failing this long (from its first failure after its last success) is disabled. */
  disableAfterMs: number;
}

/** `P5D`, `PT12H`, `P1DT6H30M`, `P2W`: weeks, days, hours, minutes, seconds (no years or months, whose length varies). */
const ISO_DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;

/**
 * An optional setting read from its text by `read`; text `read` refuses
 * (undefined) fails the cold start with `message`, naming the setting.
 */
function setting<T>(read: (text: string) => T | undefined, message: string) {
  return z.optional(
    z.pipe(
      z.string(),
      z.transform((text, ctx) => {
        const value = read(text);
        if (value !== undefined) return value;
        ctx.issues.push({ code: 'custom', message, input: text });
        return z.NEVER;
      }),
    ),
  );
}

const duration = setting(
  (text) => {
    const value = text.trim().toUpperCase();
    let seconds: number | undefined;
    if (/^\d{1,9}$/.test(value)) seconds = Number(value);
    const match = ISO_DURATION.exec(value);
    if (match && value !== 'P' && !value.endsWith('T')) {
      const [weeks = 0, days = 0, hours = 0, minutes = 0, secs = 0] = match.slice(1).map((part) => Number(part ?? 0));
      seconds = (((weeks * 7 + days) * 24 + hours) * 60 + minutes) * 60 + secs;
    }
    return seconds !== undefined && seconds >= 1 && seconds <= MAX_DISABLE_AFTER_SECONDS ? seconds : undefined;
  },
  `must be an ISO 8601 duration (e.g. "P5D", "PT12H") or whole seconds, from 1 second to ${MAX_DISABLE_AFTER_SECONDS / 86_400} days`,
);

const delays = setting((text) => {
  const parts = text.split(',').map((part) => part.trim());
  const numbers = parts.map(Number);
  const valid = parts.length <= 20 && parts.every((part) => /^\d+$/.test(part)) && numbers.every((n) => n <= MAX_DELAY_SECONDS);
  return valid ? numbers : undefined;
}, `must be 1 to 20 whole numbers of seconds (at most ${MAX_DELAY_SECONDS}) separated by commas, e.g. "30,120,600"`);

const ports = setting((text) => {
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const numbers = parts.map(Number);
  const valid = parts.every((part) => /^\d{1,5}$/.test(part)) && numbers.every((n) => n >= 1 && n <= 65_535);
  return valid ? new Set(numbers) : undefined;
}, 'must be port numbers (1 to 65535) separated by commas, e.g. "4566,9324"');

const flag = setting((text) => {
  const value = text.trim().toLowerCase();
  return value === 'true' ? true : value === 'false' ? false : undefined;
}, 'must be true or false');

/**
 * Reads WEBHOOK_RETRY_DELAYS, WEBHOOK_ALLOW_LOOPBACK, WEBHOOK_RESERVED_PORTS and WEBHOOK_DISABLE_AFTER once, at cold start; a malformed
 * value fails the start with its name.
 */
export function readWebhookSettings(settings: Record<string, string | undefined>): WebhookSettings {
  const { WEBHOOK_RETRY_DELAYS, WEBHOOK_ALLOW_LOOPBACK, WEBHOOK_RESERVED_PORTS, WEBHOOK_DISABLE_AFTER } = readConfig(
    { WEBHOOK_RETRY_DELAYS: delays, WEBHOOK_ALLOW_LOOPBACK: flag, WEBHOOK_RESERVED_PORTS: ports, WEBHOOK_DISABLE_AFTER: duration },
    settings,
  );
  return {
    retryDelaysSeconds: WEBHOOK_RETRY_DELAYS ?? DEFAULT_RETRY_DELAYS_SECONDS,
    allowLoopback: WEBHOOK_ALLOW_LOOPBACK ?? false,
    reservedPorts: WEBHOOK_RESERVED_PORTS ?? new Set(),
    disableAfterMs: (WEBHOOK_DISABLE_AFTER ?? DEFAULT_DISABLE_AFTER_SECONDS) * 1000,
  };
}
