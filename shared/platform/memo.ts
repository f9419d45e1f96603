/**
 * Wraps a pure builder so that each key is built once and then reused. For
 * values that are dear to build and come from a small, fixed set of inputs:
 * zod compiles a parser for each new object schema on its first parse, so a
 * schema built per job is compiled per job.
 */
export function memoize<Args extends unknown[], Result>(build: (...args: Args) => Result, keyOf: (...args: Args) => string): (...args: Args) => Result {
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
