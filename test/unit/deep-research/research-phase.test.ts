import type { JobEnvelope } from '../../../shared/commands/job';
import type { CommandRecord } from '../../../shared/commands/record';
import type { CommandPatch } from '../../../shared/commands/store';
import type { DeepResearchProgress } from '../../../shared/deep-research/progress';
import { researchJob, runResearchPhase, type ResearchPhaseDependencies } from '../../../shared/deep-research/research-phase';
import { SearchFailedError, type ChainResult } from '../../../shared/providers/search/chain';
import type { ResearchResult } from '../../../shared/deep-research/results';
import { parseDeepResearchRequest, type DeepResearchRequest } from '../../../shared/deep-research/schema';
import { ProviderNotConfiguredError } from '../../../shared/providers/llm/from-settings';
import { LlmUnavailableError } from '../../../shared/providers/llm/port';
import type { SearchHit, SearchProvider, SearchQuery } from '../../../shared/providers/search/port';

const CREATED = Date.parse('2026-11-23T10:00:00.000Z');

const hits = (count: number, host = 'news.example.com'): SearchHit[] =>
  Array.from({ length: count }, (_, i) => ({
    title: `Story ${i}`,
    url: `https://${host}/story-${i}`,
    snippet: `About story ${i}`,
    publishedDate: '2026-11-20',
  }));

const provider = (name: string): SearchProvider => ({ name, search: async () => ({ hits: [], requests: 0 }) });

/** A world of plain-object doubles, recording what the phase did in order. */
function world(overrides: Partial<ResearchPhaseDependencies> = {}) {
  const events: string[] = [];
  const cached = new Map<string, { provider: string; hits: SearchHit[] }>();
  const progress: CommandPatch[] = [];
  const chainCalls: { providers: string[]; query: SearchQuery }[] = [];
  let answer: ChainResult | Error = { provider: 'google', hits: hits(35), providerRequests: 4, passedOver: [] };
  const deps: ResearchPhaseDependencies = {
    commands: {
      recordProgress: async (_id, patch) => {
        events.push('progress kept');
        progress.push(patch);
        return true;
      },
    },
    clock: { now: () => CREATED + 1_500 },
    providers: async () => [provider('google'), provider('brave')],
    localCorpus: () => provider('local-corpus'),
    allowOffline: false,
    chain: async (providers, query) => {
      events.push('searched');
      chainCalls.push({ providers: providers.map((p) => p.name), query });
      if (answer instanceof Error) throw answer;
      return answer;
    },
    cache: {
      get: async (query) => cached.get(query.text),
      put: async (query, value) => {
        events.push('cached');
        cached.set(query.text, value);
      },
    },
    analyze: async ({ results }) => {
      events.push('analysed');
      return results.map((result) => ({
        ...result,
        content_analysis: { summary: `On ${result.title}`, key_points: [], sentiment: 'neutral', relevance_score: 5 },
      }));
    },
    ...overrides,
  };
  return {
    deps,
    events,
    cached,
    progress,
    chainCalls,
    answerWith: (next: ChainResult | Error) => (answer = next),
  };
}

function commandOf(
  body: Record<string, unknown>,
  progress?: DeepResearchProgress,
): CommandRecord<DeepResearchRequest, DeepResearchProgress> {
  const request = parseDeepResearchRequest(body);
  return {
    id: '01a2089c-61b9-7628-80f6-bfab1a2ceaa4',
    type: 'deep_research',
    status: 'in_progress',
    tenant_id: 'acme',
    request,
    ...(progress ? { progress } : {}),
    created_at: new Date(CREATED).toISOString(),
    updated_at: new Date(CREATED).toISOString(),
    attempts: 1,
  };
}

const job: JobEnvelope = { version: 1, type: 'deep_research', tenant_id: 'acme', command_id: '01a2089c-61b9-7628-80f6-bfab1a2ceaa4' };
const run = (deps: ResearchPhaseDependencies, command: CommandRecord<DeepResearchRequest, DeepResearchProgress>) =>
  runResearchPhase(deps, { command, request: command.request, job, attempt: 1 });

describe('the research job', () => {
  it('runs deep_research commands, takes producer requests with the route schema, and concerns no site', () => {
    const definition = researchJob(world().deps);
    expect(definition.type).toBe('deep_research');
    expect(definition.kind.type).toBe('deep_research');
    expect(definition.siteIdOf(parseDeepResearchRequest({ operation_type: 'llm_news' }))).toBeUndefined();
    expect(() => definition.parseProducerRequest!({ operation_type: 'nope' })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPERATION' }),
    );
  });
});

