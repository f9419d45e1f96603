import type { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import type { Middleware } from './handler-chain';

/**
 * Every log line of an invocation carries its Lambda context (request id,
 * function, cold start), and the keys a step or the handler appended during
 * it (`appendKeys`) are dropped when it ends, answered or failed, so none
 * reaches the next invocation. The event itself is never logged: it holds
 * the caller's key.
 */
export function invocationLogging<Event, Result, Ctx extends Context>(logger: Logger): Middleware<Event, Result, Ctx> {
  const reset = () => {
    logger.resetKeys();
  };
  return {
    before: ({ context }) => {
      logger.refreshSampleRateCalculation();
      logger.addContext(context);
    },
    after: reset,
    onError: reset,
  };
}
