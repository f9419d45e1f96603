import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';

/** The context's legacy callbacks do nothing locally; one function serves every invocation. */
const ignore = () => undefined;

/** A Lambda context for one local invocation, with the function's real timeout. */
export function lambdaContext(functionName: string, timeoutSeconds: number): Context {
  const deadline = Date.now() + timeoutSeconds * 1000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: ignore,
    fail: ignore,
    succeed: ignore,
  };
}
