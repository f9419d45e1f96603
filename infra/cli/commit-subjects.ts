import { LANDED_LONG_SUBJECTS, longCommitSubjects, MAX_SUBJECT_LENGTH, SUBJECT_RULE_BASE } from './long-subjects';

/**
 * `npm run lint:commits [-- <range>]`: fails when a commit subject in the
 * range (default: every commit since SUBJECT_RULE_BASE, less the
 * LANDED_LONG_SUBJECTS) is longer than MAX_SUBJECT_LENGTH. `.ci/run` runs
 * it when its clone has that history.
 */
const range = process.argv[2] ?? `${SUBJECT_RULE_BASE}..HEAD`;
try {
  const long = longCommitSubjects(range, process.argv[2] ? {} : { exempt: LANDED_LONG_SUBJECTS });
  for (const { hash, subject } of long) {
    process.stderr.write(`${hash.slice(0, 12)} ${[...subject].length} characters: ${subject}\n`);
  }
  if (long.length > 0) {
    process.stderr.write(
      `${long.length} commit subject(s) over ${MAX_SUBJECT_LENGTH} characters: keep the subject short, the why in the body.\n`,
    );
    process.exitCode = 1;
  }
} catch (error) {
  const detail = (error as { stderr?: string }).stderr?.trim() || (error instanceof Error ? error.message : String(error));
  process.stderr.write(`Cannot read the commits in ${range}: ${detail}\n`);
  process.exitCode = 2;
}
