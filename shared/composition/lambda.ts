import type { Settings } from './settings';

/**
 * A function module's `handler`. In Lambda (`AWS_LAMBDA_FUNCTION_NAME` is
 * set) the function is composed from `process.env` at once, during the
 * cold start, so a missing setting fails it with its name; anywhere else
 * (tests, a worker process) it is composed on first use. The local runtime
 * does not use it: it calls the module's `build` with its own settings.
 */
export function lambdaEntry<Handler extends (...args: never[]) => unknown>(build: (settings: Settings) => Handler): Handler {
  let built: Handler | undefined = process.env.AWS_LAMBDA_FUNCTION_NAME ? build(process.env) : undefined;
  return ((...args: Parameters<Handler>) => {
    built ??= build(process.env);
    return built(...args);
  }) as Handler;
}
