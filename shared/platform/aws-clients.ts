/**
 * Every AWS call fails within seconds instead of hanging until the function
 * times out (the SDK sets no request timeout by default): a failure is then
 * an error the code handles, never a function killed half way through.
 */
export const AWS_REQUEST_TIMEOUTS = { connectionTimeout: 1_000, requestTimeout: 3_000, throwOnRequestTimeout: true } as const;

/** Retries of throttling and transient AWS errors, in the SDK (one layer). */
export const AWS_MAX_ATTEMPTS = 3;

/** Where an AWS client connects; anything absent comes from the SDK's own defaults (Lambda's environment). */
export interface AwsClientOptions {
  endpoint?: string;
  region?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}
