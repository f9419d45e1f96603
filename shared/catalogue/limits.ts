import { functionById, type FunctionId } from './function-definitions';

/** Largest request body the API accepts; larger answers 413 PAYLOAD_TOO_LARGE. */
export const MAX_BODY_BYTES = 256 * 1024;

/** Longest `Prefer: wait=N` honoured anywhere (API Gateway's integration timeout is 30 s). */
export const MAX_WAIT_SECONDS = 25;

/** Time a waiting function keeps for answering after its wait ends. */
const WAIT_MARGIN_SECONDS = 4;

/** Deepest JSON document (objects and arrays nested) accepted in a body or a job. */
export const MAX_JSON_DEPTH = 64;

/**
 * The longest `Prefer: wait` a function honours: MAX_WAIT_SECONDS, and
 * always a margin below the function's own timeout, so a wait never
 * outlives the function that waits.
 */
export function maxWaitSecondsOf(functionId: FunctionId): number {
  return Math.max(0, Math.min(MAX_WAIT_SECONDS, functionById(functionId).timeoutSeconds - WAIT_MARGIN_SECONDS));
}
