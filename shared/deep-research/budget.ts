import { llmCallDeadlineMs, resolveLlmRetryPolicy } from '../providers/llm/policy';
import { PAGE_READ_TIMEOUT_MS } from '../providers/web/read-timeout';

/**
 * How long a research job's content analysis may run, in two bounds:
 * - no page read or LLM call starts later than ANALYSIS_NEW_WORK_MS after
 *   the analysis began (the results left get the offline analysis);
 * - the calls already running end within one page timeout (5 s) and one
 *   LLM call deadline (56 s, the LLM policy's) after that: ANALYSIS_BUDGET_MS,
 *   past which the results are given without analysis (a safety net that
 *   the first bound keeps from firing).
 * The research worker's timeout (catalogue.ts, beside this file) is this
 * budget plus the search chain's worst case (test/unit/deep-research/budget.test.ts).
 */
export const ANALYSIS_NEW_WORK_MS = 120_000;

export const ANALYSIS_BUDGET_MS = ANALYSIS_NEW_WORK_MS + PAGE_READ_TIMEOUT_MS + llmCallDeadlineMs(resolveLlmRetryPolicy());

/** Thrown when content analysis outlives its budget. */
export class AnalysisBudgetError extends Error {
  constructor(budgetMs: number) {
    super(`Content analysis did not finish within ${Math.round(budgetMs / 1000)} s`);
    this.name = 'AnalysisBudgetError';
  }
}

/** Resolves as `work` does, or rejects with AnalysisBudgetError once `budgetMs` has passed (the timer never outlives the race). */
export async function withinBudget<T>(work: Promise<T>, budgetMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AnalysisBudgetError(budgetMs)), budgetMs);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
