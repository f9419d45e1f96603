import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { recordUsage } from '../../usage/meter';
import { modelTokens } from '../../usage/usage';
import * as z from 'zod/mini';
import { guardedFetch, type AttemptLog } from './openai-fetch';
import { llmCallDeadlineMs, resolveLlmRetryPolicy, type LlmRetryPolicy } from './policy';
import {
  LlmOutputError,
  LlmRefusalError,
  LlmError,
  LlmUnavailableError,
  type JsonCompletion,
  type JsonCompletionRequest,
  type StreamingLlmClient,
  type TextStreamPart,
  type TextStreamRequest,
} from './port';
import { toStrictJsonSchema } from './strict-schema';

/** Settings of the OpenAI adapter (see `OPENAI_*` in docs/configuration.md). */
export interface OpenAiLlmSettings {
  apiKey: string;
  /**
   * Root of any OpenAI-compatible server, path prefix included.
   * @default 'https://api.openai.com/v1'
   */
  baseUrl?: string;
  model: string;
}

const openAiBaseUrl = 'https://api.openai.com/v1';

/**
 * LlmClient on OpenAI chat completions with strict structured output, and
 * streamed plain text (`stream: true`: server-sent `chat.completion.chunk`s,
 * text in `delta.content`, tool calls in `delta.tool_calls`). The openai
 * library does the retrying (the one retry layer), bounded by the policy; a
 * stream is retried only until its answer starts. Every failure comes out
 * as an LlmError whose message names status and code but never the key, the
 * request or the prompt.
 */
export function createOpenAiLlm(settings: OpenAiLlmSettings, policy: Partial<LlmRetryPolicy> = {}): StreamingLlmClient {
  const resolved = resolveLlmRetryPolicy(policy);
  const client = new OpenAI({
    apiKey: settings.apiKey,
    baseURL: settings.baseUrl ?? openAiBaseUrl,
    maxRetries: resolved.maxRetries,
    timeout: resolved.timeoutMs,
  });

  return {
    generatedBy: 'openai',
    model: settings.model,
    async completeJson<T>(request: JsonCompletionRequest<T>): Promise<JsonCompletion<T>> {
      const log: AttemptLog = { attempts: 0, lastTimedOut: false };
      const perCall = client.withOptions({ fetch: guardedFetch(resolved.maxRetryWaitMs, log) });
      const deadline = AbortSignal.timeout(llmCallDeadlineMs(resolved));
      let completion: ChatCompletion;
      try {
        completion = await perCall.chat.completions.create(
          {
            model: settings.model,
            messages: request.messages,
            response_format: {
              type: 'json_schema',
              json_schema: { name: request.schemaName, strict: true, schema: toStrictJsonSchema(request.schema) },
            },
            ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
          },
          { signal: deadline },
        );
      } catch (error) {
        throw unavailable(error, log, resolved.timeoutMs, deadline.aborted);
      }
      // Counted before the answer is read: the tokens were spent even when the answer is of no use.
      recordTokensOf(completion, settings.model);
      return { value: readAnswer(completion, request.schema), generatedBy: 'openai', model: settings.model };
    },

    async *streamText(request: TextStreamRequest): AsyncIterable<TextStreamPart> {
      const log: AttemptLog = { attempts: 0, lastTimedOut: false };
      const perCall = client.withOptions({ fetch: guardedFetch(resolved.maxRetryWaitMs, log) });
      const deadline = AbortSignal.timeout(llmCallDeadlineMs(resolved));
      const signal = request.signal ? AbortSignal.any([deadline, request.signal]) : deadline;
      const tools = Object.entries(request.tools ?? {}).map(([name, description]) => toolOf(name, description));
      let stream: AsyncIterable<ChatCompletionChunk>;
      try {
        stream = await perCall.chat.completions.create(
          {
            model: settings.model,
            messages: request.messages,
            stream: true,
            // The last chunk then carries the whole request's token usage (its `choices` empty).
            stream_options: { include_usage: true },
            ...(tools.length > 0 ? { tools, tool_choice: 'auto' as const } : {}),
            ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
          },
          { signal },
        );
      } catch (error) {
        throw unavailable(error, log, resolved.timeoutMs, deadline.aborted);
      }
      // A tool call's name comes in its first fragment; its (empty) arguments may follow in later ones.
      const called = new Map<number, string>();
      try {
        for await (const chunk of stream) {
          recordTokensOf(chunk, settings.model);
          const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
          if (!choice) continue;
          if (choice.delta?.refusal) throw new LlmRefusalError('OpenAI declined to answer (refusal)');
          if (choice.delta?.content) yield { type: 'text', text: choice.delta.content };
          for (const call of choice.delta?.tool_calls ?? []) if (call.function?.name) called.set(call.index, call.function.name);
          if (choice.finish_reason === 'content_filter')
            throw new LlmRefusalError('OpenAI declined to answer (finish_reason content_filter)');
        }
      } catch (error) {
        if (error instanceof LlmError) throw error;
        throw unavailable(error, log, resolved.timeoutMs, deadline.aborted);
      }
      for (const name of called.values()) yield { type: 'tool_call', name };
    },
  };
}

