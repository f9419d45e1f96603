/** Types of test-sequencer.mjs (plain JavaScript, as jest loads it). */
import Sequencer from '@jest/test-sequencer';

/** How many files jest would run first stay ahead of those that read synthesized templates. */
export declare const DEFERRED_AFTER: number;

/** What a test file that reads synthesized templates calls. */
export declare const READS_TEMPLATES: RegExp;

/** `sorted` with the tests `readsTemplates` picks moved after the first DEFERRED_AFTER others, each group in its order. */
export declare function templatesLater<T>(sorted: T[], readsTemplates: (test: T) => boolean): T[];

export default class TemplatesLaterSequencer extends Sequencer {}
