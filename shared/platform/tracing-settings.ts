/**
 * A function's deployed settings that keep in-process tracing out of it: Lambda's
 * active tracing still records each invocation (its cold start included),
 * without the AWS SDK and provider subsegments. Every function a caller
 * waits on is deployed so unless the environment's `apiTracing` is on
 * (infra/constructs/bundle-options.ts, `asDeployed`); the phone caller's
 * path names it in its catalogue entries, so it stays off there whatever
 * the environment says: its cold start and each socket message are heard
 * as silence, and their traces were one segment with two or three
 * DynamoDB calls. Such a function is bundled without the tracing modules
 * at all (`bundleDefines`): tracing it in-process again takes a deploy.
 */
export const IN_PROCESS_TRACING_OFF: Readonly<Record<string, string>> = { POWERTOOLS_TRACE_ENABLED: 'false' };
