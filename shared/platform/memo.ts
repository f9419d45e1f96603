/**
 * Wraps a pure builder so that each key is built once and then reused. For
 * values that are dear to build and come from a small, fixed set of inputs:
 * zod compiles a parser for each new object schema on its first parse, so a
 * schema built per job is compiled per job.
 */
export function memoize<Args extends unknown[], Result>(
  build: (...args: Args) => Result,
  keyOf: (...args: Args) => string,
): (...args: Args) => Result {
  const built = new Map<string, Result>();
  return (...args) => {
    const key = keyOf(...args);
    let result = built.get(key);
    if (result === undefined) {
      result = build(...args);
      built.set(key, result);
    }
    return result;
  };
}

/**
 * A value resolved on first use and kept for `refreshMs`, then resolved
 * again; a failed resolution is forgotten, so the next use retries it.
 * Callers share one pending resolution. For provider clients built from
 * secrets that may be filled in after deploy.
 */
export function refreshingLazy<T>(resolve: () => Promise<T>, refreshMs: number, now: () => number = Date.now): () => Promise<T> {
  let pending: Promise<T> | undefined;
  let resolvedAt = 0;
  return () => {
    if (pending && now() - resolvedAt > refreshMs) pending = undefined;
    if (!pending) {
      resolvedAt = now();
      pending = resolve().catch((error: unknown) => {
        pending = undefined;
        throw error;
      });
    }
    return pending;
  };
}

/**
 * A value resolved by its first use and then kept: callers share one pending
 * resolution, and a failed one is tried again by the next use. For a module
 * only some requests need, and what is built from it:
 * `onFirstUse(() => import('./module'))` keeps it out of the cold start.
 */
export function onFirstUse<T>(resolve: () => Promise<T>): () => Promise<T> {
  return refreshingLazy(resolve, Number.POSITIVE_INFINITY);
}

/**
 * A value built on first use and then kept. For module-level values a cold
 * start may not need and that cost to build at import: a zod schema runs a
 * good share of zod's code the first time one of its kind is built, which
 * is init time in every function that imports the module.
 */
export function lazy<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}
