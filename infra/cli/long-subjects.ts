import { execFileSync } from 'node:child_process';

/** The longest commit subject the project keeps: the why goes in the body. */
export const MAX_SUBJECT_LENGTH = 72;

/**
 * The last commit before subjects were held to MAX_SUBJECT_LENGTH: the
 * history before it is left as it was written.
 */
export const SUBJECT_RULE_BASE = '9a24df43536163112c5178b14f7e115f7a375519';

export interface LongSubject {
  hash: string;
  subject: string;
}

/**
 * The commits in `range` (a git revision range, merges included) whose
 * subject is longer than `max` characters, newest first. Throws when git
 * cannot resolve the range (for instance a shallow clone without its base).
 */
export function longCommitSubjects(range: string, options: { cwd?: string; max?: number } = {}): LongSubject[] {
  const max = options.max ?? MAX_SUBJECT_LENGTH;
  const log = execFileSync('git', ['log', '--format=%h%x09%s', range, '--'], {
    cwd: options.cwd ?? process.cwd(),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return log
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const tab = line.indexOf('\t');
      return { hash: line.slice(0, tab), subject: line.slice(tab + 1) };
    })
    .filter(({ subject }) => [...subject].length > max);
}
