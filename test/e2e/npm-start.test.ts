import { eventually } from '../support/embedded';
import { call } from '../support/http';
import { npmStart, settlesWithin, type NpmStart } from '../support/npm-start';

/**
 * `npm start` as a user runs it: a separate process, the banner, a request
 * answered end to end with readable log lines, and a clean stop on Ctrl-C.
 */
const API_KEY = 'sbk_e2e-npm-start-key-000001';

let run: NpmStart;

beforeAll(async () => {
  run = await npmStart({ API_KEY, LOG_LEVEL: 'INFO' });
});

afterAll(() => run.kill());

describe('npm start', () => {
  it("prints the URL, the key's tenant, the providers and the embedded endpoints, never the API_KEY it was given", () => {
    expect(run.output()).toMatch(/API key \(tenant "local", all 1 loaded site\(s\)\): \(from API_KEY\)/);
    expect(run.output()).toMatch(/providers:\s+LLM offline/);
    expect(run.output()).toMatch(/embedded DynamoDB: http:\/\/127\.0\.0\.1:\d+/);
    expect(run.output()).toMatch(/embedded SQS:\s+http:\/\/127\.0\.0\.1:\d+/);
    expect(run.output()).not.toContain(API_KEY);
  });

  it("does not print the AWS SDK's Node version notice", () => {
    expect(run.output()).not.toMatch(/NodeVersionSupportWarning/);
  });

  it('serves a lead follow-up end to end and logs it in readable lines, not JSON', async () => {
    expect((await call(run.url, 'GET', '/health')).status).toBe(200);
    const answer = await call(run.url, 'POST', '/api/agents/sales/leadFollowUp', {
      key: API_KEY,
      headers: { prefer: 'wait=20' },
      body: { siteId: '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c', leadId: 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ generated_by: 'offline', messages: { email: expect.any(Object), web: expect.any(Object) } });
    const id = answer.body.data?.command_id as string;
    const expected = [
      new RegExp(`^\\d\\d:\\d\\d:\\d\\d POST /api/agents/sales/leadFollowUp 200 \\d+ms ${id}$`),
      /^\d\d:\d\d:\d\d GET \/health 200 \d+ms$/,
      new RegExp(`^\\d\\d:\\d\\d:\\d\\d (job \\w+ ${id} \\w+ \\d+ms|INFO Job done .*commandId=${id}.*)$`),
    ];
    const lines = await eventually(
      async () => {
        const printed = run.output().split('\n');
        return expected.every((pattern) => printed.some((line) => pattern.test(line))) ? printed : undefined;
      },
      5_000,
      'the request and job lines',
    );
    expect(lines.filter((line) => line.trimStart().startsWith('{'))).toEqual([]);
    expect(run.output()).not.toContain(API_KEY);
  });

  it('answers deep research of every operation type from the local corpus, with no search key, and says so', async () => {
    expect(run.output()).toMatch(/providers:.*search local-corpus/);
    for (const body of [
      { operation_type: 'llm_news', max_results: 5 },
      { operation_type: 'general_news', query: 'AI chip export rules', date_from: '2025-01-01', max_results: 5 },
      { operation_type: 'custom_search', query: 'GPU rental prices', keywords: ['GPU'], max_results: 3, include_content_analysis: true },
    ]) {
      const answer = await call(run.url, 'POST', '/api/deepResearch/operation', { key: API_KEY, headers: { prefer: 'wait=20' }, body });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        success: true,
        operation_type: body.operation_type,
        provider: 'local-corpus',
        provider_requests: 0,
      });
      const results = answer.body.results as { domain: string; publishedDate?: string; content_analysis?: unknown }[];
      expect(results.length).toBeGreaterThan(0);
      expect(answer.body.total_results).toBe(results.length);
      if (body.operation_type === 'llm_news')
        for (const result of results)
          expect(result.domain).toMatch(
            /ycombinator|techcrunch|theverge|arstechnica|venturebeat|wired|technologyreview|theregister|siliconangle|huggingface/,
          );
      if ('date_from' in body) for (const result of results) expect(result.publishedDate! >= '2025-01-01').toBe(true);
      if ('include_content_analysis' in body)
        expect(results[0]!.content_analysis).toEqual(expect.objectContaining({ summary: expect.any(String) }));
    }
  });

  it('stops cleanly on Ctrl-C', async () => {
    run.signalGroup('SIGINT');
    expect(await settlesWithin(run.closed, 15_000)).toBe(true);
    expect(run.output()).toMatch(/SIGINT: stopping.*\nstopped\.\n/s);
  });
});
