import * as z from 'zod/mini';
import {
  LlmOutputError,
  type JsonCompletion,
  type JsonCompletionRequest,
  type StreamingLlmClient,
  type TextStreamPart,
  type TextStreamRequest,
} from './port';
import { recordUsage } from '../../usage/meter';
import { modelTokens, OFFLINE_MODEL } from '../../usage/usage';

const offlineModel = 'offline-writer-v1';

/**
 * LlmClient used when no `OPENAI_API_KEY` is set: each request's own
 * deterministic `offline` writer builds the answer. The answer is checked
 * with the request's schema like a model's would be, so a writer that
 * drifts from its schema fails loudly (LlmOutputError) instead of passing
 * bad data on. Streamed text is the writer's text, a sentence at a time,
 * then the tools it calls.
 */
export function createOfflineLlm(): StreamingLlmClient {
  return {
    generatedBy: 'offline',
    model: offlineModel,
    async completeJson<T>(request: JsonCompletionRequest<T>): Promise<JsonCompletion<T>> {
      // No tokens, but labelled: the job's usage shows the offline writer answered.
      recordUsage(OFFLINE_TOKENS);
      const written = request.offline();
      const parsed = z.safeParse(request.schema, written);
      if (!parsed.success) {
        const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
        throw new LlmOutputError(
          `Offline writer for ${request.schemaName} produced an answer that does not match the schema: ${problems.join('; ')}`,
          JSON.stringify(written) ?? '',
        );
      }
      return { value: parsed.data, generatedBy: 'offline', model: offlineModel };
    },

    async *streamText(request: TextStreamRequest): AsyncIterable<TextStreamPart> {
      recordUsage(OFFLINE_TOKENS);
      const written = request.offline();
      for (const sentence of written.text.match(SENTENCES) ?? []) if (sentence) yield { type: 'text', text: sentence };
      for (const name of written.toolCalls) yield { type: 'tool_call', name };
    },
  };
}

/** What an offline answer costs: zero tokens, under the model name `offline`. */
const OFFLINE_TOKENS = modelTokens(OFFLINE_MODEL, 0, 0);

/** A sentence with the spaces after it (the pieces join back to the whole text). */
const SENTENCES = /[^.!?]*(?:[.!?]+|$)\s*/g;
