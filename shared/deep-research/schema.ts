import * as z from 'zod/mini';
import { described } from '../platform/described';
import '../platform/zod-messages';
import { AppError } from '../platform/errors';
import { cleanText } from '../platform/text';
import { cleanedText } from '../platform/text-field';
import { isCalendarDate } from './dates';
import { requestRefusal, type RequestShape } from './request-issues';

/** The operations deep research runs (`operation_type`). */
export const OPERATION_TYPES = ['llm_news', 'general_news', 'custom_search'] as const;
export type OperationType = (typeof OPERATION_TYPES)[number];

/** How deeply each result is analysed when `include_content_analysis` is true. */
export const ANALYSIS_DEPTHS = ['basic', 'advanced'] as const;
export type AnalysisDepth = (typeof ANALYSIS_DEPTHS)[number];

/** Results of a request that names no `max_results`. */
export const DEFAULT_MAX_RESULTS = 30;
/** Most results one request may ask for (Google's ceiling: `start + num ≤ 100`). */
export const MAX_RESULTS_LIMIT = 100;
/** Longest `query`, in characters. */
export const MAX_QUERY_LENGTH = 500;
/** Most `sources` (Perplexity's `search_domain_filter` takes 20). */
export const MAX_SOURCES = 20;
/** Most `keywords`, and the longest one. */
export const MAX_KEYWORDS = 20;
export const MAX_KEYWORD_LENGTH = 100;

/**
 * A hostname: dot-separated labels of letters, digits and inner hyphens, ending in a top-level domain of letters (or an IDN `xn--` label).
 */
const HOSTNAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** A publication day, trimmed; checked as a real calendar day (2025-02-30 is refused). */
const day = (description: string, example: string) =>
  described(z.optional(z.string().check(z.trim(), z.refine(isCalendarDate, { params: { format: 'date' } }))), {
    format: 'date',
    description,
    example,
  });

const host = z.string().check(
  z.trim(),
  z.toLowerCase(),
  z.overwrite((value) => value.replace(/\.$/, '')),
  z.refine((value) => HOSTNAME.test(value), { params: { format: 'hostname' } }),
);

// Quotes would break the phrase the keyword becomes in the query.
const keyword = cleanedText(MAX_KEYWORD_LENGTH).check(
  z.overwrite((value) => value.replaceAll('"', '').replace(/\s+/g, ' ').trim()),
  z.minLength(1),
);

const distinct = (values: string[]) => [...new Set(values)];

/**
 * A deep research request (HTTP body or a producer job's `request`): the one
 * schema the API checks, the command stores and the reference describes.
 * `null` counts as absent (parseDeepResearchRequest drops it first).
 */
export const deepResearchRequestSchema = described(
  z
    .strictObject({
      operation_type: described(z.enum(OPERATION_TYPES), {
        description:
          '`llm_news`: news about large language models from curated sources (or `sources`); `general_news`: news about `query`; `custom_search`: the web for `query`. ' +
          'Missing or not a string: 400 VALIDATION_ERROR; another string: 400 INVALID_OPERATION.',
      }),
      query: described(z.optional(cleanedText(MAX_QUERY_LENGTH)), {
        description:
          'What to search for: required (not blank) for `general_news` and `custom_search` (else 400 MISSING_QUERY), optional for `llm_news`.',
        example: 'AI agents in B2B sales',
      }),
      date_from: day('First publication day (YYYY-MM-DD, inclusive); not after `date_to`.', '2026-11-01'),
      date_to: day('Last publication day (YYYY-MM-DD, inclusive).', '2026-11-23'),
      sources: described(z.optional(z.array(host).check(z.maxLength(MAX_SOURCES), z.overwrite(distinct))), {
        description: 'Hostnames the results must come from (no scheme, path or port); for `llm_news` they replace the curated list.',
        example: ['techcrunch.com'],
      }),
      keywords: described(z.optional(z.array(keyword).check(z.maxLength(MAX_KEYWORDS), z.overwrite(distinct))), {
        description: 'Words or phrases every result must contain.',
        example: ['pricing'],
      }),
      max_results: described(z._default(z.number().check(z.int(), z.minimum(1), z.maximum(MAX_RESULTS_LIMIT)), DEFAULT_MAX_RESULTS), {
        description:
          'Most results returned; the best-ranked are kept when results of unusual length would pass what a command keeps (160 KiB of results, 288 KiB with their analyses).',
      }),
      include_content_analysis: described(z._default(z.boolean(), false), {
        description: 'Analyse each result (summary, key points, sentiment, relevance) with the model.',
      }),
      analysis_depth: described(z._default(z.enum(ANALYSIS_DEPTHS), 'basic'), {
        description:
          '`basic`: from the title and snippet, ten results per model call; `advanced`: from the page itself (public addresses only), one call per result.',
      }),
    })
    .check(
      z.refine((request) => !(request.date_from && request.date_to && request.date_from > request.date_to), {
        path: ['date_from'],
        // Also beside other fields' problems, so every problem is answered at once.
        when: (payload) => datesOf(payload.value) !== undefined,
      }),
    ),
  {
    id: 'DeepResearchRequest',
    description: 'A research operation. `null` counts as absent; an unknown field is refused (VALIDATION_ERROR).',
  },
);

