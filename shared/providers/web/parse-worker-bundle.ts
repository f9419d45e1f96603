/**
 * The page parse worker as a Lambda function carries it: the worker's
 * source (relative to the repository root) is bundled on its own and
 * emitted beside the function's `index.mjs` as `bundle`, where the page
 * parser looks for it.
 */
export const PAGE_PARSE_WORKER = Object.freeze({ source: 'shared/providers/web/parse-worker.ts', bundle: 'page-parse-worker.mjs' });
