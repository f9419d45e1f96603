import * as z from 'zod/mini';
import './zod-messages';

/** Thrown at cold start when a setting is missing or malformed; names every setting at fault. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * Reads and validates settings from an environment once, at cold start.
 * Missing or malformed settings fail loudly with their names; there are no
 * silent fallbacks for required values.
 *
 * Built on `zod/mini`, so a function whose cold start reads only settings
 * does not load zod's chainable API (about 25 ms of import on a cold
 * start); schemas of either flavour fit the shape, they share zod's core.
 */
export function readConfig<S extends z.core.$ZodShape>(
  shape: S,
  env: Record<string, string | undefined> = process.env,
): z.infer<z.ZodMiniObject<S>> {
  const picked: Record<string, string | undefined> = {};
  for (const key of Object.keys(shape)) {
    const value = env[key];
    picked[key] = value === undefined || value.trim() === '' ? undefined : value;
  }
  // Parsed once: jitless, so zod does not compile (new Function) a fast path for an object read only this once.
  const parsed = z.object(shape).safeParse(picked, { jitless: true });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = issue.path.join('.');
      return picked[name] === undefined ? `${name} is not set` : `${name}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/** A required non-empty string setting. */
export const requiredString = () => z.string().check(z.minLength(1));

/** An optional URL setting. */
export const optionalUrl = () => z.optional(z.url());
