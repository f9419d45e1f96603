import { startLoopbackFake, type FakeAnswer, type LoopbackFake, type RecordedRequest } from './loopback';
import { generateResults } from './search-results';

/** Perplexity's usual failures (OpenAI-style error bodies). */
export type PerplexityFailure =
  /** 429 rate_limit_exceeded. */
  | 'rate-limit'
  /** 429 insufficient_quota: out of credits. */
  | 'insufficient-quota'
  /** 401 invalid key. */
  | 'invalid-key'
  | 'server-error'
  /** A normal answer, 1.5 s late. */
  | 'slow'
  | 'malformed'
  /** 200 JSON that is not a chat completion. */
  | 'wrong-shape'
  | 'disconnect';

export interface PerplexityFakeOptions {
  /** The key it accepts. @default 'pplx-fake-perplexity-key' */
  apiKey?: string;
  /** Sources per answer. @default 10 */
  resultsPerAnswer?: number;
  /** `search_results` (current) or only `citations` (older answers). @default 'search_results' */
  format?: 'search_results' | 'citations';
}

/** Loopback stand-in for Perplexity Sonar (`POST {base}/chat/completions`). */
export interface PerplexityFake extends LoopbackFake<PerplexityFailure> {
  readonly apiKey: string;
}

interface SonarBody {
  model?: string;
  messages?: Array<{ role: string; content: string }>;
  search_domain_filter?: string[];
  search_after_date_filter?: string;
  search_before_date_filter?: string;
}

/**
 * Starts the fake on 127.0.0.1. It checks the Bearer key, honours
 * `search_domain_filter` and the `M/D/YYYY` date filters, and answers a
 * chat completion with `search_results` (or `citations`) made from the
 * user message.
 */
export async function startFakePerplexity(options: PerplexityFakeOptions = {}): Promise<PerplexityFake> {
  const apiKey = options.apiKey ?? 'pplx-fake-perplexity-key';
  const perAnswer = options.resultsPerAnswer ?? 10;
  let served = 0;
  const error = (status: number, type: string, code: string | number, message: string): FakeAnswer => ({
    status,
    body: { error: { message, type, code } },
  });

  const fake = await startLoopbackFake<PerplexityFailure>({
    method: 'POST',
    endpoint: '/chat/completions',
    answer(request: RecordedRequest) {
      if (request.headers.authorization !== `Bearer ${apiKey}`) {
        return error(401, 'invalid_api_key', 401, `Invalid API key ${String(request.headers.authorization)}`);
      }
      const body = (request.body ?? {}) as SonarBody;
      const terms =
        body.messages
          ?.filter((message) => message.role === 'user')
          .map((message) => message.content)
          .join(' ') ?? '';
      served += 1;
      const results = generateResults(
        {
          terms,
          sites: body.search_domain_filter?.filter((domain) => !domain.startsWith('-')) ?? [],
          from: isoOf(body.search_after_date_filter),
          to: isoOf(body.search_before_date_filter),
          total: perAnswer,
          duplicates: false,
        },
        0,
        perAnswer,
      );
      const sources =
        options.format === 'citations'
          ? { citations: results.map((result) => result.url) }
          : {
              search_results: results.map((result) => ({
                title: result.title,
                url: result.url,
                date: result.day ?? null,
                last_updated: result.day ?? null,
                snippet: result.snippet,
              })),
            };
      return {
        status: 200,
        body: {
          id: `pplx-fake-${served}`,
          model: body.model ?? 'sonar',
          created: Math.floor(Date.now() / 1000),
          object: 'chat.completion',
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: `Sources about ${terms} [1][2].` } }],
          usage: { prompt_tokens: 20, completion_tokens: 12, total_tokens: 32, search_context_size: 'low' },
          ...sources,
        },
      };
    },
    presets: {
      'rate-limit': () => error(429, 'rate_limit_exceeded', 'rate_limit_exceeded', 'Rate limit exceeded.'),
      'insufficient-quota': () => error(429, 'insufficient_quota', 'insufficient_quota', 'You exceeded your current quota.'),
      'invalid-key': () => error(401, 'invalid_api_key', 401, 'Invalid API key.'),
      'server-error': () => error(500, 'server_error', 'server_error', 'Internal server error.'),
      slow: () => ({ slowMs: 1_500 }),
      malformed: () => ({ malformed: true }),
      'wrong-shape': () => ({ status: 200, body: { object: 'chat.completion', search_results: [{ title: 'no url' }] } }),
      disconnect: () => ({ disconnect: true }),
    },
  });

  return Object.assign(fake, { apiKey });
}

/** `M/D/YYYY` → YYYY-MM-DD. */
function isoOf(value: string | undefined): string | undefined {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value ?? '');
  return match ? `${match[3]}-${match[1]!.padStart(2, '0')}-${match[2]!.padStart(2, '0')}` : undefined;
}
