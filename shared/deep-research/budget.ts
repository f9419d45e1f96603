/**
 * Time a research job may spend on content analysis before it completes
 * with the search results alone (and a warning). With the LLM policy's
 * 56 s deadline per call and calls run 4 at once, 180 s lets a full basic
 * analysis (100 results: 10 calls, 3 rounds) finish even when every call
 * runs to its deadline; the research worker's timeout (job-types.ts) is
 * this plus the search's worst case.
 */
export const ANALYSIS_BUDGET_MS = 180_000;

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
