import { LlmOutputError, LlmRefusalError, type JsonCompletionRequest, type LlmClient } from '../providers/llm/port';
import { lazyPageReader } from '../providers/web/lazy-page-reader';
import type { PageReader } from '../providers/web/page-reader';
import { PAGE_READ_TIMEOUT_MS } from '../providers/web/read-timeout';
import { offlineAnalysis } from './analysis-offline';
import { batchPrompt, MAX_PAGE_TEXT_CHARS, pagePrompt, type BatchItem } from './analysis-prompts';
import {
  batchAnalysisSchema,
  normalizeAnalysis,
  singleAnalysisSchema,
  type BatchAnalysisAnswer,
  type ContentAnalysis,
  type SingleAnalysisAnswer,
} from './analysis-schema';

export type { ContentAnalysis, Sentiment } from './analysis-schema';

/** The bounds of content analysis, in one place (the worker's timeout is derived from them). */
export const ANALYSIS_LIMITS = Object.freeze({
  /** Results per basic LLM call: at most one call per 10 results. */
  batchSize: 10,
  /** Pages read (and advanced calls made) at once. */
  pageConcurrency: 4,
  /** Basic batch calls made at once. */
  batchConcurrency: 4,
  /** Page text sent per advanced call, in characters. */
  maxPageTextChars: MAX_PAGE_TEXT_CHARS,
});

export type AnalysisDepth = 'basic' | 'advanced';

/** What every analysed result carries. */
export interface AnalysisInput {
  title: string;
  url: string;
  snippet: string;
}

/** Why a result's analysis did not come from the model as planned; for logs and metrics, never shown to callers. */
export interface AnalysisNote {
  url: string;
  kind: 'page_unreadable' | 'answer_missing' | 'answer_unusable' | 'deadline';
  /** A safe message: a page error's message (names a host and a status at most) or the model error's. */
  reason: string;
}

export interface AnalysisDeps {
  llm: LlmClient;
  /**
   * Reads pages for advanced analysis.
   * @default lazyPageReader(): createPageReader(), loaded on the first read (public addresses only, 5 s with the parse,
   * 1 MiB, 10,000 elements nested at most 128 deep)
   */
  readPage?: PageReader;
  /** Hears of every result analysed other than planned (page unreadable, answer missing or unusable, past the deadline). */
  onNote?: (note: AnalysisNote) => void;
  /**
   * Epoch ms after which no new page read or LLM call starts: the results
   * left get the offline analysis (noted `deadline`). Set it so the calls
   * already running (at most one LLM call deadline each) still end within
   * the worker's timeout. @default none
   */
  deadlineAt?: number;
  /** @default Date.now */
  now?: () => number;
}

/**
 * Adds `content_analysis` ({summary, key_points, sentiment,
 * relevance_score}) to every result, relative to the query, keeping the
 * results' order and fields.
 *
 * - basic: from title and snippet, in batches of at most 10 results per
 *   LLM call (25 results → 3 calls), at most 4 batches at once.
 * - advanced: each page read through the PageReader (at most 4 at once)
 *   and analysed from its readable text in one LLM call per result. A page
 *   that cannot be read (refused, failing, not HTML, or with less text than
 *   its snippet) leaves that result to be analysed from its snippet, in
 *   basic batches after the pages; the operation does not fail. Calls never
 *   exceed one per result.
 *
 * The model's answer is checked with the same zod schema it was asked for;
 * batch entries are matched to results by index and URL, and a result the
 * answer leaves out gets the offline analysis (analysis-offline.ts), as
 * does every result of a call whose answer is unusable (LlmOutputError:
 * malformed or cut off) or refused (LlmRefusalError): the model did answer,
 * and failing the job would spend every other call again for one bad answer.
 *
 * Any other failure propagates, on purpose: LlmUnavailableError (the
 * provider stayed unreachable through the adapter's retries), a model not
 * configured, or a bug. The job then fails this attempt and the queue
 * retries it; the caller keeps the search results on the command, so the
 * retry spends no search requests again.
 */
