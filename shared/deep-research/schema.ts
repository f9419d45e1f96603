import { AppError, type IssueDetail } from '../platform/errors';
import { cleanText } from '../platform/text';
import { isCalendarDate } from './dates';

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
 * A validated deep research request in its one canonical shape (defaults
 * filled in, text cleaned, sources in lower case): what the command stores
 * and the research job runs. Parsing it again gives it back unchanged, so the
 * API and producer jobs share one schema.
 */
export interface DeepResearchRequest {
  operation_type: OperationType;
  /** Present and not blank for general_news and custom_search; optional for llm_news. */
  query?: string;
  /** First publication day, YYYY-MM-DD (inclusive). */
  date_from?: string;
  /** Last publication day, YYYY-MM-DD (inclusive). */
  date_to?: string;
  /** Hostnames the results must come from; for llm_news they replace the curated list. */
  sources?: string[];
  keywords?: string[];
  max_results: number;
  include_content_analysis: boolean;
  analysis_depth: AnalysisDepth;
}

/** Every field a request may carry; any other is refused. */
const KNOWN_FIELDS: readonly string[] = [
  'operation_type',
  'query',
  'date_from',
  'date_to',
  'sources',
  'keywords',
  'max_results',
  'include_content_analysis',
  'analysis_depth',
];

/** One problem with one field, before its path is known. */
type Problem = Omit<IssueDetail, 'path'>;

/** A field's checked value, or the problems found with it. */
type Checked<T> = { ok: true; value: T } | { ok: false; problems: Problem[] };

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const fail = (...problems: Problem[]): Checked<never> => ({ ok: false, problems });

/** The JSON type of a value, as zod names received types (`string`, `number`, `float`, `array`, `null`, ...). */
function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && !Number.isInteger(value)) return 'float';
  return typeof value;
}

/** A value as a problem shows it: short, never the whole of a long input. */
function shown(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}

const wrongType = (expected: string, value: unknown): Problem => ({
  code: 'invalid_type',
  message: `Expected ${expected}, received ${typeName(value)}`,
  expected,
  received: typeName(value),
});

/** Free text: cleaned of control and bidi characters, trimmed, at most `max` characters. */
function checkText(value: unknown, max: number): Checked<string> {
  if (typeof value !== 'string') return fail(wrongType('string', value));
  const text = cleanText(value.slice(0, max + 1_024)).trim();
  if (text.length > max || value.length > max + 1_024) {
    return fail({ code: 'too_big', message: `Must be at most ${max} characters`, expected: `at most ${max} characters`, received: `${value.length} characters` });
  }
  return ok(text);
}

function checkDate(value: unknown): Checked<string> {
  if (typeof value !== 'string') return fail(wrongType('string', value));
  const text = value.trim();
  if (!isCalendarDate(text)) {
    return fail({ code: 'invalid_format', message: 'Must be a real calendar date written YYYY-MM-DD', expected: 'YYYY-MM-DD', received: shown(value) });
  }
  return ok(text);
}

/** A hostname: dot-separated labels of letters, digits and inner hyphens, ending in a top-level domain of letters (or an IDN `xn--` label). */
const HOSTNAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

function checkSources(value: unknown): Checked<string[]> {
  if (!Array.isArray(value)) return fail(wrongType('array', value));
  if (value.length > MAX_SOURCES) {
    return fail({ code: 'too_big', message: `At most ${MAX_SOURCES} sources`, expected: `at most ${MAX_SOURCES} items`, received: `${value.length} items` });
  }
  const problems: Problem[] = [];
  const hosts: string[] = [];
  value.forEach((item, index) => {
    const host = typeof item === 'string' ? item.trim().toLowerCase().replace(/\.$/, '') : undefined;
    if (host === undefined || !HOSTNAME.test(host)) {
      problems.push({
        code: 'invalid_format',
        message: `sources[${index}] must be a hostname such as news.ycombinator.com (no scheme, path or port)`,
        expected: 'hostname',
        received: typeof item === 'string' ? shown(item) : typeName(item),
      });
      return;
    }
    if (!hosts.includes(host)) hosts.push(host);
  });
  return problems.length > 0 ? fail(...problems) : ok(hosts);
}

