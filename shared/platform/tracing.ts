/**
 * The Powertools Tracer is loaded only where it can trace (in Lambda, with
 * tracing on): the X-Ray SDK under it installs async hooks when imported,
 * which tax every promise of the process. Tests and `npm start` never load it.
 */
const Tracer =
  process.env.AWS_LAMBDA_FUNCTION_NAME && process.env.POWERTOOLS_TRACE_ENABLED !== 'false'
    ? (await import('@aws-lambda-powertools/tracer')).Tracer
    : undefined;

/**
 * Port: traces. In Lambda (active tracing) each AWS SDK call and each
 * provider call is a subsegment of the invocation, annotated with the
 * command it served; anywhere else (tests, `npm start`) nothing is traced.
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

/** Tracing through the Powertools Tracer (X-Ray), for one function; nothing where the tracer is not loaded. */
export function powertoolsTracing(serviceName: string): Tracing {
  if (!Tracer) return noTracing;
  const tracer = new Tracer({ serviceName, captureHTTPsRequests: false });
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
