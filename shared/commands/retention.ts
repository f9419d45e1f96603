import * as z from 'zod/mini';
import { readConfig } from '../platform/config';

/** How long a command (children included) is kept when COMMAND_RETENTION_DAYS is not set. */
export const DEFAULT_COMMAND_RETENTION_DAYS = 90;

const DAY_MS = 86_400_000;

/** {@link DEFAULT_COMMAND_RETENTION_DAYS} in milliseconds. */
export const DEFAULT_COMMAND_RETENTION_MS = DEFAULT_COMMAND_RETENTION_DAYS * DAY_MS;

/** The retention every new command gets, as StartDependencies takes it. */
export interface CommandRetention {
  /** How long after its creation a command is deleted (through the table's TTL). */
  commandRetentionMs: number;
}

/**
 * Reads COMMAND_RETENTION_DAYS (whole days, 1 to 3650) once, at cold start;
 * a malformed value fails the start with its name.
 * @default DEFAULT_COMMAND_RETENTION_DAYS (90 days)
 */
export function readCommandRetention(settings: Record<string, string | undefined>): CommandRetention {
  const { COMMAND_RETENTION_DAYS } = readConfig(
    {
      COMMAND_RETENTION_DAYS: z.optional(z.coerce.number().check(z.int('must be a whole number of days'), z.minimum(1), z.maximum(3650))),
    },
    settings,
  );
  return { commandRetentionMs: (COMMAND_RETENTION_DAYS ?? DEFAULT_COMMAND_RETENTION_DAYS) * DAY_MS };
}
