/**
 * Loads a function's entry module (`functions/…/x.ts`, as the catalogue
 * names it) for the local runtime to compose. Run from source (tests, tsx)
 * it is imported by path; the build `npm start` runs (infra/local/local-build.mjs)
 * replaces this module with one that imports each entry's built chunk.
 */
export function importFunctionModule(entry: string): Promise<unknown> {
  return import(new URL(`../../${entry}`, import.meta.url).href);
}
