import { jobTypeByName } from '../../../shared/catalogue/job-types';
import { ANALYSIS_BUDGET_MS, ANALYSIS_NEW_WORK_MS, AnalysisBudgetError, withinBudget } from '../../../shared/deep-research/budget';
import { searchChainWorstCaseMs } from '../../../shared/providers/search/policy';
import { SEARCH_PROVIDER_NAMES } from '../../../shared/providers/search/providers';

describe('the research job’s time budget', () => {
  const worker = jobTypeByName('deep_research')!.worker;

  it('is the worker timeout: every provider timing out on both attempts, then analysis to its budget, with room to finish', () => {
    const search = searchChainWorstCaseMs([...SEARCH_PROVIDER_NAMES]);
    expect(search).toBe(143_000);
    expect(ANALYSIS_BUDGET_MS).toBe(181_000);
    expect(worker.timeoutSeconds).toBe(360);
    expect(worker.timeoutSeconds * 1000 - search - ANALYSIS_BUDGET_MS).toBeGreaterThanOrEqual(30_000);
  });

  it('stops starting analysis work well before the budget runs out', () => {
    expect(ANALYSIS_NEW_WORK_MS).toBeLessThan(ANALYSIS_BUDGET_MS);
  });

  it('withinBudget gives the work’s answer in time and AnalysisBudgetError after it', async () => {
    await expect(withinBudget(Promise.resolve('done'), 1_000)).resolves.toBe('done');
    await expect(withinBudget(new Promise(() => undefined), 10)).rejects.toBeInstanceOf(AnalysisBudgetError);
    await expect(withinBudget(Promise.reject(new Error('model down')), 1_000)).rejects.toThrow('model down');
  });
});