/** Both days of a body when both are real calendar days. */
function datesOf(value: unknown): { from: string; to: string } | undefined {
  const { date_from: from, date_to: to } = (value ?? {}) as Record<string, unknown>;
  if (typeof from !== 'string' || typeof to !== 'string' || !isCalendarDate(from.trim()) || !isCalendarDate(to.trim())) return undefined;
  return { from: from.trim(), to: to.trim() };
}

/**
 * A validated deep research request in its one canonical shape (defaults
 * filled in, text cleaned, sources in lower case): what the command stores
 * and the research job runs. Parsing it again gives it back unchanged, so the
 * API and producer jobs share one schema.
 */
export type DeepResearchRequest = z.output<typeof deepResearchRequestSchema>;

/** The body without its `null` fields (null means "not given"). */
function withoutNulls(raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  return Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== null));
}

/** The operation of a body that needs a query and has none worth searching for. */
function operationMissingQuery(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const { operation_type: operation, query } = body as Record<string, unknown>;
  if (operation !== 'general_news' && operation !== 'custom_search') return undefined;
  return query === undefined || (typeof query === 'string' && cleanText(query).trim() === '') ? operation : undefined;
}

const SHAPE: RequestShape = {
  fields: Object.keys(deepResearchRequestSchema.shape),
  operations: OPERATION_TYPES,
  textLimits: { query: MAX_QUERY_LENGTH, keywords: MAX_KEYWORD_LENGTH },
};

/**
 * Validates a deep research request (HTTP body or a producer job's
 * `request`) and returns its canonical shape. Answers, in the issue's order:
 * `operation_type` missing or not a string → VALIDATION_ERROR; a string
 * outside the operations → INVALID_OPERATION; `query` missing or blank for
 * general_news and custom_search → MISSING_QUERY; anything else malformed →
 * VALIDATION_ERROR whose `details` hold one `{code, message, expected,
 * received, path}` per problem.
 */
export function parseDeepResearchRequest(raw: unknown): DeepResearchRequest {
  const body = withoutNulls(raw);
  const parsed = deepResearchRequestSchema.safeParse(body, { reportInput: true });
  const needsQuery = operationMissingQuery(body);
  if (needsQuery !== undefined) {
    const query = (body as Record<string, unknown>).query;
    throw new AppError('MISSING_QUERY', `query is required for ${needsQuery}: say what to search for.`, [
      {
        code: 'invalid_type',
        message: 'Required',
        expected: 'non-blank string',
        received: query === undefined ? 'undefined' : 'blank string',
        path: ['query'],
      },
    ]);
  }
  if (!parsed.success) throw requestRefusal(parsed.error.issues, SHAPE);
  const { operation_type, query, date_from, date_to, sources, keywords, ...settings } = parsed.data;
  return {
    operation_type,
    ...(query ? { query } : {}),
    ...(date_from !== undefined ? { date_from } : {}),
    ...(date_to !== undefined ? { date_to } : {}),
    ...(sources && sources.length > 0 ? { sources } : {}),
    ...(keywords && keywords.length > 0 ? { keywords } : {}),
    ...settings,
  };
}

/** The request as stored on a command, read back with the same rules (a kind's request parser). */
export const deepResearchRequestParser = { parse: parseDeepResearchRequest };
