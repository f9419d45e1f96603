import { z } from 'zod';
import { createOfflineLlm } from '../../shared/providers/llm/offline';
import { LlmOutputError, type JsonCompletionRequest } from '../../shared/providers/llm/port';
import { selectLlm } from '../../shared/providers/llm/select';

const summarySchema = z.object({ headline: z.string(), score: z.number() });
type Summary = z.infer<typeof summarySchema>;

function summaryRequest(offline: () => Summary): JsonCompletionRequest<Summary> {
  return {
    schemaName: 'summary',
    schema: summarySchema,
    messages: [{ role: 'user', content: 'Summarise Acme Corp' }],
    offline,
  };
}

describe('createOfflineLlm', () => {
  it("streams the writer's text a sentence at a time, then the tools it calls", async () => {
    const llm = createOfflineLlm();
    const parts = [];
    const text = 'Thank you. Next, the budget: 4,200 dollars? Goodbye.';
    for await (const part of llm.streamText({ messages: [], offline: () => ({ text, toolCalls: ['end_call'] }) })) parts.push(part);

    expect(parts).toEqual([
      { type: 'text', text: 'Thank you. ' },
      { type: 'text', text: 'Next, the budget: 4,200 dollars? ' },
      { type: 'text', text: 'Goodbye.' },
      { type: 'tool_call', name: 'end_call' },
    ]);
  });

  it('answers with the offline writer and says so', async () => {
    const llm = createOfflineLlm();

    const result = await llm.completeJson(summaryRequest(() => ({ headline: 'Acme Corp', score: 3 })));

    expect(result).toEqual({ value: { headline: 'Acme Corp', score: 3 }, generatedBy: 'offline', model: 'offline-writer-v1' });
    expect(llm).toMatchObject({ generatedBy: 'offline', model: 'offline-writer-v1' });
  });

  it('surfaces a writer that drifts from its schema as LlmOutputError with the raw output', async () => {
    const llm = createOfflineLlm();
    const drifted = () => ({ headline: 'Acme Corp', score: 'high' }) as unknown as Summary;

    const failure = llm.completeJson(summaryRequest(drifted));

    await expect(failure).rejects.toBeInstanceOf(LlmOutputError);
    await expect(failure).rejects.toMatchObject({
      message: expect.stringContaining('score'),
      rawOutput: '{"headline":"Acme Corp","score":"high"}',
    });
  });
});

describe('selectLlm', () => {
  it('picks the offline writer when no key is set', async () => {
    expect((await selectLlm({})).generatedBy).toBe('offline');
    expect((await selectLlm({ OPENAI_API_KEY: '  ' })).generatedBy).toBe('offline');
  });

  it('picks OpenAI with gpt-4o-mini by default when a key is set', async () => {
    expect(await selectLlm({ OPENAI_API_KEY: 'sk-test' })).toMatchObject({ generatedBy: 'openai', model: 'gpt-4o-mini' });
  });

  it('uses OPENAI_MODEL when set', async () => {
    expect((await selectLlm({ OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'llama3.1' })).model).toBe('llama3.1');
  });
});
