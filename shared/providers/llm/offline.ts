import { LlmOutputError, type JsonCompletion, type JsonCompletionRequest, type LlmClient } from './port';

const offlineModel = 'offline-writer-v1';

/**
 * LlmClient used when no `OPENAI_API_KEY` is set: each request's own
 * deterministic `offline` writer builds the answer. The answer is checked
 * with the request's schema like a model's would be, so a writer that
 * drifts from its schema fails loudly (LlmOutputError) instead of passing
 * bad data on.
 */
export function createOfflineLlm(): LlmClient {
  return {
    generatedBy: 'offline',
    model: offlineModel,
    async completeJson<T>(request: JsonCompletionRequest<T>): Promise<JsonCompletion<T>> {
      const written = request.offline();
      const parsed = request.schema.safeParse(written);
      if (!parsed.success) {
        const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
        throw new LlmOutputError(
          `Offline writer for ${request.schemaName} produced an answer that does not match the schema: ${problems.join('; ')}`,
          JSON.stringify(written) ?? '',
        );
      }
      return { value: parsed.data, generatedBy: 'offline', model: offlineModel };
    },
  };
}
