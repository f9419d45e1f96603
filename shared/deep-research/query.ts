import type { SearchQuery } from '../providers/search/port';
import type { DeepResearchRequest } from './schema';

/**
 * Technology news sites and forums llm_news searches when the request names
 * no `sources` (the request's `sources` replace this list, not add to it).
 */
export const LLM_NEWS_SOURCES: readonly string[] = [
  'news.ycombinator.com',
  'techcrunch.com',
  'theverge.com',
  'arstechnica.com',
  'venturebeat.com',
  'wired.com',
  'technologyreview.com',
  'theregister.com',
  'siliconangle.com',
  'huggingface.co',
];

/** What llm_news is about, as query operators (`text`) and as plain terms (`terms`). */
const LLM_TOPIC = { text: '(LLM OR "large language model")', terms: 'LLM large language model' } as const;

/** The word general_news adds to a query that does not already say it. */
const NEWS_WORD = 'news';

/**
 * Builds the search an operation runs, as the issue says:
 * - llm_news: news about large language models from the curated sources
 *   (or the request's), refined by `query` and the keywords;
 * - general_news: the query over news (`news` added unless it is there), sources optional;
 * - custom_search: exactly the parameters, nothing added.
 * Keywords are added to the query (phrases quoted; one the query already
 * says is not repeated), sources become `site:`
 * alternatives `(site:a OR site:b)`, dates `after:YYYY-MM-DD` /
 * `before:YYYY-MM-DD`. `text` is the query actually sent (and echoed as
 * `query`); `terms` is the same search without operators; the structured
 * fields let each provider add its native filters (date range, domains).
 */
export function buildSearchQuery(request: DeepResearchRequest): SearchQuery {
  const query = request.query?.trim() ?? '';
  const keywords = request.keywords ?? [];
  const sources = request.sources ?? (request.operation_type === 'llm_news' ? [...LLM_NEWS_SOURCES] : []);

  const base = { text: [] as string[], terms: [] as string[] };
  if (request.operation_type === 'llm_news') {
    if (query) addBoth(base, query);
    base.text.push(LLM_TOPIC.text);
    base.terms.push(LLM_TOPIC.terms);
  } else {
    addBoth(base, query);
    if (request.operation_type === 'general_news' && !new RegExp(`\\b${NEWS_WORD}\\b`, 'i').test(query)) addBoth(base, NEWS_WORD);
  }
  for (const keyword of keywords) {
    // A keyword the query already says is not said twice (it still filters where a provider takes keywords).
    if (containsPhrase(query, keyword)) continue;
    base.text.push(/\s/.test(keyword) ? `"${keyword}"` : keyword);
    base.terms.push(keyword);
  }
  const siteFilter = sitesOperator(sources);
  if (siteFilter) base.text.push(siteFilter);
  if (request.date_from) base.text.push(`after:${request.date_from}`);
  if (request.date_to) base.text.push(`before:${request.date_to}`);

  return {
    text: base.text.join(' '),
    terms: base.terms.join(' '),
    keywords,
    sources,
    ...(request.date_from ? { dateFrom: request.date_from } : {}),
    ...(request.date_to ? { dateTo: request.date_to } : {}),
    maxResults: request.max_results,
  };
}

/** Whether `text` holds `phrase` as whole words, case aside. */
function containsPhrase(text: string, phrase: string): boolean {
  const words = phrase
    .toLowerCase()
    .split(/\s+/)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`(?<![\\p{L}\\p{N}])${words.join('\\s+')}(?![\\p{L}\\p{N}])`, 'iu').test(text);
}

function addBoth(parts: { text: string[]; terms: string[] }, words: string): void {
  parts.text.push(words);
  parts.terms.push(words);
}

/** `site:a` for one source, `(site:a OR site:b)` for several, nothing for none. */
export function sitesOperator(sources: readonly string[]): string | undefined {
  if (sources.length === 0) return undefined;
  if (sources.length === 1) return `site:${sources[0]}`;
  return `(${sources.map((source) => `site:${source}`).join(' OR ')})`;
}

/**
 * What the results are judged against in content analysis: the search in
 * words (for llm_news without a query, its topic).
 */
export function analysisTopic(request: DeepResearchRequest, query: SearchQuery): string {
  if (request.operation_type === 'llm_news' && !request.query) {
    return ['news about large language models (LLMs)', ...(request.keywords ?? [])].join(', ');
  }
  return query.terms;
}
