import type { Logger } from '@aws-lambda-powertools/logger';
import type { CommandRecord } from '../commands/record';
import type { CommandStore } from '../commands/store';
import type { JobDefinition, PhaseInput, PhaseOutcome } from '../commands/worker';
import type { Clock } from '../platform/clock';
import type { ContentAnalysis } from './analysis';
import type { ErrorInfo } from '../platform/errors';
import { prefixWithin } from '../platform/item-size';
import { describeError } from '../platform/logger';
import { ProviderNotConfiguredError } from '../providers/llm/from-settings';
import { LlmUnavailableError } from '../providers/llm/port';
import type { SearchCache } from '../providers/search/cache';
import { SearchFailedError, type ChainResult } from '../providers/search/chain';
import { LOCAL_CORPUS_PROVIDER } from '../providers/search/local-corpus';
import type { SearchProvider, SearchQuery } from '../providers/search/port';
import { ANALYSIS_BUDGET_MS, ANALYSIS_NEW_WORK_MS, AnalysisBudgetError, withinBudget } from './budget';
import { deepResearchKind } from './kinds';
import { dateRangeOf, searchFailedError, type DeepResearchResult } from './presenter';
import type { DeepResearchProgress, SearchOutcome } from './progress';
import { analysisTopic, buildSearchQuery } from './query';
import { shapeResults, type ResearchResult } from './results';
import { parseDeepResearchRequest, type AnalysisDepth, type DeepResearchRequest } from './schema';

/**
 * Most bytes a completed command's results take with their analyses (the
 * best-ranked that fit are given): with the request and the bookkeeping,
 * the command item, and the `command.completed` event that carries it,
 * stay below DynamoDB's 400 KB.
 * Bound: ≤ 288 KiB. A hundred ordinary results with analyses take about
 * 150 KB; at every limit in three-byte characters, about 1.1 MB.
 */
export const RESULTS_MAX_BYTES = 288 * 1024;

/** One result with its analysis. */
export type AnalysedResult = ResearchResult & { content_analysis: ContentAnalysis };

/** What a research job works with, built once per cold start. */
export interface ResearchPhaseDependencies {
  commands: Pick<CommandStore, 'recordProgress'>;
  clock: Clock;
  /** The configured search providers in chain order (credentials may come from Secrets Manager, so resolved on use); may be empty. */
  providers: () => Promise<readonly SearchProvider[]>;
  /** The local corpus, used when no provider is configured and `allowOffline` is true. */
  localCorpus: () => SearchProvider;
  /** ALLOW_OFFLINE_PROVIDERS: whether the local corpus may stand in for missing search credentials. */
  allowOffline: boolean;
  /** Told each time a job needs a search provider and none is configured (a loud log line and a metric that alarms). */
  onNotConfigured?: (error: ProviderNotConfiguredError) => void;
  /** Runs the providers in order until one serves (the chain's retry and fallback rules); throws SearchFailedError when none does. */
  chain: (providers: readonly SearchProvider[], query: SearchQuery) => Promise<ChainResult>;
  cache: SearchCache;
  /**
   * Content analysis of the results relative to `query` (the configured LLM;
   * pages read for `advanced`); no page read or model call starts after `deadlineAt`.
   */
  analyze: (input: { query: string; results: ResearchResult[]; depth: AnalysisDepth; deadlineAt: number }) => Promise<AnalysedResult[]>;
  /** How long analysis may take before the results are given without it. @default ANALYSIS_BUDGET_MS */
  analysisBudgetMs?: number;
  logger?: Pick<Logger, 'info' | 'warn'>;
}

type ResearchCommand = CommandRecord<DeepResearchRequest, DeepResearchProgress>;

/**
 * The research worker's job: runs a deep research command. A producer's
 * request is validated with the route's schema; it concerns no site.
 */
export function researchJob(deps: ResearchPhaseDependencies): JobDefinition<DeepResearchRequest, DeepResearchProgress> {
  return {
    type: 'deep_research',
    kind: deepResearchKind,
    parseProducerRequest: parseDeepResearchRequest,
    siteIdOf: () => undefined,
    run: (input) => runResearchPhase(deps, input),
  };
}

/**
 * Use case: one deep research operation. Serves the search from the cache
 * or the provider chain (the local corpus when no provider is configured
 * and offline providers are allowed; otherwise the job fails loudly and is
 * retried); keeps the search's outcome in `progress` before analysis, so a
 * redelivered job spends its provider requests once; analyses the results
 * when asked; completes with the seed's response. No provider serving →
 * SEARCH_FAILED with each provider's reason.
 */
