import * as z from 'zod/mini';
import { analyzeResults, ANALYSIS_LIMITS, worstCaseAnalysisMs, type AnalysisNote } from '../../../shared/deep-research/analysis';
import { offlineAnalysis } from '../../../shared/deep-research/analysis-offline';
import { createOfflineLlm } from '../../../shared/providers/llm/offline';
import {
  LlmOutputError,
  LlmRefusalError,
  LlmUnavailableError,
  type JsonCompletion,
  type JsonCompletionRequest,
  type LlmClient,
} from '../../../shared/providers/llm/port';
import { isPublicAddress } from '../../../shared/platform/http/public-address';
import { createLocalCorpusProvider } from '../../../shared/providers/search/local-corpus';
import { createPageParser } from '../../../shared/providers/web/page-parser';
import { createPageReader, PageFetchError, PageRefusedError, type PageReader } from '../../../shared/providers/web/page-reader';
import { startFakeWebPages } from '../../fakes/web-pages';

interface Result {
  title: string;
  url: string;
  snippet: string;
  domain: string;
  publishedDate?: string;
}

function results(count: number): Result[] {
  return Array.from({ length: count }, (_, i) => ({
    title: `Chipmaker ${i} expands AI accelerator production`,
    url: `https://news${i}.example.com/story-${i}`,
    snippet: `Chipmaker ${i} said demand for accelerators used by large language models keeps growing. It plans a new plant.`,
    domain: `news${i}.example.com`,
    ...(i % 2 === 0 ? { publishedDate: '2026-03-0' + ((i % 9) + 1) } : {}),
  }));
}

type Answer = (request: JsonCompletionRequest<unknown>) => unknown;

/** A model that answers with the request's own offline writer (or a scripted answer), checked by the schema, and records each call. */
function scriptedLlm(answer?: Answer): LlmClient & { requests: Array<JsonCompletionRequest<unknown>> } {
  const requests: Array<JsonCompletionRequest<unknown>> = [];
  return {
    generatedBy: 'openai',
    model: 'scripted',
    requests,
    async completeJson<T>(request: JsonCompletionRequest<T>): Promise<JsonCompletion<T>> {
      requests.push(request);
      const raw = answer ? answer(request) : request.offline();
      if (raw instanceof Error) throw raw;
      return { value: z.parse(request.schema, raw), generatedBy: 'openai', model: 'scripted' };
    },
  };
}

/** The DATA block of a request's user message. */
function dataOf(request: JsonCompletionRequest<unknown>): {
  research_query: string;
  results?: Array<{ index: number; url: string; snippet: string }>;
  result?: { url: string; page_text: string };
} {
  const content = request.messages.find((m) => m.role === 'user')!.content;
  return JSON.parse(content.slice(content.indexOf('<<<DATA') + 7, content.indexOf('DATA>>>')));
}

const modelAnalysis = (summary: string, relevance = 7) => ({
  summary,
  key_points: ['A point.'],
  sentiment: 'neutral',
  relevance_score: relevance,
});