describe('runResearchPhase', () => {
  it('completes with the seed response, the provider that served and what it cost', async () => {
    const { deps, events, chainCalls, cached } = world();
    const outcome = await run(deps, commandOf({ operation_type: 'general_news', query: 'batteries', date_from: '2026-11-01' }));
    // Nothing to patch: the kept search goes with the terminal write (the kernel removes progress).
    expect(outcome).toMatchObject({ status: 'completed' });
    expect(outcome).not.toHaveProperty('patch');
    if (outcome.status !== 'completed') throw new Error('not completed');
    expect(outcome.result).toEqual({
      operation_type: 'general_news',
      query: 'batteries news after:2026-11-01',
      date_range: { from: '2026-11-01', to: null },
      results: expect.any(Array),
      total_results: 30,
      processing_time_ms: 1_500,
      analysis_included: false,
      provider: 'google',
      provider_requests: 4,
      cached: false,
    });
    expect((outcome.result.results as ResearchResult[])[0]).toEqual({
      title: 'Story 0',
      url: 'https://news.example.com/story-0',
      snippet: 'About story 0',
      domain: 'news.example.com',
      publishedDate: '2026-11-20',
    });
    expect(chainCalls).toEqual([
      {
        providers: ['google', 'brave'],
        query: expect.objectContaining({ text: 'batteries news after:2026-11-01', maxResults: 30, dateFrom: '2026-11-01' }),
      },
    ]);
    expect(events).toEqual(['searched', 'cached']);
    expect(cached.size).toBe(1);
  });

  it('serves an identical search from the cache without a provider request', async () => {
    const { deps, chainCalls } = world();
    const body = { operation_type: 'custom_search', query: 'pgvector', max_results: 10 };
    await run(deps, commandOf(body));
    const second = await run(deps, commandOf(body));
    expect(chainCalls).toHaveLength(1);
    expect(second).toMatchObject({
      status: 'completed',
      result: { provider: 'google', provider_requests: 0, cached: true, total_results: 10 },
    });
  });

  it('fails with SEARCH_FAILED and every provider’s reason when none serves', async () => {
    const { deps, answerWith, cached } = world();
    answerWith(
      new SearchFailedError(
        [
          { provider: 'google', reason: 'daily quota used up' },
          { provider: 'brave', reason: 'HTTP 503 twice' },
        ],
        3,
      ),
    );
    const outcome = await run(deps, commandOf({ operation_type: 'llm_news' }));
    expect(outcome).toEqual({
      status: 'failed',
      error: {
        code: 'SEARCH_FAILED',
        message: expect.stringMatching(/google: daily quota used up; brave: HTTP 503 twice.*3 provider request/),
        details: [
          { code: 'provider_failed', message: 'daily quota used up', path: ['providers', 'google'] },
          { code: 'provider_failed', message: 'HTTP 503 twice', path: ['providers', 'brave'] },
        ],
      },
    });
    expect(cached.size).toBe(0);
  });

  it('lets any other error of the chain through (the job is retried)', async () => {
    const { deps, answerWith } = world();
    answerWith(new Error('table unreachable'));
    await expect(run(deps, commandOf({ operation_type: 'llm_news' }))).rejects.toThrow('table unreachable');
  });

  describe('with no search provider configured', () => {
    it('serves from the local corpus where offline providers are allowed, and caches nothing', async () => {
      const { deps, answerWith, chainCalls, cached } = world({ providers: async () => [], allowOffline: true });
      answerWith({ provider: 'local-corpus', hits: hits(3), providerRequests: 0, passedOver: [] });
      const outcome = await run(deps, commandOf({ operation_type: 'llm_news' }));
      expect(chainCalls.map((call) => call.providers)).toEqual([['local-corpus']]);
      expect(outcome).toMatchObject({ status: 'completed', result: { provider: 'local-corpus', provider_requests: 0, total_results: 3 } });
      expect(cached.size).toBe(0);
    });

    it('fails loudly elsewhere: ProviderNotConfiguredError, reported, nothing searched', async () => {
      const reported: Error[] = [];
      const { deps, chainCalls } = world({
        providers: async () => [],
        allowOffline: false,
        onNotConfigured: (error) => reported.push(error),
      });
      await expect(run(deps, commandOf({ operation_type: 'llm_news' }))).rejects.toBeInstanceOf(ProviderNotConfiguredError);
      expect(reported).toHaveLength(1);
      expect(reported[0]!.message).toMatch(/No search provider is configured.*ALLOW_OFFLINE_PROVIDERS/);
      expect(chainCalls).toEqual([]);
    });
  });

  describe('content analysis', () => {
    const body = {
      operation_type: 'general_news',
      query: 'solar',
      max_results: 12,
      include_content_analysis: true,
      analysis_depth: 'advanced',
    };

    it('keeps the search outcome before analysing, then completes with each result analysed', async () => {
      const analysed: { query: string; depth: string; count: number; deadlineAt: number }[] = [];
      const base = world();
      const { deps, events, progress } = world({
        analyze: async (input) => {
          analysed.push({ query: input.query, depth: input.depth, count: input.results.length, deadlineAt: input.deadlineAt });
          return base.deps.analyze(input);
        },
      });
      const outcome = await run(deps, commandOf(body));
      expect(events).toEqual(['searched', 'cached', 'progress kept']);
      expect(progress[0]).toEqual({
        progress: { search: { provider: 'google', provider_requests: 4, cached: false, passed_over: [], results: expect.any(Array) } },
      });
      expect(analysed).toEqual([{ query: 'solar news', depth: 'advanced', count: 12, deadlineAt: CREATED + 1_500 + 120_000 }]);
      expect(outcome).toMatchObject({ status: 'completed', result: { analysis_included: true, total_results: 12 } });
      if (outcome.status !== 'completed') throw new Error('not completed');
      expect((outcome.result.results as { content_analysis: unknown }[])[0]!.content_analysis).toMatchObject({ summary: 'On Story 0' });
    });

    it('a redelivered job reads the kept search and spends no provider request again', async () => {
      const { deps, chainCalls, events } = world();
      const kept: DeepResearchProgress = {
        search: {
          provider: 'brave',
          provider_requests: 2,
          cached: false,
          passed_over: [{ provider: 'google', reason: 'quota' }],
          results: [],
        },
      };
      kept.search!.results = [{ title: 'Kept', url: 'https://kept.example/1', snippet: 's', domain: 'kept.example' }];
      const outcome = await run(deps, commandOf(body, kept));
      expect(chainCalls).toEqual([]);
      expect(events).toEqual(['analysed']);
      expect(outcome).toMatchObject({
        status: 'completed',
        result: { provider: 'brave', provider_requests: 2, total_results: 1, analysis_included: true },
      });
    });

    it('gives the results without analysis, and says why, when the analysis fails', async () => {
      const { deps } = world({ analyze: async () => Promise.reject(new Error('model answered 500 three times')) });
      const outcome = await run(deps, commandOf(body));
      expect(outcome).toMatchObject({
        status: 'completed',
        result: { analysis_included: false, total_results: 12 },
        patch: { warnings: [{ code: 'SYSTEM_ERROR', message: 'Content analysis failed; the results are given without analysis.' }] },
      });
      if (outcome.status !== 'completed') throw new Error('not completed');
      expect(outcome.result.results as object[]).toEqual(
        expect.arrayContaining([expect.not.objectContaining({ content_analysis: expect.anything() })]),
      );
    });

    it('says so when the model stayed unavailable', async () => {
      const { deps } = world({ analyze: async () => Promise.reject(new LlmUnavailableError('OpenAI answered 503 after 3 attempts', 503)) });
      const outcome = await run(deps, commandOf(body));
      expect(outcome).toMatchObject({
        status: 'completed',
        patch: {
          warnings: [
            {
              message:
                'Content analysis failed: the language model is unavailable (OpenAI answered 503 after 3 attempts); the results are given without analysis.',
            },
          ],
        },
      });
    });

    it('gives the results without analysis when it outlives its budget', async () => {
      const { deps } = world({ analyze: () => new Promise(() => undefined), analysisBudgetMs: 20 });
      const outcome = await run(deps, commandOf(body));
      expect(outcome).toMatchObject({
        status: 'completed',
        result: { analysis_included: false },
        patch: { warnings: [{ message: expect.stringMatching(/did not finish within 0 s/) }] },
      });
    });

    it('fails loudly when the model is not configured (the kept search is reused by the retry)', async () => {
      const { deps, progress } = world({ analyze: async () => Promise.reject(new ProviderNotConfiguredError('no OPENAI_API_KEY')) });
      await expect(run(deps, commandOf(body))).rejects.toBeInstanceOf(ProviderNotConfiguredError);
      expect(progress).toHaveLength(1);
    });

    it('has nothing to analyse when nothing was found', async () => {
      const { deps, answerWith, events } = world();
      answerWith({ provider: 'brave', hits: [], providerRequests: 1, passedOver: [] });
      const outcome = await run(deps, commandOf(body));
      expect(events).toEqual(['searched', 'cached']);
      expect(outcome).toMatchObject({ status: 'completed', result: { results: [], total_results: 0, analysis_included: true } });
    });
  });
});