export async function runResearchPhase(
  deps: ResearchPhaseDependencies,
  input: PhaseInput<DeepResearchRequest, DeepResearchProgress>,
): Promise<PhaseOutcome> {
  const { command, request } = input;
  const query = buildSearchQuery(request);
  let search = command.progress?.search;
  if (!search) {
    const outcome = await searchOnce(deps, query);
    if ('error' in outcome) return { status: 'failed', error: outcome.error };
    search = outcome.search;
    // Kept before analysis (which can take minutes): a redelivery reads it instead of searching again.
    if (request.include_content_analysis && search.results.length > 0) await keepSearch(deps, command, search);
  }

  let results: (ResearchResult | AnalysedResult)[] = search.results;
  const warnings: ErrorInfo[] = [];
  let analysisIncluded = false;
  if (request.include_content_analysis) {
    try {
      if (results.length > 0) {
        const analysed = deps.analyze({
          query: analysisTopic(request, query),
          results: search.results,
          depth: request.analysis_depth,
          deadlineAt: deps.clock.now() + ANALYSIS_NEW_WORK_MS,
        });
        results = await withinBudget(analysed, deps.analysisBudgetMs ?? ANALYSIS_BUDGET_MS);
      }
      analysisIncluded = true;
    } catch (error) {
      // A missing model key fails loudly (the job is retried; the search is kept). Anything else leaves the results without analysis.
      if (error instanceof ProviderNotConfiguredError) throw error;
      deps.logger?.warn('Content analysis failed; the results are given without it', {
        commandId: command.id,
        error: describeError(error),
      });
      warnings.push({ code: 'SYSTEM_ERROR', message: `${analysisFailure(error)}; the results are given without analysis.` });
    }
  }

  // Analyses add up to a few KB a result: the best-ranked that fit the command's budget are given.
  results = prefixWithin(results, RESULTS_MAX_BYTES);
  const result: DeepResearchResult = {
    operation_type: request.operation_type,
    query: query.text,
    date_range: dateRangeOf(request),
    results,
    total_results: results.length,
    processing_time_ms: Math.max(0, deps.clock.now() - Date.parse(command.created_at)),
    analysis_included: analysisIncluded,
    provider: search.provider,
    provider_requests: search.provider_requests,
    cached: search.cached,
  };
  // The kept search goes with the terminal write (the kernel removes progress), so the item holds the results once.
  return { status: 'completed', result, ...(warnings.length > 0 ? { patch: { warnings } } : {}) };
}

/** The search, from the cache or the providers; or the SEARCH_FAILED error when none could serve. */
async function searchOnce(deps: ResearchPhaseDependencies, query: SearchQuery): Promise<{ search: SearchOutcome } | { error: ErrorInfo }> {
  const limits = {
    ...(query.dateFrom ? { dateFrom: query.dateFrom } : {}),
    ...(query.dateTo ? { dateTo: query.dateTo } : {}),
    maxResults: query.maxResults,
  };
  const cached = await deps.cache.get(query);
  if (cached) {
    return {
      search: {
        provider: cached.provider,
        provider_requests: 0,
        cached: true,
        passed_over: [],
        results: shapeResults(cached.hits, limits),
      },
    };
  }

  let providers = await deps.providers();
  if (providers.length === 0) {
    if (!deps.allowOffline) {
      const error = new ProviderNotConfiguredError(
        'No search provider is configured (GOOGLE_CSE_API_KEY and GOOGLE_CSE_ID, BRAVE_API_KEY or PERPLEXITY_API_KEY in the search secret) and ALLOW_OFFLINE_PROVIDERS is not true: the job waits for a key instead of using the local corpus.',
      );
      deps.onNotConfigured?.(error);
      throw error;
    }
    providers = [deps.localCorpus()];
  }

  let answer: ChainResult;
  try {
    answer = await deps.chain(providers, query);
  } catch (error) {
    if (!(error instanceof SearchFailedError)) throw error;
    deps.logger?.warn('Every search provider failed', { failures: error.failures, providerRequests: error.providerRequests });
    return { error: searchFailedError(error.failures, error.providerRequests) };
  }
  deps.logger?.info('Search served', {
    provider: answer.provider,
    providerRequests: answer.providerRequests,
    passedOver: answer.passedOver,
  });
  if (answer.provider !== LOCAL_CORPUS_PROVIDER) {
    // The requests are spent: a cache that cannot be written must not fail the job (its retry would spend them again).
    await deps.cache.put(query, { provider: answer.provider, hits: answer.hits }).catch((error: unknown) => {
      deps.logger?.warn('Search results could not be cached', { error: describeError(error) });
    });
  }
  return {
    search: {
      provider: answer.provider,
      provider_requests: answer.providerRequests,
      cached: false,
      passed_over: answer.passedOver,
      results: shapeResults(answer.hits, limits),
    },
  };
}

/** Why analysis failed, in words safe to show (LLM errors never carry keys or prompts). */
function analysisFailure(error: unknown): string {
  if (error instanceof AnalysisBudgetError) return error.message;
  if (error instanceof LlmUnavailableError) return `Content analysis failed: the language model is unavailable (${error.message})`;
  return 'Content analysis failed';
}

async function keepSearch(deps: ResearchPhaseDependencies, command: ResearchCommand, search: SearchOutcome): Promise<void> {
  const kept = await deps.commands.recordProgress(command.id, { progress: { ...command.progress, search } }, deps.clock.now());
  if (!kept) throw new Error(`Command ${command.id} is no longer in progress; its search outcome was not kept`);
}