/**
 * Adds the tokens an answer (or a stream's last chunk) reports to the usage of the job it runs for, under the model the
 * answer names (else the one asked for). Chunks without usage add nothing.
 */
function recordTokensOf(answer: { usage?: CompletionUsage | null; model?: string } | null | undefined, asked: string): void {
  const usage = answer?.usage;
  if (!usage) return;
  const model = typeof answer.model === 'string' && answer.model ? answer.model : asked;
  recordUsage(modelTokens(model, Number(usage.prompt_tokens) || 0, Number(usage.completion_tokens) || 0));
}

/** A tool without arguments (strict: the model may send none). */
function toolOf(name: string, description: string): ChatCompletionTool {
  return {
    type: 'function',
    function: {
      name,
      description,
      strict: true,
      parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
    },
  };
}

function readAnswer<T>(completion: ChatCompletion, schema: z.core.$ZodType<T>): T {
  const choices: unknown = typeof completion === 'object' && completion !== null ? completion.choices : undefined;
  const choice = Array.isArray(choices) ? (choices[0] as ChatCompletion.Choice | undefined) : undefined;
  if (choice?.message === undefined) throw new LlmUnavailableError('OpenAI sent an answer that is not a chat completion');
  if (choice.message.refusal != null) throw new LlmRefusalError('OpenAI declined to answer (refusal)');
  if (choice.finish_reason === 'content_filter') {
    throw new LlmRefusalError('OpenAI declined to answer (finish_reason content_filter)');
  }
  const raw = choice.message.content ?? '';
  if (choice.finish_reason === 'length') {
    throw new LlmOutputError('OpenAI answer was cut off at the token limit (finish_reason length)', raw);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new LlmOutputError('OpenAI answer is not JSON', raw);
  }
  const parsed = z.safeParse(schema, json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new LlmOutputError(`OpenAI answer does not match the schema: ${problems.join('; ')}`, raw);
  }
  return parsed.data;
}

function unavailable(
  error: unknown,
  { attempts, lastTimedOut }: AttemptLog,
  timeoutMs: number,
  pastDeadline: boolean,
): LlmUnavailableError {
  const tries = `after ${attempts} attempt${attempts === 1 ? '' : 's'}`;
  if (pastDeadline || error instanceof APIUserAbortError) {
    return new LlmUnavailableError(`OpenAI call ran past its deadline ${tries}`);
  }
  if (error instanceof APIConnectionTimeoutError || (error instanceof APIConnectionError && lastTimedOut)) {
    return new LlmUnavailableError(`OpenAI did not answer within ${timeoutMs} ms ${tries}`);
  }
  if (error instanceof APIConnectionError) {
    return new LlmUnavailableError(`OpenAI could not be reached ${tries}`);
  }
  if (error instanceof APIError) {
    const code = error.code ?? error.type ?? 'error';
    return new LlmUnavailableError(`OpenAI answered ${error.status} ${code} ${tries}`, error.status);
  }
  if (error instanceof SyntaxError) {
    return new LlmUnavailableError(`OpenAI sent a body that is not JSON ${tries}`);
  }
  const name = error instanceof Error ? error.name : typeof error;
  return new LlmUnavailableError(`OpenAI call failed (${name}) ${tries}`);
}
