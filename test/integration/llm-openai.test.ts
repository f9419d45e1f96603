import { z } from 'zod';
import { createOpenAiLlm } from '../../shared/providers/llm/openai';
import type { LlmRetryPolicy } from '../../shared/providers/llm/policy';
import {
  LlmError,
  LlmOutputError,
  LlmRefusalError,
  LlmUnavailableError,
  type JsonCompletionRequest,
} from '../../shared/providers/llm/port';
import { startOpenAiFake, type FakeReply, type OpenAiFake } from '../fakes/openai';
import { createOfflineLlm } from '../../shared/providers/llm/offline';
import { UsageMeter, withUsageMeter } from '../../shared/usage/meter';
import { usageView } from '../../shared/usage/usage';

const apiKey = 'sk-test-secret-key-0123456789';
const prompt = 'Write a follow-up for Jane Roe at Acme Corp';

const followUpSchema = z.object({
  subject: z.string(),
  channels: z.array(z.looseObject({ channel: z.enum(['email', 'sms']), text: z.string() })),
  sender: z.object({ name: z.string(), title: z.string().nullable() }),
});
type FollowUp = z.infer<typeof followUpSchema>;

const answer: FollowUp = {
  subject: 'Next steps',
  channels: [{ channel: 'email', text: 'Hello Jane' }],
  sender: { name: 'Sam', title: null },
};

const request: JsonCompletionRequest<FollowUp> = {
  schemaName: 'follow_up',
  schema: followUpSchema,
  messages: [
    { role: 'system', content: 'You write sales follow-ups.' },
    { role: 'user', content: prompt },
  ],
  offline: () => answer,
  maxTokens: 400,
};

const serverError = (code: string | null = 'server_error'): FakeReply => ({
  status: 500,
  error: { message: 'The server had an error', type: 'server_error', code },
  headers: { 'retry-after-ms': '1' },
});

