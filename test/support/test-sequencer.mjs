/**
 * jest's order (the files that failed last time, then the slowest, or the
 * largest when no time is known), with the files that read synthesized
 * templates moved after the first DEFERRED_AFTER others: by then the
 * background synth of the run (synth-cache-setup.mjs) has filled the synth
 * cache, so no worker spends its own seconds on a first synth, or waits for
 * another's.
 */
import { readFileSync } from 'node:fs';
import Sequencer from '@jest/test-sequencer';

/** About the first 40 s of a run on 2 workers, whichever order jest chose. */
export const DEFERRED_AFTER = 16;
/** What a test file that reads synthesized templates calls (test/infra/synthesize.ts, test/infra/template-json.ts). */
export const READS_TEMPLATES = /\bsynthesize(dTemplates)?\(/;

export default class TemplatesLaterSequencer extends Sequencer {
  async sort(tests) {
    return templatesLater(await super.sort(tests), (test) => READS_TEMPLATES.test(readFileSync(test.path, 'utf8')));
  }
}

/**
 * `sorted` with the tests `readsTemplates` picks moved after the first DEFERRED_AFTER others, each group in its order.
 * @template T
 * @param {T[]} sorted
 * @param {(test: T) => boolean} readsTemplates
 * @returns {T[]}
 */
export function templatesLater(sorted, readsTemplates) {
  const later = sorted.filter(readsTemplates);
  const others = sorted.filter((test) => !later.includes(test));
  return [...others.slice(0, DEFERRED_AFTER), ...later, ...others.slice(DEFERRED_AFTER)];
}
