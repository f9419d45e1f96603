import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSample } from '../../shared/providers/search/corpus/generate-sample';
import { CorpusFileError, createLocalCorpusProvider, DEFAULT_CORPUS_FILE, parseCorpus } from '../../shared/providers/search/local-corpus';
import type { SearchQuery } from '../../shared/providers/search/port';
import { tempDir } from '../support/temp-dir';

function query(overrides: Partial<SearchQuery> = {}): SearchQuery {
  return { text: '', terms: '', keywords: [], sources: [], maxResults: 30, ...overrides };
}

const doc = (url: string, title: string, published_date: string | null, extra: Partial<Record<'snippet' | 'content', string>> = {}) =>
  JSON.stringify({ title, url, snippet: extra.snippet ?? `${title}.`, content: extra.content ?? '', published_date });

describe('the shipped sample corpus', () => {
  const raw = readFileSync(DEFAULT_CORPUS_FILE, 'utf8');
  const documents = parseCorpus(raw, DEFAULT_CORPUS_FILE);

  it('holds a few hundred valid documents with distinct URLs and titles', () => {
    expect(documents.length).toBeGreaterThanOrEqual(300);
    expect(new Set(documents.map((d) => d.url)).size).toBe(documents.length);
    expect(new Set(documents.map((d) => d.title)).size).toBe(documents.length);
    for (const d of documents) {
      expect(d.snippet.length).toBeGreaterThan(20);
      expect(d.content.length).toBeGreaterThan(d.snippet.length);
      expect(`${d.title} ${d.snippet} ${d.content}`).not.toMatch(/lorem|ipsum|\bundefined\b|\bNaN\b|\$\{|\[object/i);
    }
  });

  it('spreads publication dates over 2025-01 .. 2026-11 and sources over many outlets', () => {
    const dates = documents.map((d) => d.published_date!).sort();
    expect(dates[0]! >= '2025-01-01').toBe(true);
    expect(dates.at(-1)! <= '2026-11-30').toBe(true);
    const months = new Set(dates.map((date) => date.slice(0, 7)));
    expect(months.size).toBeGreaterThanOrEqual(22);
    const hosts = new Set(documents.map((d) => d.host));
    for (const host of [
      'news.ycombinator.com',
      'techcrunch.com',
      'theverge.com',
      'arstechnica.com',
      'reuters.com',
      'bloomberg.com',
      'wired.com',
      'venturebeat.com',
      'zdnet.com',
      'cnbc.com',
      'ft.com',
    ]) {
      expect(hosts).toContain(host);
    }
  });

  it('is exactly what the checked-in generator writes (deterministic)', () => {
    const lines = generateSample();
    expect(`${lines.map((line) => JSON.stringify(line)).join('\n')}\n`).toBe(raw);
    expect(generateSample()).toEqual(lines);
  });
});

describe('createLocalCorpusProvider over the sample', () => {
  const provider = createLocalCorpusProvider();

  it('is named local-corpus and spends no requests', async () => {
    const page = await provider.search(query({ terms: 'cloud outage' }));

    expect(provider.name).toBe('local-corpus');
    expect(page.requests).toBe(0);
    expect(page.hits.length).toBeGreaterThan(0);
  });

  it('answers the llm_news default terms with LLM stories first', async () => {
    const page = await provider.search(query({ terms: 'large language models LLM AI', maxResults: 30 }));

    expect(page.hits).toHaveLength(30);
    expect(new Set(page.hits.map((hit) => hit.url)).size).toBe(30);
    for (const hit of page.hits.slice(0, 10)) {
      expect(`${hit.title} ${hit.snippet}`).toMatch(/large language model|LLM|\bAI\b|model/i);
    }
    for (const hit of page.hits) expect(hit.publishedDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('ranks the documents that match the query best first', async () => {
    const page = await provider.search(query({ terms: 'high-bandwidth memory shortage', maxResults: 5 }));

    expect(page.hits[0]!.title).toMatch(/memory/i);
  });

  it('matches word prefixes and small typos', async () => {
    const prefix = await provider.search(query({ terms: 'LLM', maxResults: 100 }));
    const typo = await provider.search(query({ terms: 'semiconductr', maxResults: 5 }));

    expect(prefix.hits.some((hit) => /\bLLMs\b/.test(`${hit.title} ${hit.snippet}`))).toBe(true);
    expect(typo.hits[0]!.title).toMatch(/Semiconductor/);
  });

  it('keeps only the given sources, www. and subdomains included', async () => {
    const hn = await provider.search(query({ terms: 'AI', sources: ['news.ycombinator.com'], maxResults: 100 }));
    const reuters = await provider.search(query({ terms: 'AI', sources: ['www.reuters.com', 'ft.com'], maxResults: 100 }));

    expect(hn.hits.length).toBeGreaterThan(5);
    for (const hit of hn.hits) expect(new URL(hit.url).hostname).toBe('news.ycombinator.com');
    expect(reuters.hits.length).toBeGreaterThan(5);
    for (const hit of reuters.hits) expect(['www.reuters.com', 'www.ft.com']).toContain(new URL(hit.url).hostname);
  });

  it('keeps only documents carrying every keyword as a whole word', async () => {
    const page = await provider.search(query({ terms: 'chips', keywords: ['GPU', 'prices'], maxResults: 100 }));

    expect(page.hits.length).toBeGreaterThan(0);
    const raw = parseCorpus(readFileSync(DEFAULT_CORPUS_FILE, 'utf8'));
    for (const hit of page.hits) {
      const text = raw.find((d) => d.url === hit.url)!.text;
      expect(text).toMatch(/\bgpu\b/);
      expect(text).toMatch(/\bprices\b/);
    }
  });

  it('keeps only documents published within the dates, both ends included', async () => {
    const page = await provider.search(query({ terms: 'AI', dateFrom: '2026-03-01', dateTo: '2026-03-31', maxResults: 100 }));

    expect(page.hits.length).toBeGreaterThan(0);
    for (const hit of page.hits) expect(hit.publishedDate! >= '2026-03-01' && hit.publishedDate! <= '2026-03-31').toBe(true);
  });

  it('returns at most maxResults', async () => {
    await expect(provider.search(query({ terms: 'AI', maxResults: 1 }))).resolves.toMatchObject({ hits: [expect.anything()] });
    expect((await provider.search(query({ terms: 'AI', maxResults: 100 }))).hits).toHaveLength(100);
  });
});

describe('createLocalCorpusProvider over a given file', () => {
  let dir: string;
  const fileWith = (...lines: string[]) => {
    const file = join(dir, `corpus-${Math.random().toString(36).slice(2)}.jsonl`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    return file;
  };

  beforeAll(() => {
    dir = tempDir('local-corpus');
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('treats a source as the host or any subdomain of it, never a look-alike', async () => {
    const file = fileWith(
      doc('https://example.com/a', 'Quantum networking at the root', '2025-05-01'),
      doc('https://www.example.com/b', 'Quantum networking on www', '2025-05-02'),
      doc('https://blog.example.com/c', 'Quantum networking on the blog', '2025-05-03'),
      doc('https://notexample.com/d', 'Quantum networking elsewhere', '2025-05-04'),
      doc('https://example.com.evil.test/e', 'Quantum networking impostor', '2025-05-05'),
    );
    const provider = createLocalCorpusProvider({ file });

    const page = await provider.search(query({ terms: 'quantum networking', sources: ['example.com'] }));

    expect(page.hits.map((hit) => hit.url).sort()).toEqual([
      'https://blog.example.com/c',
      'https://example.com/a',
      'https://www.example.com/b',
    ]);
  });

  it('includes both date bounds and leaves out undated documents when a bound is set', async () => {
    const file = fileWith(
      doc('https://a.test/1', 'Battery recycling plant opens', '2025-06-01'),
      doc('https://a.test/2', 'Battery recycling costs fall', '2025-06-15'),
      doc('https://a.test/3', 'Battery recycling startup expands', '2025-06-30'),
      doc('https://a.test/4', 'Battery recycling rules proposed', '2025-07-01'),
      doc('https://a.test/5', 'Battery recycling explained', null),
    );
    const provider = createLocalCorpusProvider({ file });

    const bounded = await provider.search(query({ terms: 'battery recycling', dateFrom: '2025-06-01', dateTo: '2025-06-30' }));
    const unbounded = await provider.search(query({ terms: 'battery recycling' }));

    expect(bounded.hits.map((hit) => hit.url).sort()).toEqual(['https://a.test/1', 'https://a.test/2', 'https://a.test/3']);
    expect(unbounded.hits).toHaveLength(5);
    expect(unbounded.hits.find((hit) => hit.url === 'https://a.test/5')).toEqual({
      title: 'Battery recycling explained',
      url: 'https://a.test/5',
      snippet: 'Battery recycling explained.',
    });
  });

  it('matches keywords as whole words and phrases, case-insensitively', async () => {
    const file = fileWith(
      doc('https://k.test/1', 'Robotics firm said it would expand', '2025-01-01'),
      doc('https://k.test/2', 'Robotics firm bets on AI', '2025-01-02'),
      doc('https://k.test/3', 'Robotics firm adopts machine   learning', '2025-01-03', {
        content: 'It uses Machine\nLearning for picking.',
      }),
    );
    const provider = createLocalCorpusProvider({ file });

    const ai = await provider.search(query({ terms: 'robotics', keywords: ['ai'] }));
    const phrase = await provider.search(query({ terms: 'robotics', keywords: ['machine learning'] }));

    expect(ai.hits.map((hit) => hit.url)).toEqual(['https://k.test/2']);
    expect(phrase.hits.map((hit) => hit.url)).toEqual(['https://k.test/3']);
  });

  it('with no terms, searches the keywords, or lists matching documents newest first', async () => {
    const file = fileWith(
      doc('https://n.test/old', 'Ferry operator orders electric boats', '2025-02-01'),
      doc('https://n.test/new', 'Ferry operator reports record season', '2025-09-01'),
      doc('https://n.test/mid', 'Airline adds routes', '2025-05-01'),
    );
    const provider = createLocalCorpusProvider({ file });

    const all = await provider.search(query());
    const keyword = await provider.search(query({ keywords: ['ferry'] }));

    expect(all.hits.map((hit) => hit.url)).toEqual(['https://n.test/new', 'https://n.test/mid', 'https://n.test/old']);
    expect(keyword.hits.map((hit) => hit.url).sort()).toEqual(['https://n.test/new', 'https://n.test/old']);
    expect((await provider.search(query({ terms: 'the of --' }))).hits.map((hit) => hit.url)).toEqual([
      'https://n.test/new',
      'https://n.test/mid',
      'https://n.test/old',
    ]);
  });

  it('reads and indexes a file once per process', async () => {
    const file = fileWith(doc('https://c.test/1', 'Glacier survey finds faster melting', '2025-03-01'));
    const first = await createLocalCorpusProvider({ file }).search(query({ terms: 'glacier' }));
    writeFileSync(file, `${doc('https://c.test/2', 'Glacier survey replaced', '2025-03-02')}\n`);

    const second = await createLocalCorpusProvider({ file }).search(query({ terms: 'glacier' }));

    expect(second.hits).toEqual(first.hits);
    expect(second.hits.map((hit) => hit.url)).toEqual(['https://c.test/1']);
  });

  it.each([
    ['not JSON', '{"title": "Broken'],
    ['a document without a title', JSON.stringify({ url: 'https://x.test/', snippet: 's', content: 'c', published_date: '2025-01-01' })],
    [
      'a URL that is not http',
      JSON.stringify({ title: 't', url: 'ftp://x.test/', snippet: 's', content: 'c', published_date: '2025-01-01' }),
    ],
    [
      'an impossible date',
      JSON.stringify({ title: 't', url: 'https://x.test/', snippet: 's', content: 'c', published_date: '2025-02-30' }),
    ],
  ])('fails loudly at load on %s, naming the line', async (_label, bad) => {
    const file = fileWith(doc('https://ok.test/1', 'Fine', '2025-01-01'), '', bad);

    const failure = createLocalCorpusProvider({ file }).search(query({ terms: 'fine' }));

    await expect(failure).rejects.toBeInstanceOf(CorpusFileError);
    await expect(failure).rejects.toThrow(`${file} line 3`);
  });

  it('fails on a repeated URL, naming both lines', async () => {
    const file = fileWith(doc('https://dup.test/1', 'One', '2025-01-01'), doc('https://dup.test/1', 'Two', '2025-01-02'));

    await expect(createLocalCorpusProvider({ file }).search(query({ terms: 'one' }))).rejects.toThrow('line 2: url repeats line 1');
  });

  it('fails on a missing file, and reads it once it exists', async () => {
    const file = join(dir, 'later.jsonl');
    const provider = createLocalCorpusProvider({ file });

    await expect(provider.search(query({ terms: 'late' }))).rejects.toThrow(/Cannot read the search corpus .*later\.jsonl \(ENOENT\)/);
    writeFileSync(file, `${doc('https://late.test/1', 'Late arrival', '2025-01-01')}\n`);
    await expect(provider.search(query({ terms: 'late' }))).resolves.toMatchObject({ hits: [{ url: 'https://late.test/1' }] });
  });

  it('uses the shipped sample when the file setting is blank', async () => {
    const page = await createLocalCorpusProvider({ file: '  ' }).search(
      query({ terms: 'Show HN', sources: ['news.ycombinator.com'], maxResults: 3 }),
    );

    expect(page.hits).toHaveLength(3);
  });
});
