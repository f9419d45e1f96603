import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { startLocalRuntime, type LocalRuntime } from '../../../infra/local/runtime';
import { movableClock } from '../../support/clock';
import { startFakeBrave, type BraveFake } from '../../fakes/brave';
import { startFakeGoogle, type GoogleFake } from '../../fakes/google';
import { startOpenAiFake, type FakeReply, type OpenAiFake } from '../../fakes/openai';
import { startFakePerplexity, type PerplexityFake } from '../../fakes/perplexity';
import { captureOutput } from '../../support/capture-output';
import { eventually } from '../../support/embedded';
import { call, type JsonAnswer } from '../../support/http';

/**
 * Deep research end to end through the local runtime (HTTP gateway, embedded
 * DynamoDB and SQS, the research worker) with the real adapters talking to
 * the loopback fakes of Google, Brave, Perplexity and OpenAI. Everything the
 * runtime prints is captured, to prove the Google key never reaches a log.
 */
const ROUTE = '/api/deepResearch/operation';
const SITELESS_KEY = 'sbk_research-siteless-key-0001';
const OTHER_TENANT_KEY = 'sbk_research-other-tenant-0001';
const OPENAI_KEY = 'sk-research-openai-key-000000';

let runtime: LocalRuntime;
let google: GoogleFake;
let brave: BraveFake;
let perplexity: PerplexityFake;
let openai: OpenAiFake;
let printed = '';

/** Runs `work` with everything the runtime prints meanwhile kept for the log checks. */
async function captured<T>(work: () => Promise<T>): Promise<T> {
  let result: T | undefined;
  const output = await captureOutput(async () => {
    result = await work();
  });
  printed += output.stdout + output.stderr;
  return result as T;
}

