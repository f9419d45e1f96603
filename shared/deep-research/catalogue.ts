import { COMMAND_ACCEPT_TABLE_GRANTS, PRODUCER_JOB_TABLE_GRANTS, MONTHLY_CAP_GRANTS } from '../catalogue/command-start';
import { EVENT_DELIVERY_QUEUE, EVENT_PUBLISHER_TABLE_GRANTS } from '../catalogue/event-publishing';
import type { FeatureCatalogue } from '../catalogue/feature';
import { workQueue } from '../catalogue/work-queue';
import { PAGE_PARSE_WORKER } from '../providers/web/parse-worker-bundle';

/**
 * Deep research in the service catalogue, all in this one file: its
 * job types (each with its queue and worker), its functions behind routes
 * or on a timer with their access, and its routes.
 * shared/catalogue/features.ts lists it.
 */
export const DEEP_RESEARCH_CATALOGUE = {
  jobTypes: [
    {
      type: 'deep_research',
      commandType: 'deep_research',
      startsCommand: true,
      // A producer's research job concerns no site: its tenant only has to exist (tenantMayActOn).
      fromProducers: true,
      spends: ['model_tokens', 'searches'],
      // Five records at once (Powertools runs a batch's records in parallel), each reading up to 4 pages at once: measured with the
      // worst pages the reader accepts (BENCH_PARTS=memory npm run bench), a batch of 5 peaks at 308-348 MiB RSS, one of 10 at 389.
      queue: { ...workQueue('research', 'RESEARCH'), batchSize: 5 },
      worker: {
        id: 'researchWorker',
        kind: 'worker',
        entry: 'functions/workers/research.ts',
        description: 'Deep research: web search through the provider chain (or the local corpus), then optional content analysis',
        // Worst case, every provider timing out on its attempt and its retry, then analysis to its budget
        // (checked by test/unit/deep-research/budget.test.ts):
        //   search:   Google 2 x 20 s + Brave 2 x 20 s + Perplexity 2 x 30 s + 3 retry pauses of 1 s
        //             (searchChainWorstCaseMs, shared/providers/search/policy.ts)                      = 143 s
        //   analysis: no call starts after 120 s; those running end within a page read (5 s) and one
        //             LLM call deadline (56 s) (ANALYSIS_BUDGET_MS, shared/deep-research/budget.ts)     = 181 s
        //   storage, queueing and completion                                                           ≤  36 s
        //   total                                                                                      = 360 s
        timeoutSeconds: 360,
        // Advanced analysis parses pages of up to 1 MiB into a DOM (linkedom), 2 at once in worker threads of at most 128 MiB
        // of heap each (shared/providers/web/page-parser.ts). Measured (BENCH_PARTS=memory npm run bench, bundled, pages at the
        // reader's caps): 239-252 MiB RSS with the parse threads warm, 308-348 MiB peak for a batch of 5 records (20 pages in
        // flight), so 512 keeps a full batch under 70%; a batch of 10 (389 MiB, 76%) would not fit that margin.
        memoryMb: 512,
        // The local corpus (served when no search provider is configured and offline providers are allowed) is read from disk.
        bundledFiles: [{ source: 'shared/providers/search/corpus/sample-news.jsonl', setting: 'SEARCH_CORPUS_FILE' }],
        // Advanced analysis parses pages in worker threads, under a deadline (shared/providers/web/page-parser.ts).
        workerBundles: [PAGE_PARSE_WORKER],
        access: {
          table: [
            // Producer jobs: the tenant must exist, then the job's Idempotency-Key (command-start.ts).
            ...PRODUCER_JOB_TABLE_GRANTS,
            ...MONTHLY_CAP_GRANTS,
            // Its command (a producer's job starts one).
            { actions: ['GetItem', 'PutItem', 'UpdateItem'], keyPrefixes: ['CMD#'] },
            // Google's daily query counter, shared by every worker (an atomic conditional update).
            { actions: ['UpdateItem'], keyPrefixes: ['QUOTA#'] },
            // Search results cached for SEARCH_CACHE_TTL.
            { actions: ['GetItem', 'PutItem'], keyPrefixes: ['SEARCH#'] },
            // command.completed / command.failed for the tenant's webhooks (event-publishing.ts).
            ...EVENT_PUBLISHER_TABLE_GRANTS,
          ],
          // Its own queue: a job that hit a fault, or whose command is busy, is queued again, delayed.
          sendsTo: ['research', EVENT_DELIVERY_QUEUE],
          sendsToDeadLetterOf: ['research'],
          secrets: ['search', 'openai'],
        },
        // Unset, each has its default (docs/configuration.md); an environment's providerSettings (infra/config.ts) may set them.
        settings: [
          'SEARCH_PROVIDERS',
          'SEARCH_CACHE_TTL',
          'GOOGLE_CSE_DAILY_QUOTA',
          'GOOGLE_CSE_BASE_URL',
          'BRAVE_BASE_URL',
          'PERPLEXITY_BASE_URL',
          'PERPLEXITY_MODEL',
        ],
      },
    },
  ],
  functions: [
    {
      id: 'deepResearchApi',
      kind: 'api',
      entry: 'functions/api/deep-research.ts',
      description: 'POST /api/deepResearch/operation: validate, record the command (no site), queue the research job',
      timeoutSeconds: 29,
      // Measured (sizing bench, five runs): 4.6–7.2 ms of CPU a warm request, 63–73 ms the first after a cold start; 256 MB supports it.
      memoryMb: 256,
      access: {
        // The key, the Idempotency-Key and the command (command-start.ts); a research request names no site.
        table: [...COMMAND_ACCEPT_TABLE_GRANTS, ...MONTHLY_CAP_GRANTS],
        sendsTo: ['research'],
        sendsToDeadLetterOf: [],
        secrets: [],
      },
    },
  ],
  routes: [{ method: 'POST', path: '/api/deepResearch/operation', function: 'deepResearchApi' }],
} as const satisfies FeatureCatalogue;
