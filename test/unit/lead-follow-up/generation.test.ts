import { z } from 'zod';
import { generateChecked } from '../../../shared/lead-follow-up/generation';
import { AppError } from '../../../shared/platform/errors';
import { LlmOutputError, LlmRefusalError, LlmUnavailableError, type JsonCompletionRequest } from '../../../shared/providers/llm/port';
import { scriptedLlm } from './fixtures';

const schema = z.object({ text: z.string() });
type Answer = z.infer<typeof schema>;

const request: JsonCompletionRequest<Answer> = {
  schemaName: 'answer',
  schema,
  messages: [
    { role: 'system', content: 'Write one sentence.' },
    { role: 'user', content: 'About Trailhead Rentals.' },
  ],
  offline: () => ({ text: 'Offline sentence about Trailhead Rentals.' }),
};

const noPlaceholders = (value: Answer) =>
  value.text.includes('[') ? [{ code: 'placeholder', message: 'contains [Name]', path: ['text'] }] : [];

async function appError(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('generateChecked', () => {
  it('returns a good first answer after one call', async () => {
    const llm = scriptedLlm([{ value: { text: 'Hello Jordan.' } }]);

    const answer = await generateChecked(llm.client, request, noPlaceholders);

    expect(answer).toEqual({ value: { text: 'Hello Jordan.' }, generatedBy: 'openai', model: 'scripted-model', calls: 1 });
    expect(llm.requests).toHaveLength(1);
  });

  it('repairs an answer that fails the checks once, naming the problem and echoing the answer', async () => {
    const llm = scriptedLlm([{ value: { text: 'Hello [Name].' } }, { value: { text: 'Hello Jordan.' } }]);

    const answer = await generateChecked(llm.client, request, noPlaceholders);

    expect(answer.calls).toBe(2);
    const repair = llm.requests[1]!.messages;
    expect(repair.slice(0, 2)).toEqual(request.messages);
    expect(repair[2]).toEqual({ role: 'assistant', content: '{"text":"Hello [Name]."}' });
    expect(repair[3]?.content).toContain('text: contains [Name]');
  });

  it('repairs malformed JSON, echoing the raw output', async () => {
    const llm = scriptedLlm([
      { error: new LlmOutputError('OpenAI answer is not JSON', '{"text": "Hel') },
      { value: { text: 'Hello Jordan.' } },
    ]);

    await expect(generateChecked(llm.client, request, noPlaceholders)).resolves.toMatchObject({ calls: 2 });
    expect(llm.requests[1]!.messages[2]).toEqual({ role: 'assistant', content: '{"text": "Hel' });
  });

  it('repairs a refusal', async () => {
    const llm = scriptedLlm([{ error: new LlmRefusalError('declined') }, { value: { text: 'Hello Jordan.' } }]);

    await expect(generateChecked(llm.client, request, noPlaceholders)).resolves.toMatchObject({
      value: { text: 'Hello Jordan.' },
      calls: 2,
    });
    expect(llm.requests[1]!.messages.at(-1)?.content).toContain('declined to answer');
  });

  it('gives up with NO_CONTENT_GENERATED after one failed repair', async () => {
    const llm = scriptedLlm([{ value: { text: 'Hello [Name].' } }, { value: { text: 'Hi [Name]!' } }, { value: { text: 'never asked' } }]);

    const error = await appError(generateChecked(llm.client, request, noPlaceholders));

    expect(error.code).toBe('NO_CONTENT_GENERATED');
    expect(error.details).toEqual([{ code: 'placeholder', message: 'contains [Name]', path: ['text'] }]);
    expect(llm.requests).toHaveLength(2);
  });

  it('gives up with NO_CONTENT_GENERATED when the repair is refused too', async () => {
    const llm = scriptedLlm([{ error: new LlmRefusalError('no') }, { error: new LlmRefusalError('still no') }]);
    expect((await appError(generateChecked(llm.client, request, noPlaceholders))).code).toBe('NO_CONTENT_GENERATED');
  });

  it.each([
    ['on the first call', [{ error: new LlmUnavailableError('OpenAI answered 500 server_error after 3 attempts', 500) }]],
    ['on the repair call', [{ value: { text: '[x]' } }, { error: new LlmUnavailableError('OpenAI answered 429 after 3 attempts', 429) }]],
  ])('reports an unavailable provider %s as SALES_COMMAND_FAILED', async (_when, script) => {
    const llm = scriptedLlm(script);
    const error = await appError(generateChecked(llm.client, request, noPlaceholders));
    expect(error.code).toBe('SALES_COMMAND_FAILED');
    expect(error.message).toContain('after 3 attempts');
  });
});
