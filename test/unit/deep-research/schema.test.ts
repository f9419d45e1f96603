import { AppError } from '../../../shared/platform/errors';
import { parseDeepResearchRequest, type DeepResearchRequest } from '../../../shared/deep-research/schema';

/** The error a request is refused with. */
function refusal(body: unknown): AppError {
  try {
    parseDeepResearchRequest(body);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error(`accepted: ${JSON.stringify(body)}`);
}

const valid = { operation_type: 'general_news', query: 'AI chips' };

describe('parseDeepResearchRequest', () => {
  describe('operation_type', () => {
    it.each([
      ['missing', {}],
      ['null', { operation_type: null }],
      ['a number', { operation_type: 3 }],
      ['an array', { operation_type: ['llm_news'] }],
    ])('answers VALIDATION_ERROR when it is %s', (_, body) => {
      const error = refusal({ ...body, query: 'x' });
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.details).toEqual([
        expect.objectContaining({
          code: 'invalid_type',
          path: ['operation_type'],
          expected: expect.any(String),
          received: expect.any(String),
        }),
      ]);
    });

    it.each(['news', 'LLM_NEWS', '', 'custom search'])('answers INVALID_OPERATION for the string %p', (operation) => {
      const error = refusal({ operation_type: operation, query: 'x', max_results: 0 });
      expect(error.code).toBe('INVALID_OPERATION');
      expect(error.details).toEqual([
        {
          code: 'invalid_value',
          message: expect.any(String),
          expected: 'llm_news | general_news | custom_search',
          received: operation,
          path: ['operation_type'],
        },
      ]);
    });

    it('lists a missing operation_type beside the other problems', () => {
      const error = refusal({ max_results: 0 });
      expect(error.code).toBe('VALIDATION_ERROR');
      expect((error.details as { path: string[] }[]).map((detail) => detail.path)).toEqual([['operation_type'], ['max_results']]);
    });
  });

  describe('query', () => {
    it.each([
      ['general_news', undefined],
      ['general_news', ''],
      ['custom_search', '   '],
      ['custom_search', null],
    ])('answers MISSING_QUERY for %s with query %p', (operation, query) => {
      const error = refusal({ operation_type: operation, ...(query === undefined ? {} : { query }) });
      expect(error.code).toBe('MISSING_QUERY');
      expect(error.details).toEqual([expect.objectContaining({ path: ['query'] })]);
    });

    it('needs none for llm_news, and drops a blank one', () => {
      expect(parseDeepResearchRequest({ operation_type: 'llm_news' })).toEqual({
        operation_type: 'llm_news',
        max_results: 30,
        include_content_analysis: false,
        analysis_depth: 'basic',
      });
      expect(parseDeepResearchRequest({ operation_type: 'llm_news', query: '  ' })).not.toHaveProperty('query');
    });

    it('answers MISSING_QUERY before any other problem of the body', () => {
      expect(refusal({ operation_type: 'general_news', max_results: 500 }).code).toBe('MISSING_QUERY');
    });

    it('refuses a query that is not a string, or too long, with VALIDATION_ERROR', () => {
      expect(refusal({ operation_type: 'general_news', query: 42 }).details).toEqual([
        { code: 'invalid_type', message: expect.any(String), expected: 'string', received: 'number', path: ['query'] },
      ]);
      expect(refusal({ operation_type: 'general_news', query: 'x'.repeat(501) }).details).toEqual([
        expect.objectContaining({ code: 'too_big', path: ['query'] }),
      ]);
    });

    it('cleans control characters and surrounding spaces', () => {
      expect(parseDeepResearchRequest({ operation_type: 'custom_search', query: '  rust\u0000 async \u202E ' }).query).toBe('rust async');
    });
  });

  describe('everything else malformed: VALIDATION_ERROR with one detail per problem', () => {
    it.each([
      ['max_results 0', { max_results: 0 }, { code: 'too_small', path: ['max_results'], received: '0' }],
      ['max_results 101', { max_results: 101 }, { code: 'too_big', path: ['max_results'], received: '101' }],
      ['max_results 2.5', { max_results: 2.5 }, { code: 'invalid_type', path: ['max_results'], expected: 'integer', received: 'float' }],
      ['max_results "30"', { max_results: '30' }, { code: 'invalid_type', path: ['max_results'], expected: 'number', received: 'string' }],
      [
        'an impossible date',
        { date_from: '2025-02-30' },
        { code: 'invalid_format', path: ['date_from'], expected: 'YYYY-MM-DD', received: '2025-02-30' },
      ],
      ['a date in another format', { date_to: '03/01/2025' }, { code: 'invalid_format', path: ['date_to'], received: '03/01/2025' }],
      ['29 February of a common year', { date_to: '2025-02-29' }, { code: 'invalid_format', path: ['date_to'] }],
      [
        'date_from after date_to',
        { date_from: '2025-03-10', date_to: '2025-03-01' },
        { code: 'custom', path: ['date_from'], received: '2025-03-10' },
      ],
      [
        'a source with a scheme',
        { sources: ['https://example.com'] },
        { code: 'invalid_format', path: ['sources'], expected: 'hostname', received: 'https://example.com' },
      ],
      ['a source with a path', { sources: ['example.com/news'] }, { code: 'invalid_format', path: ['sources'] }],
      ['a source that is one label', { sources: ['localhost'] }, { code: 'invalid_format', path: ['sources'] }],
      ['a source that is an address', { sources: ['127.0.0.1'] }, { code: 'invalid_format', path: ['sources'] }],
      [
        'sources as a string',
        { sources: 'example.com' },
        { code: 'invalid_type', path: ['sources'], expected: 'array', received: 'string' },
      ],
      ['too many sources', { sources: Array.from({ length: 21 }, (_, i) => `s${i}.example.com`) }, { code: 'too_big', path: ['sources'] }],
      ['a blank keyword', { keywords: ['ok', ' '] }, { code: 'too_small', path: ['keywords'] }],
      ['a keyword that is not a string', { keywords: [7] }, { code: 'invalid_type', path: ['keywords'], received: 'number' }],
      [
        'an unknown analysis_depth',
        { analysis_depth: 'deep' },
        { code: 'invalid_value', path: ['analysis_depth'], expected: 'basic | advanced', received: 'deep' },
      ],
      [
        'include_content_analysis "true"',
        { include_content_analysis: 'true' },
        { code: 'invalid_type', path: ['include_content_analysis'], expected: 'boolean' },
      ],
      ['an unknown field', { maxResults: 10 }, { code: 'unrecognized_keys', path: ['maxResults'], received: 'maxResults' }],
    ])('%s', (_, fields, detail) => {
      const error = refusal({ ...valid, ...fields });
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.statusCode).toBe(400);
      expect(error.details).toEqual([
        { message: expect.any(String), expected: expect.any(String), received: expect.any(String), ...detail },
      ]);
    });

    it('reports every problem, each once', () => {
      const error = refusal({
        ...valid,
        max_results: 0,
        date_from: '2025-02-30',
        sources: ['ok.example.com', 'not a host', 'http://x.io'],
        analysis_depth: 'deep',
        extra: 1,
      });
      expect((error.details as { path: string[]; code: string }[]).map((detail) => [detail.path[0], detail.code])).toEqual([
        ['extra', 'unrecognized_keys'],
        ['date_from', 'invalid_format'],
        ['sources', 'invalid_format'],
        ['sources', 'invalid_format'],
        ['max_results', 'too_small'],
        ['analysis_depth', 'invalid_value'],
      ]);
      expect(error.message).toMatch(/^The request is invalid: extra: .*max_results: /);
    });

    it('lists dates in the wrong order beside a field of the wrong type', () => {
      const error = refusal({ ...valid, max_results: '30', date_from: '2025-03-10', date_to: '2025-03-01' });
      expect((error.details as { path: string[]; code: string }[]).map((detail) => [detail.path[0], detail.code])).toEqual([
        ['date_from', 'custom'],
        ['max_results', 'invalid_type'],
      ]);
    });

    it.each([null, 'text', [valid], 3])('refuses a body that is not an object (%p)', (body) => {
      expect(refusal(body).code).toBe('VALIDATION_ERROR');
    });
  });

  describe('a valid request', () => {
    it('gets the defaults: 30 results, no analysis, basic depth', () => {
      expect(parseDeepResearchRequest(valid)).toEqual({
        ...valid,
        max_results: 30,
        include_content_analysis: false,
        analysis_depth: 'basic',
      });
    });

    it('keeps every field, sources in lower case without duplicates', () => {
      const request: DeepResearchRequest = parseDeepResearchRequest({
        operation_type: 'custom_search',
        query: 'vector databases',
        date_from: '2024-02-29',
        date_to: '2024-02-29',
        sources: ['News.YCombinator.com', 'news.ycombinator.com', 'lwn.net.'],
        keywords: ['pgvector', 'open "source"'],
        max_results: 100,
        include_content_analysis: true,
        analysis_depth: 'advanced',
      });
      expect(request).toEqual({
        operation_type: 'custom_search',
        query: 'vector databases',
        date_from: '2024-02-29',
        date_to: '2024-02-29',
        sources: ['news.ycombinator.com', 'lwn.net'],
        keywords: ['pgvector', 'open source'],
        max_results: 100,
        include_content_analysis: true,
        analysis_depth: 'advanced',
      });
    });

    it('takes null as not given', () => {
      expect(
        parseDeepResearchRequest({
          operation_type: 'llm_news',
          query: null,
          date_from: null,
          sources: null,
          keywords: null,
          max_results: null,
          include_content_analysis: null,
          analysis_depth: null,
        }),
      ).toEqual({ operation_type: 'llm_news', max_results: 30, include_content_analysis: false, analysis_depth: 'basic' });
    });

    it('reads its own canonical shape back unchanged (the stored request)', () => {
      const request = parseDeepResearchRequest({ ...valid, sources: ['a.example.org'], keywords: ['x y'], max_results: 1 });
      expect(parseDeepResearchRequest(request)).toEqual(request);
    });
  });
});