function checkKeywords(value: unknown): Checked<string[]> {
  if (!Array.isArray(value)) return fail(wrongType('array', value));
  if (value.length > MAX_KEYWORDS) {
    return fail({ code: 'too_big', message: `At most ${MAX_KEYWORDS} keywords`, expected: `at most ${MAX_KEYWORDS} items`, received: `${value.length} items` });
  }
  const problems: Problem[] = [];
  const keywords: string[] = [];
  value.forEach((item, index) => {
    const checked = checkText(item, MAX_KEYWORD_LENGTH);
    if (!checked.ok) {
      problems.push(...checked.problems.map((problem) => ({ ...problem, message: `keywords[${index}]: ${problem.message}` })));
      return;
    }
    // Quotes would break the phrase the keyword becomes in the query.
    const keyword = checked.value.replaceAll('"', '').replace(/\s+/g, ' ').trim();
    if (keyword === '') {
      problems.push({ code: 'too_small', message: `keywords[${index}] is blank`, expected: 'a non-blank keyword', received: shown(item) });
      return;
    }
    if (!keywords.includes(keyword)) keywords.push(keyword);
  });
  return problems.length > 0 ? fail(...problems) : ok(keywords);
}

function checkMaxResults(value: unknown): Checked<number> {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fail(wrongType('number', value));
  if (!Number.isInteger(value)) return fail({ code: 'invalid_type', message: 'Expected integer, received float', expected: 'integer', received: 'float' });
  if (value < 1) return fail({ code: 'too_small', message: 'Must be at least 1', expected: 'integer from 1 to 100', received: shown(value) });
  if (value > MAX_RESULTS_LIMIT) {
    return fail({ code: 'too_big', message: `Must be at most ${MAX_RESULTS_LIMIT}`, expected: `integer from 1 to ${MAX_RESULTS_LIMIT}`, received: shown(value) });
  }
  return ok(value);
}

function checkBoolean(value: unknown): Checked<boolean> {
  return typeof value === 'boolean' ? ok(value) : fail(wrongType('boolean', value));
}

function checkDepth(value: unknown): Checked<AnalysisDepth> {
  if (typeof value === 'string' && (ANALYSIS_DEPTHS as readonly string[]).includes(value)) return ok(value as AnalysisDepth);
  return fail({
    code: 'invalid_value',
    message: `Must be one of ${ANALYSIS_DEPTHS.join(', ')}`,
    expected: ANALYSIS_DEPTHS.join(' | '),
    received: typeof value === 'string' ? shown(value) : typeName(value),
  });
}

/** Whether a value counts as given: JSON null means "not given", like an absent field. */
const given = (value: unknown): boolean => value !== undefined && value !== null;

/**
 * Validates a deep research request (HTTP body or a producer job's
 * `request`) and returns its canonical shape. Checks, in the issue's order:
 * `operation_type` missing or not a string → VALIDATION_ERROR; a string
 * outside the operations → INVALID_OPERATION; `query` missing or blank for
 * general_news and custom_search → MISSING_QUERY; anything else malformed →
 * VALIDATION_ERROR whose `details` hold one `{code, message, expected,
 * received, path}` per problem.
 */
