import type * as z from 'zod/mini';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Who wrote a result: a real model, or the deterministic offline writer. */
export type GeneratedBy = 'openai' | 'offline';

/** One request for a JSON answer that must match `schema`. */
export interface JsonCompletionRequest<T> {
  /** Name of the schema sent to the provider (letters, digits, `_`). */
  schemaName: string;
  /** The answer's shape, a zod schema of either flavour; sent as a strict JSON schema and checked again on receipt. */
  schema: z.core.$ZodType<T>;
  messages: ChatMessage[];
  /**
   * The deterministic writer the offline client uses instead of a model: it
   * must build a real answer from the same data the messages carry.
   */
  offline: () => T;
  /** Upper bound on the answer's length in tokens. */
  maxTokens?: number;
}

export interface JsonCompletion<T> {
  value: T;
  generatedBy: GeneratedBy;
  model: string;
}

/**
 * Port: a language model that answers with JSON of a given shape. Retries of
 * transient provider errors happen inside the adapter (one layer only);
 * callers see one of the LlmError subclasses below.
 */
export interface LlmClient {
  readonly generatedBy: GeneratedBy;
  readonly model: string;
  completeJson<T>(request: JsonCompletionRequest<T>): Promise<JsonCompletion<T>>;
}

/** One request for a plain-text answer, streamed as the model writes it. */
export interface TextStreamRequest {
  messages: ChatMessage[];
  /**
   * Tools the model may call beside its text, by name, each with what it is for. They take no arguments: a call
   * is a decision (for example `end_call`), read at the end of the stream, so it never holds back the text.
   */
  tools?: Readonly<Record<string, string>>;
  /** Upper bound on the answer's length in tokens. */
  maxTokens?: number;
  /** The deterministic writer the offline client streams instead of a model: the text and the tools it calls. */
  offline: () => { text: string; toolCalls: readonly string[] };
  /** Stops the stream (its reader no longer wants the rest). */
  signal?: AbortSignal;
}

/** A piece of a streamed answer: text as it arrives, then the tools the model called. */
export type TextStreamPart = { type: 'text'; text: string } | { type: 'tool_call'; name: string };

/**
 * Port: a language model that can also stream plain text. The stream throws
 * an LlmError (at the start or midway) when the model fails; retries happen
 * only before the first part, inside the adapter.
 */
export interface StreamingLlmClient extends LlmClient {
  streamText(request: TextStreamRequest): AsyncIterable<TextStreamPart>;
}

/** Base of every failure an LlmClient reports. Messages never carry keys or prompts. */
export class LlmError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LlmError';
  }
}

/** The model answered, but not with usable JSON of the shape asked (malformed, cut off, wrong shape). A repair call may help. */
export class LlmOutputError extends LlmError {
  constructor(
    message: string,
    /** The raw text the model produced, for a repair prompt. */
    readonly rawOutput: string,
  ) {
    super(message);
    this.name = 'LlmOutputError';
  }
}

/** The model declined to answer (`refusal`, or content filter). */
export class LlmRefusalError extends LlmError {
  constructor(message: string) {
    super(message);
    this.name = 'LlmRefusalError';
  }
}

/** The provider could not be reached or kept failing after the retries (5xx, 429, timeout, quota, auth). */
export class LlmUnavailableError extends LlmError {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'LlmUnavailableError';
  }
}
