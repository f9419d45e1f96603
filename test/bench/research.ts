import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime';
import { startFakeBrave, type BraveFake } from '../fakes/brave';
import { startFakeGoogle, type GoogleFake } from '../fakes/google';
import { startOpenAiFake, type OpenAiFake } from '../fakes/openai';
import { startFakePerplexity, type PerplexityFake } from '../fakes/perplexity';
import { call } from '../support/http';
import { markdownTable, median } from './table';
import { answerAnalyses } from './analysis-answers';

/**
 * Bench part `research`: end-to-end completion time of deep research
 * through the local runtime (POST with `Prefer: wait` until the 200), the
 * providers faked on loopback with zero latency, and the provider requests
 * (and model calls) each operation costs, counted at the fakes.
 * Goal: a 30-result general_news completes within 500 ms (median) and
 * costs exactly 3 Google requests.
 */
const RUNS = Number(process.env.BENCH_RESEARCH_RUNS ?? 20);
const GOAL_MEDIAN_MS = 500;
const ROUTE = '/api/deepResearch/operation';

interface Fakes {
  google: GoogleFake;
  brave: BraveFake;
  perplexity: PerplexityFake;
  openai: OpenAiFake;
}

interface Scenario {
  name: string;
  body: (run: number) => Record<string, unknown>;
  /** Scripted before each run. */
  arrange?: (fakes: Fakes) => void;
}

const SCENARIOS: Scenario[] = [
  { name: 'general_news, 30 results (Google)', body: (run) => ({ operation_type: 'general_news', query: `offshore wind ${run}` }) },
  {
    name: 'general_news, 100 results (Google)',
    body: (run) => ({ operation_type: 'general_news', query: `grid storage ${run}`, max_results: 100 }),
  },
  {
    name: 'general_news, 30 results, Google 500 → Brave',
    body: (run) => ({ operation_type: 'general_news', query: `heat pumps ${run}` }),
    arrange: ({ google }) => google.failNext(2, 'server-error'),
  },
  {
    name: 'general_news, 30 results, Google and Brave down → Perplexity',
    body: (run) => ({ operation_type: 'general_news', query: `geothermal ${run}` }),
    arrange: ({ google, brave }) => {
      google.failNext(2, 'server-error');
      brave.failNext(2, 'server-error');
    },
  },
  { name: 'general_news, 30 results, cache hit', body: () => ({ operation_type: 'general_news', query: 'offshore wind 0' }) },
  {
    name: 'general_news, 30 results, basic analysis',
    body: (run) => ({ operation_type: 'general_news', query: `solar tariffs ${run}`, include_content_analysis: true }),
  },
];

interface Measured {
  ms: number[];
  providers: Set<string>;
  providerRequests: number[];
  fakeRequests: number[];
  modelCalls: number[];
}

async function measure(runtime: LocalRuntime, fakes: Fakes, scenario: Scenario): Promise<Measured> {
  const measured: Measured = { ms: [], providers: new Set(), providerRequests: [], fakeRequests: [], modelCalls: [] };
  const searchRequests = () => fakes.google.requests.length + fakes.brave.requests.length + fakes.perplexity.requests.length;
  for (let run = 0; run < RUNS; run++) {
    scenario.arrange?.(fakes);
    const [searchBefore, modelBefore] = [searchRequests(), fakes.openai.requests.length];
    const started = performance.now();
    const answer = await call(runtime.url, 'POST', ROUTE, {
      key: runtime.apiKey,
      body: scenario.body(run),
      headers: { prefer: 'wait=25' },
    });
    const ms = performance.now() - started;
    if (answer.status !== 200) throw new Error(`${scenario.name}: answered ${answer.status} ${answer.text.slice(0, 300)}`);
    measured.ms.push(ms);
    measured.providers.add(String(answer.body.provider));
    measured.providerRequests.push(Number(answer.body.provider_requests));
    measured.fakeRequests.push(searchRequests() - searchBefore);
    measured.modelCalls.push(fakes.openai.requests.length - modelBefore);
  }
  return measured;
}

function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

async function main(): Promise<void> {
  const [google, brave, perplexity, openai] = await Promise.all([
    startFakeGoogle(),
    startFakeBrave(),
    startFakePerplexity(),
    startOpenAiFake(),
  ]);
  answerAnalyses(openai);
  const fakes = { google, brave, perplexity, openai };
  const runtime = await startLocalRuntime({
    // Functions composed at start: the figures leave their init out.
    compose: 'start',
    port: 0,
    scheduleEveryMs: 0,
    settings: {
      LOG_LEVEL: 'ERROR',
      GOOGLE_CSE_API_KEY: google.apiKey,
      GOOGLE_CSE_ID: google.engineId,
      GOOGLE_CSE_BASE_URL: google.baseUrl,
      // Every run of every scenario is a search of its own: the daily quota must not end the bench.
      GOOGLE_CSE_DAILY_QUOTA: '100000',
      BRAVE_API_KEY: brave.apiKey,
      BRAVE_BASE_URL: brave.baseUrl,
      PERPLEXITY_API_KEY: perplexity.apiKey,
      PERPLEXITY_BASE_URL: perplexity.baseUrl,
      OPENAI_API_KEY: 'sk-bench-research',
      OPENAI_BASE_URL: openai.baseUrl,
    },
    onError: (error) => process.stderr.write(`research: ${error instanceof Error ? error.message : String(error)}\n`),
  });
  try {
    // One warm-up operation: modules, connections and the table's first writes.
    await call(runtime.url, 'POST', ROUTE, {
      key: runtime.apiKey,
      body: { operation_type: 'custom_search', query: 'warm up' },
      headers: { prefer: 'wait=25' },
    });
    const rows: string[][] = [];
    let goal: Measured | undefined;
    for (const scenario of SCENARIOS) {
      const measured = await measure(runtime, fakes, scenario);
      goal ??= measured;
      rows.push([
        scenario.name,
        String(RUNS),
        median(measured.ms).toFixed(0),
        percentile(measured.ms, 0.95).toFixed(0),
        [...measured.providers].join(', '),
        mean(measured.providerRequests).toFixed(1),
        mean(measured.fakeRequests).toFixed(1),
        mean(measured.modelCalls).toFixed(1),
      ]);
    }
    process.stdout.write(
      [
        '## Research: end to end with zero-latency provider fakes',
        '',
        `Each row: ${RUNS} operations one after another, POST with \`Prefer: wait=25\` until the 200 (the local runtime's poller, worker and embedded DynamoDB and SQS included).`,
        "Fallback rows include the chain's 1 s pause before retrying a provider that failed transiently (shared/providers/search/policy.ts).",
        '',
        markdownTable(
          [
            'operation',
            'runs',
            'median ms',
            'p95 ms',
            'provider',
            'provider_requests / op',
            'requests at the fakes / op',
            'model calls / op',
          ],
          rows,
        ),
        '',
        `Goal: a 30-result general_news completes within ${GOAL_MEDIAN_MS} ms (median) and costs exactly 3 Google requests: ` +
          `${median(goal!.ms).toFixed(0)} ms, ${mean(goal!.providerRequests).toFixed(1)} requests — ${median(goal!.ms) <= GOAL_MEDIAN_MS && goal!.providerRequests.every((n) => n === 3) ? 'met' : 'NOT met'}.`,
        '',
        '',
      ].join('\n'),
    );
  } finally {
    await runtime.stop();
    await Promise.all([google.close(), brave.close(), perplexity.close(), openai.close()]);
  }
}

await main();
