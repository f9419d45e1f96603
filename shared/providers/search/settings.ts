import * as z from 'zod/mini';
import '../../platform/zod-messages';
import { readConfig } from '../../platform/config';
import { SEARCH_PROVIDER_NAMES, type SearchProviderName } from './providers';

export { SEARCH_SECRET_KEYS } from './providers';

/** Chain order when SEARCH_PROVIDERS is unset (docs/configuration.md "Settings"). */
export const DEFAULT_SEARCH_PROVIDERS = 'google,brave,perplexity';
/** SEARCH_CACHE_TTL when unset: one hour, in seconds. */
export const DEFAULT_SEARCH_CACHE_TTL_SECONDS = 3600;
/** GOOGLE_CSE_DAILY_QUOTA when unset: Google's free allowance. */
export const DEFAULT_GOOGLE_DAILY_QUOTA = 100;

const wholeNumber = (minimum: number) =>
  z
    .pipe(z.string().check(z.trim(), z.regex(/^\d+$/, 'must be a whole number')), z.transform(Number))
    .check(z.refine((value) => value >= minimum, `must be at least ${minimum}`));

const providerList = z.pipe(
  z.optional(z.string()),
  z.transform((value, context) => {
    const names = (value ?? DEFAULT_SEARCH_PROVIDERS)
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean);
    const unknown = names.filter((name) => !(SEARCH_PROVIDER_NAMES as string[]).includes(name));
    if (unknown.length > 0) {
      context.issues.push({
        code: 'custom',
        message: `unknown search provider ${unknown.join(', ')} (known: ${SEARCH_PROVIDER_NAMES.join(', ')})`,
        input: value,
      });
    }
    const repeated = names.filter((name, index) => names.indexOf(name) !== index);
    if (repeated.length > 0) context.issues.push({ code: 'custom', message: `names ${repeated.join(', ')} more than once`, input: value });
    return names as SearchProviderName[];
  }),
);

/** The non-secret search settings (docs/configuration.md "Settings"); the credentials come from the SecretSource. */
export const searchSettingsSchema = z.object({
  /** Chain order, comma-separated; unknown names fail the cold start. @default 'google,brave,perplexity' */
  SEARCH_PROVIDERS: providerList,
  /** Cache lifetime in seconds; 0 turns the cache off. @default 3600 */
  SEARCH_CACHE_TTL: z.pipe(
    z.optional(wholeNumber(0)),
    z.transform((value) => value ?? DEFAULT_SEARCH_CACHE_TTL_SECONDS),
  ),
  /** @default 'https://customsearch.googleapis.com' */
  GOOGLE_CSE_BASE_URL: z.optional(z.url()),
  /** Google queries per Pacific day, counted in the table. @default 100 */
  GOOGLE_CSE_DAILY_QUOTA: z.pipe(
    z.optional(wholeNumber(0)),
    z.transform((value) => value ?? DEFAULT_GOOGLE_DAILY_QUOTA),
  ),
  /** @default 'https://api.search.brave.com' */
  BRAVE_BASE_URL: z.optional(z.url()),
  /** @default 'https://api.perplexity.ai' */
  PERPLEXITY_BASE_URL: z.optional(z.url()),
  /** @default 'sonar' */
  PERPLEXITY_MODEL: z.optional(z.string().check(z.minLength(1))),
});

/** The search settings, read and checked. */
export type SearchSettings = z.infer<typeof searchSettingsSchema>;

/** Reads the search settings, failing (ConfigError naming each setting at fault) when one is malformed. */
export function readSearchSettings(settings: Record<string, string | undefined>): SearchSettings {
  return readConfig(searchSettingsSchema.shape, settings);
}