describe('analyzeResults (basic)', () => {
  it('analyses 25 results in 3 calls of at most 10, keeping order and fields', async () => {
    const llm = scriptedLlm();
    const input = results(25);

    const analysed = await analyzeResults({ llm }, { query: 'AI chips', results: input, depth: 'basic' });

    expect(llm.requests).toHaveLength(3);
    expect(llm.requests.map((r) => dataOf(r).results!.length)).toEqual([10, 10, 5]);
    expect(llm.requests.every((r) => r.schemaName === 'search_result_analyses')).toBe(true);
    expect(analysed.map(({ content_analysis: _analysis, ...rest }) => rest)).toEqual(input);
    for (const [i, result] of analysed.entries()) {
      expect(result.content_analysis).toEqual(offlineAnalysis('AI chips', { title: input[i]!.title, text: input[i]!.snippet }));
    }
  });

  it('keeps to one call per 10 results for any count', async () => {
    for (const count of [1, 9, 10, 11, 30, 100]) {
      const llm = scriptedLlm();
      await analyzeResults({ llm }, { query: 'q', results: results(count), depth: 'basic' });
      expect(llm.requests).toHaveLength(Math.ceil(count / 10));
    }
  });

  it('makes no call for no results', async () => {
    const llm = scriptedLlm();

    await expect(analyzeResults({ llm }, { query: 'q', results: [], depth: 'basic' })).resolves.toEqual([]);
    expect(llm.requests).toHaveLength(0);
  });

  it('maps batch entries back by index and URL; a result left out gets the offline analysis', async () => {
    const input = results(5);
    const notes: AnalysisNote[] = [];
    const llm = scriptedLlm(() => ({
      analyses: [
        { index: 4, url: input[4]!.url, ...modelAnalysis('Fifth.') },
        { index: 0, url: input[2]!.url, ...modelAnalysis('Third, under a wrong index.') },
        { index: 1, url: input[1]!.url, ...modelAnalysis('Second.') },
        { index: 1, url: input[1]!.url, ...modelAnalysis('Second again, ignored.') },
        { index: 3, url: 'https://mangled.example.com/', ...modelAnalysis('Fourth, URL mangled.') },
        { index: 42, url: 'https://elsewhere.example.com/', ...modelAnalysis('Nobody.') },
      ],
    }));

    const analysed = await analyzeResults(
      { llm, onNote: (note) => notes.push(note) },
      { query: 'AI chips', results: input, depth: 'basic' },
    );

    expect(analysed.map((r) => r.content_analysis.summary)).toEqual([
      offlineAnalysis('AI chips', { title: input[0]!.title, text: input[0]!.snippet }).summary,
      'Second.',
      'Third, under a wrong index.',
      'Fourth, URL mangled.',
      'Fifth.',
    ]);
    expect(notes).toEqual([{ url: input[0]!.url, kind: 'answer_missing', reason: 'the model left this result out of its answer' }]);
  });

  it('clamps what the model answers to the contract', async () => {
    const input = results(1);
    const llm = scriptedLlm(() => ({
      analyses: [
        {
          index: 0,
          url: input[0]!.url,
          summary: '## Summary\n**Chips**  are  in demand.',
          key_points: ['1. a', '2. b', '3. c', '4. d', '5. e', '6. f'],
          sentiment: 'positive',
          relevance_score: 12.4,
        },
      ],
    }));

    const [analysed] = await analyzeResults({ llm }, { query: 'q', results: input, depth: 'basic' });

    expect(analysed!.content_analysis).toEqual({
      summary: 'Summary Chips are in demand.',
      key_points: ['a', 'b', 'c', 'd', 'e'],
      sentiment: 'positive',
      relevance_score: 10,
    });
  });

  it('gives the offline analysis to a batch whose answer is unusable or refused, and analyses the other batches', async () => {
    let call = 0;
    const notes: AnalysisNote[] = [];
    const llm = scriptedLlm((request) => {
      call += 1;
      if (call === 1) return new LlmOutputError('OpenAI answer is not JSON', '{');
      if (call === 2) return new LlmRefusalError('OpenAI declined to answer (refusal)');
      return { analyses: dataOf(request).results!.map((r) => ({ index: r.index, url: r.url, ...modelAnalysis('From the model.') })) };
    });
    const input = results(25);

    const analysed = await analyzeResults(
      { llm, onNote: (note) => notes.push(note) },
      { query: 'AI chips', results: input, depth: 'basic' },
    );

    const fromModel = analysed.filter((r) => r.content_analysis.summary === 'From the model.');
    expect(fromModel).toHaveLength(5);
    expect(notes.filter((n) => n.kind === 'answer_unusable')).toHaveLength(20);
    expect(analysed.every((r) => r.content_analysis.summary.length > 0)).toBe(true);
  });

  it('lets an unavailable model fail the analysis, so the job is retried', async () => {
    const llm = scriptedLlm(() => new LlmUnavailableError('OpenAI answered 503 server_error after 3 attempts', 503));

    await expect(analyzeResults({ llm }, { query: 'q', results: results(3), depth: 'basic' })).rejects.toBeInstanceOf(LlmUnavailableError);
  });

  it('starts no call past the deadline: the rest get the offline analysis', async () => {
    const llm = scriptedLlm();
    const notes: AnalysisNote[] = [];

    const analysed = await analyzeResults(
      { llm, deadlineAt: 1_000, now: () => 1_000, onNote: (n) => notes.push(n) },
      { query: 'q', results: results(12), depth: 'basic' },
    );

    expect(llm.requests).toHaveLength(0);
    expect(analysed).toHaveLength(12);
    expect(notes).toHaveLength(12);
    expect(notes.every((n) => n.kind === 'deadline')).toBe(true);
  });

  it('runs offline end to end over the local corpus, every answer passing the schema', async () => {
    const { hits } = await createLocalCorpusProvider().search({
      text: '',
      terms: 'large language models LLM AI',
      keywords: [],
      sources: [],
      maxResults: 30,
    });

    const analysed = await analyzeResults(
      { llm: createOfflineLlm() },
      { query: 'large language models LLM AI', results: hits, depth: 'basic' },
    );

    expect(analysed).toHaveLength(30);
    for (const { content_analysis: a } of analysed) {
      expect(a.summary.length).toBeGreaterThan(20);
      expect(a.key_points.length).toBeGreaterThanOrEqual(1);
      expect(a.key_points.length).toBeLessThanOrEqual(5);
      expect(a.relevance_score).toBeGreaterThanOrEqual(0);
      expect(a.relevance_score).toBeLessThanOrEqual(10);
    }
    expect(Math.max(...analysed.map((r) => r.content_analysis.relevance_score))).toBeGreaterThanOrEqual(6);
  });
});

