/**
 * The Powertools Tracer is loaded only where it can trace (in Lambda, with
 * tracing on): the X-Ray SDK under it installs async hooks when imported,
 * which tax every promise of the process. Tests and `npm start` never load it.
 * A function deployed with tracing off is bundled with the setting as a
 * constant (infra/constructs/bundle-options.ts, `bundleDefines`), so this
 * test folds to false and the tracer is not even in its bundle: keep the
 * setting first.
 */
const Tracer =
  process.env.POWERTOOLS_TRACE_ENABLED !== 'false' && process.env.AWS_LAMBDA_FUNCTION_NAME
    ? (await import('@aws-lambda-powertools/tracer')).Tracer
    : undefined;

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

/** What a function's tracer records besides its AWS SDK calls and spans. */
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

/** The Powertools Tracer's options for a function (its service name on the traces, and whether outgoing HTTPS is captured). */
export function tracerOptions(serviceName: string, options: TracingOptions): { serviceName: string; captureHTTPsRequests: boolean } {
  return { serviceName, captureHTTPsRequests: options.captureHttps };
}

/** Tracing through the Powertools Tracer (X-Ray), for one function; nothing where the tracer is not loaded. */
export function powertoolsTracing(serviceName: string, options: TracingOptions): Tracing {
  if (!Tracer) return noTracing;
  const tracer = new Tracer(tracerOptions(serviceName, options));
  if (!tracer.isTracingEnabled()) return noTracing;
  return {
    captureClient: (client) => tracer.captureAWSv3Client(client) ?? client,
    async span(name, annotations, work) {
      const parent = tracer.getSegment();
      if (!parent) return work();
      const subsegment = parent.addNewSubsegment(name);
      tracer.setSegment(subsegment);
      for (const [key, value] of Object.entries(annotations)) subsegment.addAnnotation(key, value);
      try {
        return await work();
      } catch (error) {
        if (error instanceof Error) subsegment.addError(error);
        throw error;
      } finally {
        subsegment.close();
        tracer.setSegment(parent);
      }
    },
  };
}
