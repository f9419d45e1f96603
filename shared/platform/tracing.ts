/**
 * X-Ray tracing is loaded only where it can trace (in Lambda, with tracing
 * on); tests and `npm start` never load it. A function deployed with
 * tracing off is bundled with the setting as a constant
 * (infra/constructs/bundle-options.ts, `bundleDefines`), so this test folds
 * to false and the tracing modules are not even in its bundle: keep the
 * setting first.
 */
const xray =
  process.env.POWERTOOLS_TRACE_ENABLED !== 'false' && process.env.AWS_LAMBDA_FUNCTION_NAME ? await import('./xray/tracing') : undefined;

/**
 * Port: traces. In Lambda (active tracing) each AWS SDK call and each
 * provider call is a subsegment of the invocation, annotated with the
 * command it served, and, where outgoing HTTPS is captured, each request
 * to a provider (model, search, Twilio, a webhook endpoint) is one too;
 * anywhere else (tests, `npm start`) nothing is traced.
 */
export interface Tracing {
  /** Traces every call an AWS SDK v3 client makes; returns the client. */
  captureClient<Client>(client: Client): Client;
  /** Runs `work` in a subsegment named `name`, with searchable annotations. */
  span<T>(name: string, annotations: Readonly<Record<string, string>>, work: () => Promise<T>): Promise<T>;
}

/** Traces nothing. */
export const noTracing: Tracing = {
  captureClient: (client) => client,
  span: (_name, _annotations, work) => work(),
};

/** What a function's tracing records besides its AWS SDK calls and spans. */
export interface TracingOptions {
  /**
   * Every outgoing HTTP(S) request as a subsegment named after its host:
   * the `http`/`https` modules (so clients built on them, such as Twilio's)
   * and `fetch` (undici's diagnostics channels: the model and search
   * clients). Off for functions that call no provider: their only requests
   * are the AWS SDK's, already traced by `captureClient`.
   */
  readonly captureHttps: boolean;
}

/** X-Ray tracing for one function (shared/platform/xray); nothing where it is not loaded. */
export function lambdaTracing(options: TracingOptions): Tracing {
  return xray ? xray.xrayTracing(options) : noTracing;
}
