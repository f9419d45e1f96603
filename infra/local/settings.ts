import { z } from 'zod';
import { tenantLimitsSchema } from '../../shared/access/limits/tenant-limits';

/** One API_KEYS entry: the key's sites, or its sites and its tenant's limits. */
const apiKeyEntry = z.union([
  z.array(z.string().min(1)),
  z.object({ sites: z.array(z.string().min(1)), limits: z.optional(tenantLimitsSchema()) }).strict(),
]);

/** An API_KEYS entry as `npm start` registers it. */
export type ApiKeyEntry = z.infer<typeof apiKeyEntry>;

/** The settings of `npm start` (docs/configuration.md "Settings"); provider settings are read by the functions themselves. */
export const localSettingsShape = {
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().optional(),
  DATA_FILE: z.string().optional(),
  API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  API_KEYS: z
    .string()
    .transform((text, ctx) => {
      try {
        return z.record(z.string().min(16), apiKeyEntry).parse(JSON.parse(text));
      } catch {
        ctx.addIssue({
          code: 'custom',
          message:
            'must be JSON like {"KEY": ["site-id", …]} or {"KEY": {"sites": ["site-id", …], "limits": {"requests_per_second": 2, …}}} ' +
            'with keys of at least 16 characters',
        });
        return z.NEVER;
      }
    })
    .optional(),
  /** Readable lines on a terminal; `json` prints what Lambda prints. */
  LOG_FORMAT: z.enum(['pretty', 'json']).default('pretty'),
  /** Batches each worker handles at once (Lambda's maximum concurrency of the event source). */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(50).default(2),
  /** Seconds between runs of the follow-up dispatcher (checked here, so a bad value stops the start with its name). */
  FOLLOW_UP_DISPATCH_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
};
