import { createJobWorker } from '../../shared/commands/worker';
import { lambdaEntry } from '../../shared/composition/lambda';
import type { HostPorts } from '../../shared/composition/host';
import type { Settings } from '../../shared/composition/settings';
import { workerComposition } from '../../shared/composition/worker';
import { analyzeResults } from '../../shared/deep-research/analysis';
import { researchJob } from '../../shared/deep-research/research-phase';
import { readDeepResearchSettings } from '../../shared/deep-research/settings';
import { lazyLlm } from '../../shared/providers/llm/from-settings';
import { dynamoSearchCache } from '../../shared/providers/search/cache';
import { searchThroughChain } from '../../shared/providers/search/chain';
import { configuredSearchProviders } from '../../shared/providers/search/from-settings';
import { createLocalCorpusProvider } from '../../shared/providers/search/local-corpus';
import type { SearchProvider } from '../../shared/providers/search/port';
import { readSearchSettings } from '../../shared/providers/search/settings';
import { lazyPageReader } from '../../shared/providers/web/lazy-page-reader';
import { sleepOn } from '../../shared/platform/clock';

/**
 * Composes the SQS handler of the `research` queue (deep research) from its
 * settings: the search chain of SEARCH_PROVIDERS with the credentials of the
 * search secret, the local corpus (SEARCH_CORPUS_FILE, bundled in Lambda)
 * where no provider is configured and offline providers are allowed, the
 * search cache in the table, and the model and safe page reader of content
 * analysis.
 */
export function build(settings: Settings, host: HostPorts = {}) {
  const deps = workerComposition('researchWorker', settings, host);
  const search = readSearchSettings(settings);
  const { corpusFile } = readDeepResearchSettings(settings);
  const llm = lazyLlm(deps.secrets, settings, deps.llmPolicy);
  const readPage = lazyPageReader();
  let corpus: SearchProvider | undefined;
  const definition = researchJob({
    commands: deps.commands,
    clock: deps.clock,
    providers: configuredSearchProviders({ settings, secrets: deps.secrets, db: deps.db, tableName: deps.tableName }),
    localCorpus: () => (corpus ??= createLocalCorpusProvider(corpusFile ? { file: corpusFile } : {})),
    allowOffline: deps.llmPolicy.allowOffline,
    ...(deps.llmPolicy.onNotConfigured ? { onNotConfigured: deps.llmPolicy.onNotConfigured } : {}),
    chain: (providers, query) =>
      deps.tracing.span('## search', { providers: providers.map((provider) => provider.name).join(',') }, () =>
        searchThroughChain(providers, query, { sleep: (ms) => sleepOn(deps.clock, ms) }),
      ),
    cache: dynamoSearchCache(deps.db, deps.tableName, search.SEARCH_CACHE_TTL),
    analyze: async ({ deadlineAt, ...input }) =>
      analyzeResults(
        {
          llm: await llm(),
          readPage,
          deadlineAt,
          onNote: (note) => deps.logger.warn('Result analysed other than planned', { kind: note.kind, reason: note.reason }),
        },
        input,
      ),
    logger: deps.logger,
  });
  return createJobWorker(definition, deps);
}

export const handler = lambdaEntry(build);
