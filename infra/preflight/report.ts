import type { CheckResult, CheckState } from './checks';

const LABEL: Record<CheckState, string> = { pass: 'PASS', fail: 'FAIL', pending: 'PENDING', skipped: 'SKIPPED' };

/** One line per check, then the summary; ready for stdout. */
export function formatReport(title: string, results: readonly CheckResult[]): string {
  const nameWidth = Math.max(...results.map((result) => result.name.length));
  const lines = results.map((result) => `${LABEL[result.state].padEnd(8)} ${result.name.padEnd(nameWidth)}  ${result.detail}`);
  const count = (state: CheckState) => results.filter((result) => result.state === state).length;
  const summary =
    `${count('pass')} passed, ${count('fail')} failed, ${count('pending')} pending, ${count('skipped')} skipped: ` +
    (count('fail') > 0 ? 'fix the failures before deploying' : 'ready to deploy');
  return `${title}\n${lines.join('\n')}\n${summary}\n`;
}

/** Exit code of the preflight: 1 when any check failed. */
export function exitCodeOf(results: readonly CheckResult[]): number {
  return results.some((result) => result.state === 'fail') ? 1 : 0;
}