/** A model that analyses every batch it is given. */
function analyses(body: ChatCompletionCreateParamsNonStreaming): FakeReply {
  const format = body.response_format as { json_schema: { name: string } };
  const prompt = body.messages.map((message) => String(message.content)).join('\n');
  if (format.json_schema.name === 'search_result_analyses') {
    const urls = [...prompt.matchAll(/https?:\/\/[^\s"\\]+/g)].map((match) => match[0]);
    const unique = [...new Set(urls)];
    return {
      content: {
        analyses: unique.map((url, index) => ({
          index,
          url,
          summary: `The model's summary of result ${index}.`,
          key_points: ['A point the model made'],
          sentiment: 'positive',
          relevance_score: 8,
        })),
      },
    };
  }
  return { content: { summary: 'A page summary.', key_points: ['From the page'], sentiment: 'neutral', relevance_score: 6 } };
}

beforeAll(async () => {
  [google, brave, perplexity, openai] = await Promise.all([startFakeGoogle(), startFakeBrave(), startFakePerplexity(), startOpenAiFake()]);
  openai.respondWith(analyses);
  runtime = await captured(() =>
    startLocalRuntime({
      port: 0,
      scheduleEveryMs: 0,
      // A search retry's back-off moves this clock on instead of taking a second.
      clock: movableClock(),
      apiKeys: { [SITELESS_KEY]: [], [OTHER_TENANT_KEY]: [] },
      settings: {
        LOG_LEVEL: 'DEBUG',
        GOOGLE_CSE_API_KEY: google.apiKey,
        GOOGLE_CSE_ID: google.engineId,
        GOOGLE_CSE_BASE_URL: google.baseUrl,
        BRAVE_API_KEY: brave.apiKey,
        BRAVE_BASE_URL: brave.baseUrl,
        PERPLEXITY_API_KEY: perplexity.apiKey,
        PERPLEXITY_BASE_URL: perplexity.baseUrl,
        OPENAI_API_KEY: OPENAI_KEY,
        OPENAI_BASE_URL: openai.baseUrl,
        SEARCH_PROVIDERS: undefined,
        SEARCH_CACHE_TTL: undefined,
        GOOGLE_CSE_DAILY_QUOTA: undefined,
      },
    }),
  );
}, 60_000);

afterAll(async () => {
  await runtime?.stop();
  await Promise.all([google, brave, perplexity].map((fake) => fake?.close()));
  await openai?.close();
});

const research = (body: unknown, options: { key?: string; headers?: Record<string, string> } = {}) =>
  captured(() =>
    call(runtime.url, 'POST', ROUTE, { key: options.key ?? runtime.apiKey, body, headers: { prefer: 'wait=20', ...options.headers } }),
  );

const read = (id: string, key = runtime.apiKey) => call(runtime.url, 'GET', `/api/commands/${id}`, { key });

/** Requests each fake received while `work` ran. */
async function spent(work: () => Promise<JsonAnswer>): Promise<{ answer: JsonAnswer; google: number; brave: number; perplexity: number }> {
  const before = [google.requests.length, brave.requests.length, perplexity.requests.length];
  const answer = await work();
  return {
    answer,
    google: google.requests.length - before[0]!,
    brave: brave.requests.length - before[1]!,
    perplexity: perplexity.requests.length - before[2]!,
  };
}

describe('POST /api/deepResearch/operation', () => {
  it('answers 202 with the command and the query it will run, then completes it', async () => {
    const answer = await research({ operation_type: 'general_news', query: 'tidal power', max_results: 5 }, { headers: { prefer: '' } });
    expect(answer.status).toBe(202);
    const id = String(answer.body.data?.command_id);
    expect(answer.headers.get('location')).toBe(`/api/commands/${id}`);
    expect(answer.body.data).toEqual({
      command_id: id,
      status: 'in_progress',
      operation_type: 'general_news',
      query: 'tidal power news',
      date_range: { from: null, to: null },
    });
    const done = await eventually(
      async () => {
        const current = await captured(() => read(id));
        return current.body.data?.status === 'completed' ? current : undefined;
      },
      20_000,
      'the research command to complete',
    );
    expect(done.body.data).toMatchObject({
      command_id: id,
      type: 'deep_research',
      status: 'completed',
      provider: 'google',
      provider_requests: 1,
      total_results: 5,
    });
    expect(done.body.data).not.toHaveProperty('site_id');
    expect(done.body.data).not.toHaveProperty('success');
  });

  it('max_results 30 costs exactly 3 Google requests, recorded on the command', async () => {
    const {
      answer,
      google: googleRequests,
      brave: braveRequests,
    } = await spent(() =>
      research({ operation_type: 'general_news', query: 'offshore wind auctions', date_from: '2025-01-01', date_to: '2025-12-31' }),
    );
    expect(answer.status).toBe(200);
    expect(googleRequests).toBe(3);
    expect(braveRequests).toBe(0);
    expect(answer.body).toMatchObject({
      success: true,
      operation_type: 'general_news',
      query: 'offshore wind auctions news after:2025-01-01 before:2025-12-31',
      date_range: { from: '2025-01-01', to: '2025-12-31' },
      total_results: 30,
      analysis_included: false,
      provider: 'google',
      provider_requests: 3,
      processing_time_ms: expect.any(Number),
    });
    const results = answer.body.results as { url: string; domain: string; publishedDate?: string }[];
    expect(new Set(results.map((result) => result.url)).size).toBe(30);
    for (const result of results) {
      expect(result.domain).not.toMatch(/^www\./);
      if (result.publishedDate !== undefined)
        expect(result.publishedDate >= '2025-01-01' && result.publishedDate <= '2025-12-31').toBe(true);
    }
    const pages = google.requests.slice(-3).map((request) => [request.query.start, request.query.num]);
    expect(pages).toEqual([
      ['1', '10'],
      ['11', '10'],
      ['21', '10'],
    ]);
    const stored = await read(String(answer.body.command_id));
    expect(stored.body.data).toMatchObject({ status: 'completed', provider: 'google', provider_requests: 3 });
  });

  it('serves an identical request from the cache without a provider request', async () => {
    const body = { operation_type: 'custom_search', query: 'heat pump subsidies', max_results: 12 };
    const first = await spent(() => research(body));
    expect(first.answer.body).toMatchObject({ provider: 'google', provider_requests: 2, cached: false });
    const second = await spent(() => research(body));
    expect([second.google, second.brave, second.perplexity]).toEqual([0, 0, 0]);
    expect(second.answer.body).toMatchObject({ provider: 'google', provider_requests: 0, cached: true, total_results: 12 });
    expect(second.answer.body.results).toEqual(first.answer.body.results);
    // Each command's usage: the provider requests it paid for, or the cache hit that spared them.
    const usageOf = async (answer: JsonAnswer) => (await read(String(answer.body.command_id))).body.data?.usage as Record<string, unknown>;
    expect((await usageOf(first.answer)).searches).toEqual({ requests: 2, cache_hits: 0, by_provider: { google: 2 } });
    expect((await usageOf(second.answer)).searches).toEqual({ requests: 0, cache_hits: 1, by_provider: {} });
  });

  it('passes Google answering 500 over to Brave', async () => {
    google.failNext(2, 'server-error');
    const {
      answer,
      google: googleRequests,
      brave: braveRequests,
    } = await spent(() => research({ operation_type: 'general_news', query: 'grid batteries' }));
    expect(answer.body).toMatchObject({ success: true, provider: 'brave', total_results: 30 });
    expect(googleRequests).toBe(2);
    expect(braveRequests).toBe(2);
    expect(answer.body.provider_requests).toBe(4);
    // Google's failed requests count too: they were sent.
    const usage = (await read(String(answer.body.command_id))).body.data?.usage as { searches: unknown };
    expect(usage.searches).toEqual({ requests: 4, cache_hits: 0, by_provider: { google: 2, brave: 2 } });
  });

  it('falls back to Perplexity when Google and Brave are down', async () => {
    google.failNext(2, 'unavailable');
    brave.failNext(2, 'server-error');
    const { answer, perplexity: sonar } = await spent(() =>
      research({ operation_type: 'llm_news', query: 'open weights', max_results: 5 }),
    );
    expect(answer.body).toMatchObject({ success: true, provider: 'perplexity', total_results: 5 });
    expect(sonar).toBe(1);
  });

  it('fails with SEARCH_FAILED and each provider’s reason when all are down, never showing a key', async () => {
    google.failNext(2, 'server-error');
    brave.failNext(2, 'server-error');
    perplexity.failNext(2, 'server-error');
    const answer = await research({ operation_type: 'custom_search', query: 'solid state batteries' });
    expect(answer.status).toBe(500);
    expect(answer.headers.get('location')).toMatch(/^\/api\/commands\//);
    expect(answer.body).toMatchObject({
      success: false,
      error: {
        code: 'SEARCH_FAILED',
        message: expect.stringContaining('google'),
        details: [
          { code: 'provider_failed', message: expect.any(String), path: ['providers', 'google'] },
          { code: 'provider_failed', message: expect.any(String), path: ['providers', 'brave'] },
          { code: 'provider_failed', message: expect.any(String), path: ['providers', 'perplexity'] },
        ],
      },
      processing_time_ms: expect.any(Number),
    });
    for (const secret of [google.apiKey, brave.apiKey, perplexity.apiKey]) expect(answer.text).not.toContain(secret);
    expect(answer.text).not.toContain(google.baseUrl);
  });

  it('moves to Brave when Google’s daily quota runs out in the middle of a request, and skips Google after', async () => {
    google.failNext(1, { normal: true });
    google.failNext(1, 'quota');
    const first = await spent(() => research({ operation_type: 'general_news', query: 'hydrogen steel' }));
    expect(first.google).toBe(2);
    expect(first.answer.body).toMatchObject({ provider: 'brave', total_results: 30 });
    const next = await spent(() => research({ operation_type: 'general_news', query: 'green ammonia', max_results: 5 }));
    expect(next.google).toBe(0);
    expect(next.answer.body).toMatchObject({ provider: 'brave', provider_requests: 1 });
  });

  it('analyses the results in batches, at most one model call per 10 results', async () => {
    const before = openai.requests.length;
    const answer = await research({
      operation_type: 'general_news',
      query: 'lithium recycling',
      max_results: 25,
      include_content_analysis: true,
    });
    expect(answer.body).toMatchObject({ success: true, analysis_included: true, total_results: 25 });
    expect(openai.requests.length - before).toBe(3);
    const results = answer.body.results as { content_analysis: unknown }[];
    expect(results[0]!.content_analysis).toEqual({
      summary: "The model's summary of result 0.",
      key_points: ['A point the model made'],
      sentiment: 'positive',
      relevance_score: 8,
    });
  });

  it('lets a key of a tenant without any site run research, and only that tenant read it', async () => {
    const answer = await research({ operation_type: 'custom_search', query: 'sodium ion cells', max_results: 3 }, { key: SITELESS_KEY });
    expect(answer.status).toBe(200);
    const id = String(answer.body.command_id);
    expect((await read(id, SITELESS_KEY)).body.data).toMatchObject({ status: 'completed', type: 'deep_research' });
    const other = await read(id, OTHER_TENANT_KEY);
    expect(other.status).toBe(404);
    expect(other.body.error?.code).toBe('COMMAND_NOT_FOUND');
    expect((await read(id)).status).toBe(404);
  });

  it('replays an Idempotency-Key: the same command, no second search', async () => {
    const body = { operation_type: 'custom_search', query: 'perovskite tandem cells', max_results: 4 };
    const first = await research(body, { headers: { 'idempotency-key': 'research-42' } });
    const again = await spent(() => research(body, { headers: { 'idempotency-key': 'research-42' } }));
    expect(again.answer.body.command_id).toBe(first.body.command_id);
    expect([again.google, again.brave, again.perplexity]).toEqual([0, 0, 0]);
  });

  describe('refuses bad input, every error with processing_time_ms', () => {
    it.each([
      ['a missing operation_type', { query: 'x' }, 'VALIDATION_ERROR'],
      ['an operation_type that is not a string', { operation_type: 7 }, 'VALIDATION_ERROR'],
      ['an unknown operation', { operation_type: 'deep_news', query: 'x' }, 'INVALID_OPERATION'],
      ['general_news without a query', { operation_type: 'general_news' }, 'MISSING_QUERY'],
      ['custom_search with a blank query', { operation_type: 'custom_search', query: ' ' }, 'MISSING_QUERY'],
      ['max_results "30"', { operation_type: 'llm_news', max_results: '30' }, 'VALIDATION_ERROR'],
      ['an impossible date', { operation_type: 'llm_news', date_to: '2025-02-30' }, 'VALIDATION_ERROR'],
    ])('%s', async (_, body, code) => {
      const answer = await research(body);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ success: false, error: { code }, processing_time_ms: expect.any(Number) });
      expect(answer.headers.get('location')).toBeNull();
    });

    it('a body that is not JSON: VALIDATION_ERROR', async () => {
      const answer = await captured(() => call(runtime.url, 'POST', ROUTE, { key: runtime.apiKey, rawBody: '{"operation_type": ' }));
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error: { code: 'VALIDATION_ERROR' }, processing_time_ms: expect.any(Number) });
    });

    it('no key: 401, still with processing_time_ms', async () => {
      const answer = await captured(() => call(runtime.url, 'POST', ROUTE, { body: { operation_type: 'llm_news' } }));
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ error: { code: 'UNAUTHORIZED' }, processing_time_ms: expect.any(Number) });
    });
  });

  it('never prints the Google key (it travels in Google’s URLs), nor any other provider key', () => {
    expect(printed).toMatch(/deepResearch\/operation/);
    expect(printed).toMatch(/Search served|Every search provider failed/);
    for (const secret of [google.apiKey, brave.apiKey, perplexity.apiKey, OPENAI_KEY]) expect(printed).not.toContain(secret);
  });
});