export function parseDeepResearchRequest(raw: unknown): DeepResearchRequest {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new AppError('VALIDATION_ERROR', 'The request body must be a JSON object.', [
      { code: 'invalid_type', message: `Expected object, received ${typeName(raw)}`, expected: 'object', received: typeName(raw), path: [] },
    ]);
  }
  const body = raw as Record<string, unknown>;
  const operation = body.operation_type;
  if (given(operation) && typeof operation === 'string' && !(OPERATION_TYPES as readonly string[]).includes(operation)) {
    throw new AppError('INVALID_OPERATION', `operation_type must be one of ${OPERATION_TYPES.join(', ')} (got "${shown(operation)}").`, [
      { code: 'invalid_value', message: `Must be one of ${OPERATION_TYPES.join(', ')}`, expected: OPERATION_TYPES.join(' | '), received: shown(operation), path: ['operation_type'] },
    ]);
  }

  const details: IssueDetail[] = [];
  const note = <T>(field: string, checked: Checked<T>): T | undefined => {
    if (checked.ok) return checked.value;
    details.push(...checked.problems.map((problem) => ({ ...problem, path: [field] })));
    return undefined;
  };

  if (typeof operation !== 'string') {
    details.push({
      ...wrongType(OPERATION_TYPES.join(' | '), operation),
      message: given(operation) ? 'operation_type must be a string' : 'operation_type is required',
      path: ['operation_type'],
    });
  }
  const operationType = typeof operation === 'string' ? (operation as OperationType) : undefined;
  const queryText = given(body.query) ? note('query', checkText(body.query, MAX_QUERY_LENGTH)) : undefined;
  const queryMissing = !given(body.query) || (typeof body.query === 'string' && cleanText(body.query).trim() === '');
  if (operationType !== undefined && operationType !== 'llm_news' && queryMissing) {
    throw new AppError('MISSING_QUERY', `query is required for ${operationType}: say what to search for.`, [
      { code: 'invalid_type', message: 'Required', expected: 'non-blank string', received: given(body.query) ? 'blank string' : 'undefined', path: ['query'] },
    ]);
  }

  for (const field of Object.keys(body)) {
    if (!KNOWN_FIELDS.includes(field)) {
      details.push({
        code: 'unrecognized_keys',
        message: `Unknown field "${shown(field)}"`,
        expected: KNOWN_FIELDS.join(' | '),
        received: shown(field),
        path: [field],
      });
    }
  }
  const dateFrom = given(body.date_from) ? note('date_from', checkDate(body.date_from)) : undefined;
  const dateTo = given(body.date_to) ? note('date_to', checkDate(body.date_to)) : undefined;
  if (dateFrom !== undefined && dateTo !== undefined && dateFrom > dateTo) {
    details.push({
      code: 'custom',
      message: `date_from (${dateFrom}) is after date_to (${dateTo})`,
      expected: `a day on or before date_to (${dateTo})`,
      received: dateFrom,
      path: ['date_from'],
    });
  }
  const sources = given(body.sources) ? note('sources', checkSources(body.sources)) : undefined;
  const keywords = given(body.keywords) ? note('keywords', checkKeywords(body.keywords)) : undefined;
  const maxResults = given(body.max_results) ? note('max_results', checkMaxResults(body.max_results)) : DEFAULT_MAX_RESULTS;
  const analysis = given(body.include_content_analysis) ? note('include_content_analysis', checkBoolean(body.include_content_analysis)) : false;
  const depth = given(body.analysis_depth) ? note('analysis_depth', checkDepth(body.analysis_depth)) : 'basic';

  if (details.length > 0 || operationType === undefined) {
    const summary = details.map((detail) => `${detail.path.join('.') || 'body'}: ${detail.message}`).join('; ');
    throw new AppError('VALIDATION_ERROR', `The request is invalid: ${summary}`, details);
  }
  return {
    operation_type: operationType,
    ...(queryText ? { query: queryText } : {}),
    ...(dateFrom !== undefined ? { date_from: dateFrom } : {}),
    ...(dateTo !== undefined ? { date_to: dateTo } : {}),
    ...(sources && sources.length > 0 ? { sources } : {}),
    ...(keywords && keywords.length > 0 ? { keywords } : {}),
    max_results: maxResults!,
    include_content_analysis: analysis!,
    analysis_depth: depth!,
  };
}

/** The request as stored on a command, read back with the same rules (a kind's request parser). */
export const deepResearchRequestParser = { parse: parseDeepResearchRequest };

