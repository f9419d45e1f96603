import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime';
import { startOpenAiFake, type OpenAiFake } from '../fakes/openai';
import { call } from '../support/http';

/**
 * Secrets never reach a log line, an error or a response: a whole lead
 * follow-up runs with debug logging while the provider echoes its key back
 * in an error, and every byte written to stdout and stderr is searched.
 */
const OPENAI_KEY = 'sk-test-SECRET-4f1c9a7e2b6d';
const API_KEY = 'sbk_no-secrets-test-key-000001';
const DEMO_SITE = '5b0f3c2a-8d1e-4f6a-9b7c-2e4d6f8a0b1c';
const DEMO_LEAD = 'd4e5f6a7-b8c9-4d0e-9f1a-3b4c5d6e7f80';

let runtime: LocalRuntime;
let fake: OpenAiFake;
const written: string[] = [];
const originals = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };

beforeAll(async () => {
  fake = await startOpenAiFake();
  fake.respondWith(() => ({
    status: 401,
    error: { message: `Incorrect API key provided: ${OPENAI_KEY}.`, type: 'invalid_request_error', code: 'invalid_api_key' },
  }));
  const capture = (chunk: unknown) => {
    written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
    return true;
  };
  process.stdout.write = capture;
  process.stderr.write = capture;
  runtime = await startLocalRuntime({
    port: 0,
    apiKey: API_KEY,
    settings: { OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: fake.baseUrl, LOG_LEVEL: 'DEBUG' },
  });
});

afterAll(async () => {
  await runtime.stop();
  await fake.close();
  process.stdout.write = originals.out;
  process.stderr.write = originals.err;
});

describe('secrets in output', () => {
  it('keeps the provider key and the API keys out of logs and answers, even when the provider echoes its key', async () => {
    const answers: string[] = [];
    const failed = await call(runtime.url, 'POST', '/api/agents/sales/leadFollowUp', {
      key: API_KEY,
      headers: { prefer: 'wait=20' },
      body: { siteId: DEMO_SITE, leadId: DEMO_LEAD },
    });
    answers.push(failed.text);
    expect(failed.body.error?.code).toBe('SALES_COMMAND_FAILED');
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);

    const wrongKey = 'sbk_wrong-key-that-must-not-be-logged';
    answers.push((await call(runtime.url, 'POST', '/api/agents/sales/leadFollowUp', { key: wrongKey, body: {} })).text);
    answers.push((await call(runtime.url, 'GET', '/api/commands/not-a-command', { key: API_KEY })).text);

    const everything = [...written, ...answers].join('\n');
    // The failure was logged with its reason (so the absence of the key below means something).
    expect(written.join('')).toContain('OpenAI answered 401 invalid_api_key');
    for (const secret of [OPENAI_KEY, API_KEY, wrongKey, 'SECRET-4f1c9a7e2b6d']) expect(everything).not.toContain(secret);
  });
});
