import type { Context } from 'aws-lambda';

/** One invocation as the steps around a handler see it; a step may replace the event, the context's fields or the response. */
export interface Invocation<Event, Result, Ctx extends Context = Context> {
  event: Event;
  context: Ctx;
  /** The handler's answer (after it ran), or the one an `onError` step set. */
  response: Result | undefined;
  /** What was thrown (in `onError` steps only). */
  error: unknown;
}

/**
 * A step around a handler: `before` runs ahead of it (throw to refuse the
 * request), `after` once it answered, `onError` when anything threw (set
 * `response` to answer anyway).
 */
export interface Middleware<Event, Result, Ctx extends Context = Context> {
  before?: (invocation: Invocation<Event, Result, Ctx>) => Promise<void> | void;
  after?: (invocation: Invocation<Event, Result, Ctx>) => Promise<void> | void;
  onError?: (invocation: Invocation<Event, Result, Ctx>) => Promise<void> | void;
}

/** A Lambda handler in its promise form. */
export type LambdaHandler<Event, Result, Ctx extends Context = Context> = (event: Event, context: Ctx) => Promise<Result>;

/** How long before the function's timeout a handler still running is given up, so its error still has time to answer. */
export const TIMEOUT_MARGIN_MS = 5;

/** Thrown when a handler is still running TIMEOUT_MARGIN_MS before its function's timeout. */
export class HandlerTimeoutError extends Error {
  override readonly name = 'HandlerTimeoutError';
  constructor() {
    super('The handler did not answer before the function timed out.');
  }
}

/**
 * `handler` wrapped in `steps`, the first given the outermost: each `before`
 * in the order given, the handler, each `after` in reverse order. Anything
 * thrown (by a step or the handler) drops the response and runs each
 * `onError` in reverse order; the invocation then answers with the response
 * one of them set, or throws. When the context tells the time left (Lambda,
 * the local runtime), the handler is raced against the function's timeout
 * less TIMEOUT_MARGIN_MS and loses with HandlerTimeoutError, so a caller
 * still hears an answer rather than the platform's timeout.
 */
export function withMiddleware<Event, Result, Ctx extends Context = Context>(
  handler: LambdaHandler<Event, Result, Ctx>,
  steps: readonly Middleware<Event, Result, Ctx>[],
): LambdaHandler<Event, Result, Ctx> {
  const before = steps.flatMap((step) => (step.before ? [step.before] : []));
  const after = steps.flatMap((step) => (step.after ? [step.after] : [])).reverse();
  const onError = steps.flatMap((step) => (step.onError ? [step.onError] : [])).reverse();
  return async (event, context) => {
    const invocation: Invocation<Event, Result, Ctx> = { event, context, response: undefined, error: undefined };
    try {
      for (const step of before) await step(invocation);
      invocation.response = await beforeTimeout(handler(invocation.event, invocation.context), context);
      for (const step of after) await step(invocation);
    } catch (error) {
      invocation.response = undefined;
      invocation.error = error;
      for (const step of onError) await step(invocation);
      if (invocation.response === undefined) throw error;
    }
    return invocation.response;
  };
}

/** `work`, or HandlerTimeoutError once the context's time left, less the margin, has passed. */
async function beforeTimeout<Result>(work: Promise<Result>, context: Context): Promise<Result> {
  if (typeof context?.getRemainingTimeInMillis !== 'function') return work;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HandlerTimeoutError()), Math.max(0, context.getRemainingTimeInMillis() - TIMEOUT_MARGIN_MS));
  });
  try {
    return await Promise.race([work, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
