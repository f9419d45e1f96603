import { AppError } from '../platform/errors';
import {
  LlmOutputError,
  LlmRefusalError,
  LlmUnavailableError,
  type GeneratedBy,
  type JsonCompletion,
  type JsonCompletionRequest,
  type LlmClient,
} from '../providers/llm/port';
import { describeProblems, type ContentProblem } from './message-checks';
import { repairPrompt } from './prompts';

/** Checks an answer; an empty list means it can be used. */
export type AnswerCheck<T> = (value: T, generatedBy: GeneratedBy) => ContentProblem[];

/** The answer of a checked generation, with the calls it took. */
export interface CheckedCompletion<T> extends JsonCompletion<T> {
  /** 1, or 2 when a repair call was needed. */
  calls: number;
}

/**
 * Asks the model once, checks the answer, and when the answer is unusable
 * (malformed, refused, or failing the checks) asks once more with the
 * problems spelled out. Throws AppError SALES_COMMAND_FAILED when the
 * provider cannot be reached (after its own retries), NO_CONTENT_GENERATED
 * when the repaired answer is still unusable.
 */
export async function generateChecked<T>(
  llm: LlmClient,
  request: JsonCompletionRequest<T>,
  check: AnswerCheck<T>,
): Promise<CheckedCompletion<T>> {
  const first = await attempt(llm, request, check);
  if (first.ok) return { ...first.completion, calls: 1 };

  const repaired = await attempt(llm, { ...request, messages: repairPrompt(request.messages, first.previous, first.problems) }, check);
  if (repaired.ok) return { ...repaired.completion, calls: 2 };
  throw new AppError(
    'NO_CONTENT_GENERATED',
    `No usable content was generated after one repair: ${describeProblems(repaired.problems)}`,
    repaired.problems,
  );
}

type Attempt<T> = { ok: true; completion: JsonCompletion<T> } | { ok: false; problems: ContentProblem[]; previous?: string };

async function attempt<T>(llm: LlmClient, request: JsonCompletionRequest<T>, check: AnswerCheck<T>): Promise<Attempt<T>> {
  let completion: JsonCompletion<T>;
  try {
    completion = await llm.completeJson(request);
  } catch (error) {
    if (error instanceof LlmUnavailableError) {
      throw new AppError('SALES_COMMAND_FAILED', `The language model is unavailable: ${error.message}`, undefined, { cause: error });
    }
    if (error instanceof LlmOutputError) {
      return { ok: false, problems: [{ code: 'malformed_answer', message: error.message, path: [] }], previous: error.rawOutput };
    }
    if (error instanceof LlmRefusalError) {
      return { ok: false, problems: [{ code: 'refusal', message: 'the model declined to answer', path: [] }] };
    }
    throw error;
  }
  const problems = check(completion.value, completion.generatedBy);
  return problems.length === 0 ? { ok: true, completion } : { ok: false, problems, previous: JSON.stringify(completion.value) };
}