describe('analyzeResults (advanced)', () => {
  const pageText = (url: string) =>
    `Full article at ${url}. The chipmaker said orders for AI accelerators doubled this year. It will open a plant in Ohio. Analysts expect supply to stay tight.`;

  it('reads each page and makes one call per result, at most 4 pages at once', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const read: string[] = [];
    const readPage: PageReader = async (url) => {
      read.push(url);
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inFlight -= 1;
      return { title: 'Page title', text: pageText(url) };
    };
    const llm = scriptedLlm();
    const input = results(9);

    const analysed = await analyzeResults({ llm, readPage }, { query: 'AI accelerators', results: input.slice(0, 5), depth: 'advanced' });
    expect(llm.requests).toHaveLength(5);
    expect(llm.requests.every((r) => r.schemaName === 'search_result_analysis')).toBe(true);
    expect(llm.requests.map((r) => dataOf(r).result!.page_text).sort()).toEqual(
      input
        .slice(0, 5)
        .map((r) => pageText(r.url))
        .sort(),
    );
    expect(analysed[0]!.content_analysis.summary).toContain(`Full article at ${input[0]!.url}.`);

    read.length = 0;
    await analyzeResults({ llm, readPage }, { query: 'AI accelerators', results: input, depth: 'advanced' });
    expect(read.sort()).toEqual(input.map((r) => r.url).sort());
    expect(maxInFlight).toBe(ANALYSIS_LIMITS.pageConcurrency);
  });

  it('analyses a result whose page fails from its snippet, batched, and does not fail', async () => {
    const input = results(6);
    const failing = new Set([input[1]!.url, input[4]!.url]);
    const notes: AnalysisNote[] = [];
    const readPage: PageReader = async (url) => {
      if (url === input[1]!.url)
        throw new PageRefusedError(`${new URL(url).hostname} is not a public internet address`, new URL(url).hostname);
      if (failing.has(url)) throw new PageFetchError('timeout', 'the page did not arrive in time');
      return { text: pageText(url) };
    };
    const llm = scriptedLlm();

    const analysed = await analyzeResults(
      { llm, readPage, onNote: (n) => notes.push(n) },
      { query: 'AI accelerators', results: input, depth: 'advanced' },
    );

    expect(llm.requests).toHaveLength(5);
    const batch = llm.requests.filter((r) => r.schemaName === 'search_result_analyses');
    expect(batch).toHaveLength(1);
    expect(dataOf(batch[0]!).results!.map((r) => [r.url, r.snippet])).toEqual([
      [input[1]!.url, input[1]!.snippet],
      [input[4]!.url, input[4]!.snippet],
    ]);
    expect(analysed[1]!.content_analysis).toEqual(offlineAnalysis('AI accelerators', { title: input[1]!.title, text: input[1]!.snippet }));
    expect(analysed[0]!.content_analysis.summary).toContain('Full article at');
    expect(notes.map((n) => [n.url, n.kind])).toEqual([
      [input[1]!.url, 'page_unreadable'],
      [input[4]!.url, 'page_unreadable'],
    ]);
    expect(notes[0]!.reason).toBe('news1.example.com is not a public internet address');
  });

  it('uses the snippet when the page has less text than it', async () => {
    const llm = scriptedLlm();

    await analyzeResults({ llm, readPage: async () => ({ text: 'Subscribe.' }) }, { query: 'q', results: results(3), depth: 'advanced' });

    expect(llm.requests.map((r) => r.schemaName)).toEqual(['search_result_analyses']);
  });

  it('reads real pages through the safe page reader: a served article is analysed from its text; a 404, a refused address and a 4,000-deep page from their snippets', async () => {
    const pages = await startFakeWebPages({
      '/article': {
        html: `<html><head><title>Orders double</title></head><body><nav>MENU</nav><article><h1>Orders double</h1>
          <p>The chipmaker said orders for AI accelerators doubled this year, driven by cloud providers building data centers for large language models.</p>
          <p>It will open a plant in Ohio next year and expects supply to stay tight until then, according to its chief executive.</p></article></body></html>`,
      },
      '/deep': {
        html: `<html><body>${'<div>'.repeat(4_000)}<p>Orders for AI accelerators doubled, deep down.</p>${'</div>'.repeat(4_000)}</body></html>`,
      },
    });
    const parser = createPageParser();
    try {
      const readPage = createPageReader({
        isAllowedAddress: (ip) => ip === '127.0.0.1' || isPublicAddress(ip),
        lookup: async (host) => (host === 'chips.test' ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.0.0.1', family: 4 }]),
        parser,
      });
      const input = [
        { title: 'Orders double', url: `http://chips.test:${pages.port}/article`, snippet: 'Orders for AI accelerators doubled.' },
        { title: 'Gone', url: `http://chips.test:${pages.port}/missing`, snippet: 'A story that was removed.' },
        { title: 'Internal', url: 'http://intranet.test/secret', snippet: 'Looks public, resolves private.' },
        { title: 'Nested', url: `http://chips.test:${pages.port}/deep`, snippet: 'A page built to stall parsers.' },
      ];
      const llm = scriptedLlm();
      const notes: AnalysisNote[] = [];

      const analysed = await analyzeResults(
        { llm, readPage, onNote: (note) => notes.push(note) },
        { query: 'AI accelerators', results: input, depth: 'advanced' },
      );

      expect(llm.requests.map((r) => r.schemaName).sort()).toEqual(['search_result_analyses', 'search_result_analysis']);
      const single = llm.requests.find((r) => r.schemaName === 'search_result_analysis')!;
      expect(dataOf(single).result!.page_text).toContain('It will open a plant in Ohio next year');
      expect(dataOf(single).result!.page_text).not.toContain('MENU');
      expect(analysed[0]!.content_analysis.summary).toContain('orders for AI accelerators doubled this year');
      expect(analysed[1]!.content_analysis.summary).toBe('A story that was removed.');
      expect(analysed[2]!.content_analysis.summary).toBe('Looks public, resolves private.');
      expect(analysed[3]!.content_analysis.summary).toBe('A page built to stall parsers.');
      expect(notes.find((note) => note.url === input[3]!.url)).toEqual({
        url: input[3]!.url,
        kind: 'page_unreadable',
        reason: 'the page is nested more than 128 elements deep',
      });
      expect(pages.requests.map((r) => r.path).sort()).toEqual(['/article', '/deep', '/missing']);
    } finally {
      await parser.close();
      await pages.close();
    }
  });
});

describe('worstCaseAnalysisMs', () => {
  it('bounds basic by rounds of 4 batch calls, advanced by rounds of 4 pages plus the fallback batches', () => {
    expect(worstCaseAnalysisMs(30, 'basic', 56_000)).toBe(56_000);
    expect(worstCaseAnalysisMs(100, 'basic', 56_000)).toBe(3 * 56_000);
    expect(worstCaseAnalysisMs(10, 'advanced', 56_000, 5_000)).toBe(3 * 61_000 + 56_000);
  });
});
