import { domainOf, normalizeUrl, plainText, shapeResults, SHAPED_RESULTS_MAX_BYTES } from '../../../shared/deep-research/results';
import { valueSize } from '../../../shared/platform/item-size';

describe('normalizeUrl', () => {
  it.each([
    ['scheme and host case', 'HTTPS://Example.COM/Path', 'https://example.com/Path'],
    ['www.', 'https://www.example.com/a', 'https://example.com/a'],
    ['a trailing slash', 'https://example.com/a/', 'https://example.com/a'],
    ['the root slash', 'https://example.com/', 'https://example.com'],
    ['the default https port', 'https://example.com:443/a', 'https://example.com/a'],
    ['the default http port', 'http://example.com:80/a', 'https://example.com/a'],
    ['http and https', 'http://example.com/a', 'https://example.com/a'],
    ['the fragment', 'https://example.com/a#comments', 'https://example.com/a'],
    ['utm_* parameters', 'https://example.com/a?utm_source=x&utm_medium=y&UTM_Campaign=z', 'https://example.com/a'],
    ['click ids', 'https://example.com/a?fbclid=1&gclid=2', 'https://example.com/a'],
    ['parameter order', 'https://example.com/a?b=2&a=1', 'https://example.com/a?a=1&b=2'],
    ['tracking beside real parameters', 'https://example.com/item?id=7&utm_source=feed', 'https://example.com/item?id=7'],
  ])('ignores %s', (_, a, b) => {
    expect(normalizeUrl(a)).toBeDefined();
    expect(normalizeUrl(a)).toBe(normalizeUrl(b));
  });

  it.each([
    ['another path', 'https://example.com/a', 'https://example.com/b'],
    ['path case', 'https://example.com/A', 'https://example.com/a'],
    ['another port', 'https://example.com:8443/a', 'https://example.com/a'],
    ['a real parameter', 'https://example.com/item?id=7', 'https://example.com/item?id=8'],
    ['a subdomain', 'https://blog.example.com/a', 'https://example.com/a'],
  ])('keeps %s apart', (_, a, b) => {
    expect(normalizeUrl(a)).not.toBe(normalizeUrl(b));
  });

  it.each(['ftp://example.com/a', 'javascript:alert(1)', 'not a url', ''])('has no key for %p', (url) => {
    expect(normalizeUrl(url)).toBeUndefined();
  });
});

describe('domainOf', () => {
  it('is the host without www., in lower case', () => {
    expect(domainOf('https://WWW.TechCrunch.com/2025/x')).toBe('techcrunch.com');
    expect(domainOf('https://news.ycombinator.com/item?id=1')).toBe('news.ycombinator.com');
    expect(domainOf('mailto:a@b.c')).toBeUndefined();
  });
});

describe('shapeResults', () => {
  const hit = (url: string, extra: Record<string, string> = {}) => ({ title: `Title of ${url}`, url, snippet: 'A snippet', ...extra });

  it('gives title, url, snippet, domain and the known publication day, de-duplicated by normalized URL', () => {
    const results = shapeResults(
      [
        hit('https://www.example.com/a?utm_source=x', { publishedDate: '2025-03-02T10:00:00' }),
        hit('http://example.com/a/'),
        hit('https://example.com/b'),
        hit('ftp://example.com/c'),
      ],
      { maxResults: 30 },
    );
    expect(results).toEqual([
      {
        title: 'Title of https://www.example.com/a?utm_source=x',
        url: 'https://www.example.com/a?utm_source=x',
        snippet: 'A snippet',
        domain: 'example.com',
        publishedDate: '2025-03-02',
      },
      { title: 'Title of https://example.com/b', url: 'https://example.com/b', snippet: 'A snippet', domain: 'example.com' },
    ]);
  });

  it('filters out known days outside the range and keeps unknown ones', () => {
    const results = shapeResults(
      [
        hit('https://a.example/1', { publishedDate: '2025-02-28' }),
        hit('https://a.example/2', { publishedDate: '2025-03-01' }),
        hit('https://a.example/3'),
        hit('https://a.example/4', { publishedDate: '2025-03-31' }),
        hit('https://a.example/5', { publishedDate: '2025-04-01' }),
      ],
      { dateFrom: '2025-03-01', dateTo: '2025-03-31', maxResults: 30 },
    );
    expect(results.map((result) => result.url)).toEqual(['https://a.example/2', 'https://a.example/3', 'https://a.example/4']);
  });

  it('gives at most max_results', () => {
    const hits = Array.from({ length: 40 }, (_, i) => hit(`https://a.example/${i}`));
    expect(shapeResults(hits, { maxResults: 30 })).toHaveLength(30);
    expect(shapeResults(hits, { maxResults: 1 }).map((result) => result.url)).toEqual(['https://a.example/0']);
  });

  it('stops before the results would take more than their bytes, keeping the best-ranked', () => {
    const hits = Array.from({ length: 100 }, (_, i) => ({
      title: `${i} ${'語'.repeat(290)}`,
      url: `https://a.example/${i}/${'p'.repeat(1_900)}`,
      snippet: '語'.repeat(1_000),
      publishedDate: '2026-11-20',
    }));
    const results = shapeResults(hits, { maxResults: 100 });
    expect(results.length).toBeGreaterThan(10);
    expect(results.length).toBeLessThan(100);
    expect(results.map((result) => result.url)).toEqual(hits.slice(0, results.length).map((item) => item.url));
    expect(valueSize(results)).toBeLessThanOrEqual(SHAPED_RESULTS_MAX_BYTES);
  });

  it('turns provider markup into plain text and names an untitled result by its domain', () => {
    const [result] = shapeResults(
      [{ title: '', url: 'https://b.example/x', snippet: 'The <strong>new</strong> model &amp; its\n  weights' }],
      { maxResults: 5 },
    );
    expect(result).toMatchObject({ title: 'b.example', snippet: 'The new model & its weights' });
    expect(plainText('x'.repeat(2_000), 1_000)).toHaveLength(1_000);
  });
});