describe('createOpenAiLlm against the loopback fake', () => {
  let fake: OpenAiFake;

  beforeEach(async () => {
    fake = await startOpenAiFake();
  });

  afterEach(async () => {
    await fake.close();
  });

  const llm = (policy: Partial<LlmRetryPolicy> = {}) => createOpenAiLlm({ apiKey, baseUrl: fake.baseUrl, model: 'gpt-4o-mini' }, policy);

  async function failure(promise: Promise<unknown>): Promise<LlmError> {
    const error = await promise.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(LlmError);
    const llmError = error as LlmError;
    expect(llmError.message).not.toContain(apiKey);
    expect(llmError.message).not.toContain(prompt);
    return llmError;
  }

  it('sends a strict JSON schema with the key and returns the validated answer', async () => {
    fake.respondWith(() => ({ content: answer }));

    const result = await llm().completeJson(request);

    expect(result).toEqual({ value: answer, generatedBy: 'openai', model: 'gpt-4o-mini' });
    expect(fake.requests).toHaveLength(1);
    const [sent] = fake.requests;
    expect(sent?.path).toBe('/v1/chat/completions');
    expect(sent?.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(sent?.body).toMatchObject({ model: 'gpt-4o-mini', messages: request.messages, max_tokens: 400 });
    expect(sent?.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'follow_up',
        strict: true,
        schema: {
          type: 'object',
          properties: {
            subject: { type: 'string' },
            channels: {
              type: 'array',
              items: {
                type: 'object',
                properties: { channel: { type: 'string', enum: ['email', 'sms'] }, text: { type: 'string' } },
                required: ['channel', 'text'],
                additionalProperties: false,
              },
            },
            sender: {
              type: 'object',
              properties: { name: { type: 'string' }, title: { type: ['string', 'null'] } },
              required: ['name', 'title'],
              additionalProperties: false,
            },
          },
          required: ['subject', 'channels', 'sender'],
          additionalProperties: false,
        },
      },
    });
  });

  it('counts the tokens each answer reports, streamed or not, on the meter of the job it runs for', async () => {
    const meter = new UsageMeter({ commandId: 'c-usage', tenantId: 't', type: 'lead_follow_up' });
    fake.enqueue({ content: answer }, { content: 'Not JSON at all' }, { stream: { text: 'Hello there, how are you', chunks: 3 } });
    await withUsageMeter(meter, async () => {
      await llm().completeJson(request);
      // An answer of no use was still paid for.
      await expect(llm().completeJson(request)).rejects.toBeInstanceOf(LlmOutputError);
      for await (const _part of llm().streamText({ messages: request.messages, offline: () => ({ text: 'x', toolCalls: [] }) }));
    });
    expect(fake.requests[2]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    // The fake reports 42 prompt and 17 completion tokens per answer, and a token per streamed piece.
    expect(usageView(meter.take()).model_tokens).toEqual({
      input: 126,
      output: 37,
      by_model: { 'gpt-4o-mini': { input: 126, output: 37 } },
    });
    // Outside a job, nothing is counted anywhere (and nothing fails).
    fake.enqueue({ content: answer });
    await llm().completeJson(request);
  });

  it("labels the offline writer's answers as model `offline`, zero tokens", async () => {
    const meter = new UsageMeter({ commandId: 'c-offline', tenantId: 't', type: 'lead_follow_up' });
    await withUsageMeter(meter, () => createOfflineLlm().completeJson(request));
    expect(usageView(meter.take()).model_tokens.by_model).toEqual({ offline: { input: 0, output: 0 } });
  });

  it('reports a refusal as LlmRefusalError', async () => {
    fake.enqueue({ refusal: 'I cannot help with that.' });

    const error = await failure(llm().completeJson(request));

    expect(error).toBeInstanceOf(LlmRefusalError);
  });

  it('reports an answer cut at the token limit as LlmOutputError with the raw text', async () => {
    fake.enqueue({ finishReason: 'length', content: '{"subject": "Next st' });

    const error = await failure(llm().completeJson(request));

    expect(error).toBeInstanceOf(LlmOutputError);
    expect(error).toMatchObject({ rawOutput: '{"subject": "Next st', message: expect.stringContaining('length') });
  });

  it('reports content that is not JSON as LlmOutputError', async () => {
    fake.enqueue({ content: 'Sure! Here is your follow-up:' });

    const error = await failure(llm().completeJson(request));

    expect(error).toBeInstanceOf(LlmOutputError);
    expect(error).toMatchObject({ rawOutput: 'Sure! Here is your follow-up:' });
  });

  it('reports JSON of the wrong shape as LlmOutputError naming the field', async () => {
    const wrong = { ...answer, subject: 42 };
    fake.enqueue({ content: wrong });

    const error = await failure(llm().completeJson(request));

    expect(error).toBeInstanceOf(LlmOutputError);
    expect(error).toMatchObject({ rawOutput: JSON.stringify(wrong), message: expect.stringContaining('subject') });
  });

  it('reports a response body that is not JSON as LlmUnavailableError without retrying', async () => {
    fake.enqueue({ malformed: true });

    const error = await failure(llm().completeJson(request));

    expect(error).toBeInstanceOf(LlmUnavailableError);
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a 429 rate_limit_exceeded, honouring retry-after-ms, then succeeds', async () => {
    fake.enqueue({
      status: 429,
      error: { message: 'Rate limit reached for gpt-4o-mini', type: 'requests', code: 'rate_limit_exceeded' },
      headers: { 'retry-after-ms': '1' },
    });
    fake.respondWith(() => ({ content: answer }));

    const result = await llm().completeJson(request);

    expect(result.value).toEqual(answer);
    expect(fake.requests).toHaveLength(2);
  });

  it('never retries a 429 insufficient_quota', async () => {
    fake.respondWith(() => ({
      status: 429,
      error: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' },
      headers: { 'retry-after-ms': '1' },
    }));

    const error = await failure(llm().completeJson(request));

    expect(error).toBeInstanceOf(LlmUnavailableError);
    expect(error).toMatchObject({ status: 429, message: 'OpenAI answered 429 insufficient_quota after 1 attempt' });
    expect(fake.requests).toHaveLength(1);
  });

  it('gives up on a server that keeps failing after 3 attempts', async () => {
    fake.respondWith(() => serverError());

    const error = await failure(llm().completeJson(request));

    expect(error).toBeInstanceOf(LlmUnavailableError);
    expect(error).toMatchObject({ status: 500, message: 'OpenAI answered 500 server_error after 3 attempts' });
    expect(fake.requests).toHaveLength(3);
  });

  it('fails at once when retry-after asks for a longer wait than the policy allows', async () => {
    fake.respondWith(() => ({ ...serverError(), headers: { 'retry-after': '120' } }));

    const error = await failure(llm().completeJson(request));

    expect(error).toMatchObject({ status: 500, message: 'OpenAI answered 500 server_error after 1 attempt' });
    expect(fake.requests).toHaveLength(1);
  });

  it('times out a hanging server', async () => {
    fake.respondWith(() => ({ hangMs: 5_000, then: { content: answer } }));

    const error = await failure(llm({ timeoutMs: 300, maxRetries: 1 }).completeJson(request));

    expect(error).toBeInstanceOf(LlmUnavailableError);
    expect(error.message).toBe('OpenAI did not answer within 300 ms after 2 attempts');
    expect(fake.requests).toHaveLength(2);
  });

  it('cuts a body that stalls after the headers at the call deadline', async () => {
    fake.respondWith(() => ({ stallAfterHeaders: true }));

    const error = await failure(llm({ timeoutMs: 200, maxRetries: 0, maxRetryWaitMs: 0 }).completeJson(request));

    expect(error).toBeInstanceOf(LlmUnavailableError);
    expect(error.message).toBe('OpenAI call ran past its deadline after 1 attempt');
  });

  it('keeps the key out of an authentication failure', async () => {
    fake.respondWith(() => ({
      status: 401,
      error: { message: `Incorrect API key provided: ${apiKey}.`, type: 'invalid_request_error', code: 'invalid_api_key' },
    }));

    const error = await failure(llm().completeJson(request));

    expect(error).toMatchObject({ status: 401, message: 'OpenAI answered 401 invalid_api_key after 1 attempt' });
  });
});