export async function analyzeResults<T extends AnalysisInput>(
  deps: AnalysisDeps,
  input: { query: string; results: readonly T[]; depth: AnalysisDepth },
): Promise<Array<T & { content_analysis: ContentAnalysis }>> {
  const run = new AnalysisRun(deps, input.query);
  const analyses =
    input.depth === 'advanced'
      ? await run.advanced(input.results, deps.readPage ?? lazyPageReader())
      : await run.basic(
          input.results.map((_, index) => index),
          input.results,
        );
  return input.results.map((result, index) => ({ ...result, content_analysis: analyses.get(index)! }));
}

/**
 * The worst-case duration of analyzeResults, for the worker's timeout:
 * advanced reads and analyses pages in rounds of 4 (each round at most one
 * page timeout plus one LLM call deadline), then the fallback batches in
 * rounds of 4 (one LLM call deadline each).
 */
export function worstCaseAnalysisMs(
  results: number,
  depth: AnalysisDepth,
  llmCallDeadlineMs: number,
  pageTimeoutMs = PAGE_READ_TIMEOUT_MS,
): number {
  const batchRounds = Math.ceil(Math.ceil(results / ANALYSIS_LIMITS.batchSize) / ANALYSIS_LIMITS.batchConcurrency);
  if (depth === 'basic') return batchRounds * llmCallDeadlineMs;
  return Math.ceil(results / ANALYSIS_LIMITS.pageConcurrency) * (pageTimeoutMs + llmCallDeadlineMs) + batchRounds * llmCallDeadlineMs;
}

/** One analyzeResults call: the query, the deps, and the results' analyses as they arrive. */
class AnalysisRun {
  private readonly now: () => number;

  constructor(
    private readonly deps: AnalysisDeps,
    private readonly query: string,
  ) {
    this.now = deps.now ?? Date.now;
  }

  /** Analyses of `results[i]` for each i in `positions`, by position, from titles and snippets. */
  async basic(positions: readonly number[], results: readonly AnalysisInput[]): Promise<Map<number, ContentAnalysis>> {
    const analyses = new Map<number, ContentAnalysis>();
    const batches: number[][] = [];
    for (let start = 0; start < positions.length; start += ANALYSIS_LIMITS.batchSize) {
      batches.push(positions.slice(start, start + ANALYSIS_LIMITS.batchSize));
    }
    await mapBounded(batches, ANALYSIS_LIMITS.batchConcurrency, async (batch) => {
      const items = batch.map((position) => results[position]!);
      const answered = await this.batch(items);
      batch.forEach((position, i) => analyses.set(position, answered[i]!));
    });
    return analyses;
  }

  async advanced(results: readonly AnalysisInput[], readPage: PageReader): Promise<Map<number, ContentAnalysis>> {
    const analyses = new Map<number, ContentAnalysis>();
    const fromSnippet: number[] = [];
    await mapBounded(
      results.map((_, index) => index),
      ANALYSIS_LIMITS.pageConcurrency,
      async (position) => {
        const result = results[position]!;
        if (this.pastDeadline())
          return analyses.set(position, this.offline(result, result.snippet, 'deadline', 'analysis deadline reached'));
        let page: { title?: string; text: string };
        try {
          page = await readPage(result.url);
        } catch (error) {
          this.note({
            url: result.url,
            kind: 'page_unreadable',
            reason: error instanceof Error ? error.message : 'page could not be read',
          });
          fromSnippet.push(position);
          return;
        }
        if (page.text.length < Math.max(1, result.snippet.length)) {
          this.note({ url: result.url, kind: 'page_unreadable', reason: 'page has less readable text than its snippet' });
          fromSnippet.push(position);
          return;
        }
        analyses.set(position, await this.page(result, page));
      },
    );
    fromSnippet.sort((a, b) => a - b);
    for (const [position, analysis] of await this.basic(fromSnippet, results)) analyses.set(position, analysis);
    return analyses;
  }

