import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { FUNCTIONS } from '../../shared/catalogue/functions';

/** The context's legacy callbacks do nothing locally; one function serves every invocation. */
const ignore = () => undefined;

/** Lambda's default memory, for a name the catalogue does not know. */
const DEFAULT_MEMORY_MB = 128;
/** Each catalogue function's memory, looked up once rather than at every invocation. */
const MEMORY_MB = new Map<string, number>(FUNCTIONS.map((fn) => [fn.id, fn.memoryMb]));

/** A Lambda context for one local invocation, with the function's real timeout and its catalogue memory. */
export function lambdaContext(functionName: string, timeoutSeconds: number): Context {
  const deadline = Date.now() + timeoutSeconds * 1000;
  const memoryMb = MEMORY_MB.get(functionName) ?? DEFAULT_MEMORY_MB;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: String(memoryMb),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: ignore,
    fail: ignore,
    succeed: ignore,
  };
}
