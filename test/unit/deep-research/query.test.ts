import { buildSearchQuery, LLM_NEWS_SOURCES, sitesOperator } from '../../../shared/deep-research/query';
import { parseDeepResearchRequest } from '../../../shared/deep-research/schema';

const built = (body: Record<string, unknown>) => buildSearchQuery(parseDeepResearchRequest(body));

describe('buildSearchQuery', () => {
  describe('llm_news', () => {
    it('searches news about large language models on the curated sources, Hacker News among them', () => {
      const query = built({ operation_type: 'llm_news' });
      expect(LLM_NEWS_SOURCES).toContain('news.ycombinator.com');
      expect(query.sources).toEqual(LLM_NEWS_SOURCES);
      expect(query.text).toBe(`(LLM OR "large language model") (${LLM_NEWS_SOURCES.map((source) => `site:${source}`).join(' OR ')})`);
      expect(query.terms).toBe('LLM large language model');
      expect(query).toMatchObject({ keywords: [], maxResults: 30 });
    });

    it('is refined by the query and keywords; sources replace the curated list', () => {
      const query = built({ operation_type: 'llm_news', query: 'open weights', keywords: ['Llama', 'fine tuning'], sources: ['lwn.net'] });
      expect(query.text).toBe('open weights (LLM OR "large language model") Llama "fine tuning" site:lwn.net');
      expect(query.terms).toBe('open weights LLM large language model Llama fine tuning');
      expect(query.sources).toEqual(['lwn.net']);
    });
  });

  describe('general_news', () => {
    it('searches the query over news, with no source unless given', () => {
      const query = built({ operation_type: 'general_news', query: 'chip export rules' });
      expect(query.text).toBe('chip export rules news');
      expect(query.terms).toBe('chip export rules news');
      expect(query.sources).toEqual([]);
    });

    it('does not say news twice', () => {
      expect(built({ operation_type: 'general_news', query: 'Latest News on batteries' }).text).toBe('Latest News on batteries');
    });

    it('adds sources as site: alternatives and dates as operators, and keeps the dates for native filters', () => {
      const query = built({
        operation_type: 'general_news',
        query: 'rate cut',
        sources: ['reuters.com', 'apnews.com'],
        date_from: '2025-01-01',
        date_to: '2025-03-31',
        max_results: 50,
      });
      expect(query.text).toBe('rate cut news (site:reuters.com OR site:apnews.com) after:2025-01-01 before:2025-03-31');
      expect(query.terms).toBe('rate cut news');
      expect(query).toMatchObject({ sources: ['reuters.com', 'apnews.com'], dateFrom: '2025-01-01', dateTo: '2025-03-31', maxResults: 50 });
    });
  });

  describe('custom_search', () => {
    it('is built from the parameters alone', () => {
      const query = built({
        operation_type: 'custom_search',
        query: 'postgres 17',
        keywords: ['logical replication'],
        date_from: '2024-09-01',
      });
      expect(query.text).toBe('postgres 17 "logical replication" after:2024-09-01');
      expect(query.terms).toBe('postgres 17 logical replication');
      expect(query).toMatchObject({ keywords: ['logical replication'], sources: [], dateFrom: '2024-09-01' });
      expect(query).not.toHaveProperty('dateTo');
    });

    it('does not repeat a keyword the query already says', () => {
      const query = built({
        operation_type: 'custom_search',
        query: 'GPU prices in C++',
        keywords: ['gpu', 'c++', 'price', 'rental prices'],
      });
      expect(query.text).toBe('GPU prices in C++ price "rental prices"');
      expect(query.keywords).toEqual(['gpu', 'c++', 'price', 'rental prices']);
    });

    it('echoes nothing it did not use', () => {
      expect(built({ operation_type: 'custom_search', query: 'x' }).text).toBe('x');
    });
  });

  it('writes one source without parentheses', () => {
    expect(sitesOperator(['a.com'])).toBe('site:a.com');
    expect(sitesOperator(['a.com', 'b.org'])).toBe('(site:a.com OR site:b.org)');
    expect(sitesOperator([])).toBeUndefined();
  });
});