  /** One basic call for up to 10 results; every result gets an analysis. */
  private async batch(items: readonly AnalysisInput[]): Promise<ContentAnalysis[]> {
    if (this.pastDeadline()) return items.map((item) => this.offline(item, item.snippet, 'deadline', 'analysis deadline reached'));
    const batchItems: BatchItem[] = items.map((item, index) => ({ index, url: item.url, title: item.title, snippet: item.snippet }));
    const request: JsonCompletionRequest<BatchAnalysisAnswer> = {
      schemaName: 'search_result_analyses',
      schema: batchAnalysisSchema,
      messages: batchPrompt(this.query, batchItems),
      offline: () => ({
        analyses: items.map((item, index) => ({
          index,
          url: item.url,
          ...offlineAnalysis(this.query, { title: item.title, text: item.snippet }),
        })),
      }),
      maxTokens: 250 + 350 * items.length,
    };
    const answer = await this.complete(request, items);
    if (!answer) return items.map((item) => offlineAnalysis(this.query, { title: item.title, text: item.snippet }));
    const matched = matchEntries(answer.analyses, items);
    return items.map((item, index) => {
      const entry = matched.get(index);
      const analysis = entry && normalizeAnalysis(entry);
      if (analysis?.summary) return analysis;
      return this.offline(
        item,
        item.snippet,
        'answer_missing',
        entry ? 'the model gave this result an empty summary' : 'the model left this result out of its answer',
      );
    });
  }

  /** One advanced call for one result, from its page text. */
  private async page(result: AnalysisInput, page: { title?: string; text: string }): Promise<ContentAnalysis> {
    if (this.pastDeadline()) return this.offline(result, page.text, 'deadline', 'analysis deadline reached');
    const text = page.text.slice(0, MAX_PAGE_TEXT_CHARS);
    const request: JsonCompletionRequest<SingleAnalysisAnswer> = {
      schemaName: 'search_result_analysis',
      schema: singleAnalysisSchema,
      messages: pagePrompt(this.query, result, page),
      offline: () => offlineAnalysis(this.query, { title: page.title ?? result.title, text }),
      maxTokens: 700,
    };
    const answer = await this.complete(request, [result]);
    const analysis = answer && normalizeAnalysis(answer);
    if (analysis?.summary) return analysis;
    if (answer) this.note({ url: result.url, kind: 'answer_missing', reason: 'the model gave this result an empty summary' });
    return offlineAnalysis(this.query, { title: page.title ?? result.title, text });
  }

  /** The model's answer; undefined (noted) when it answered unusably or refused. Anything else propagates. */
  private async complete<A>(request: JsonCompletionRequest<A>, items: readonly AnalysisInput[]): Promise<A | undefined> {
    try {
      return (await this.deps.llm.completeJson(request)).value;
    } catch (error) {
      if (error instanceof LlmOutputError || error instanceof LlmRefusalError) {
        for (const item of items) this.note({ url: item.url, kind: 'answer_unusable', reason: error.message });
        return undefined;
      }
      throw error;
    }
  }

  private offline(result: AnalysisInput, text: string, kind: AnalysisNote['kind'], reason: string): ContentAnalysis {
    this.note({ url: result.url, kind, reason });
    return offlineAnalysis(this.query, { title: result.title, text });
  }

  private pastDeadline(): boolean {
    return this.deps.deadlineAt !== undefined && this.now() >= this.deps.deadlineAt;
  }

  private note(note: AnalysisNote): void {
    this.deps.onNote?.(note);
  }
}

/**
 * Batch entries matched to their results: by index when the index is in
 * range and its URL agrees; else by URL; else by index alone (a model that
 * mangled a URL). The first entry for a result wins.
 */
function matchEntries(
  entries: BatchAnalysisAnswer['analyses'],
  items: readonly AnalysisInput[],
): Map<number, BatchAnalysisAnswer['analyses'][number]> {
  const matched = new Map<number, BatchAnalysisAnswer['analyses'][number]>();
  const unplaced: BatchAnalysisAnswer['analyses'] = [];
  for (const entry of entries) {
    const byIndex = items[entry.index];
    if (byIndex && byIndex.url === entry.url && !matched.has(entry.index)) matched.set(entry.index, entry);
    else unplaced.push(entry);
  }
  for (const entry of unplaced) {
    const byUrl = items.findIndex((item, index) => item.url === entry.url && !matched.has(index));
    if (byUrl >= 0) matched.set(byUrl, entry);
    else if (items[entry.index] && !matched.has(entry.index) && !items.some((item) => item.url === entry.url))
      matched.set(entry.index, entry);
  }
  return matched;
}

/** Runs `task` over `items` with at most `limit` running at once; the first failure stops new tasks and is thrown. */
async function mapBounded<I>(items: readonly I[], limit: number, task: (item: I) => Promise<unknown>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const item = items[next++]!;
      try {
        await task(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
