import { execFileSync } from 'node:child_process';

/** The longest commit subject the project keeps: the why goes in the body. */
export const MAX_SUBJECT_LENGTH = 72;

/**
 * The last commit before subjects were held to MAX_SUBJECT_LENGTH: the
 * history before it is left as it was written.
 */
export const SUBJECT_RULE_BASE = '9a24df43536163112c5178b14f7e115f7a375519';

/**
 * Commits after SUBJECT_RULE_BASE whose subjects are over the limit
 * (73–74 characters), which landed on main while the rule was checked by
 * hand only; main's history is not rewritten, so the check passes them by
 * name. `.ci/run` now runs the check, so no further one can land.
 */
export const LANDED_LONG_SUBJECTS: readonly string[] = [
  'c3efe166e27f644878746b0991a4f6a1c3676526',
  'f739e3b51de415ff7167ee3cf9dd503b89524bb9',
  '1419021836e49b6fe54d25658751fffa54f56ae7',
];

export interface LongSubject {
  hash: string;
  subject: string;
}

/**
 * The commits in `range` (a git revision range, merges included) whose
 * subject is longer than `max` characters, newest first, but those named
 * (full hashes) in `exempt`. Throws when git cannot resolve the range (for
 * instance a shallow clone without its base).
 */
export function longCommitSubjects(range: string, options: { cwd?: string; max?: number; exempt?: readonly string[] } = {}): LongSubject[] {
  const max = options.max ?? MAX_SUBJECT_LENGTH;
  const exempt = new Set(options.exempt ?? []);
  const log = execFileSync('git', ['log', '--format=%H%x09%s', range, '--'], {
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
    .filter(({ hash, subject }) => [...subject].length > max && !exempt.has(hash));
}
