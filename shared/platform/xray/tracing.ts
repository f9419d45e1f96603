import type { Tracing, TracingOptions } from '../tracing';
import { captureAwsClient } from './aws-sdk-calls';
import { daemonAddress, segmentSender, type DaemonAddress } from './daemon';
import { captureOutgoingHttp } from './outgoing-http';
import { SubsegmentRecorder } from './subsegments';
import { lambdaTraceHeader } from './trace-header';

/** Where X-Ray tracing sends its subsegments and how it finds the invocation's trace; Lambda's own by default. */
export interface XRayTracingOptions extends TracingOptions {
  /** @default AWS_XRAY_DAEMON_ADDRESS (Lambda sets it), else 127.0.0.1:2000 */
  readonly daemon?: DaemonAddress;
  /** @default the invocation's trace header (Lambda's invoke store, else `_X_AMZN_TRACE_ID`) */
  readonly traceHeader?: () => string | undefined;
}

/** Tracing that can be stopped (its channel subscriptions and socket), for tests. */
export interface XRayTracing extends Tracing {
  stop(): void;
}

/**
 * Tracing to X-Ray through Lambda's daemon, written against X-Ray's
 * documented segment format and daemon protocol rather than the X-Ray SDK
 * (in maintenance since February 2026, and a third of a function's cold
 * start). Each AWS SDK call, span and (with `captureHttps`) outgoing
 * request is a subsegment of the invocation's segment, sent when it ends;
 * an invocation Lambda does not sample sends nothing.
 */
export function xrayTracing(options: XRayTracingOptions): XRayTracing {
  const sender = segmentSender(options.daemon ?? daemonAddress(process.env.AWS_XRAY_DAEMON_ADDRESS));
  const recorder = new SubsegmentRecorder(sender, options.traceHeader ?? lambdaTraceHeader);
  const stopHttp = options.captureHttps ? captureOutgoingHttp(recorder) : () => undefined;
  return {
    captureClient: (client) => captureAwsClient(client, recorder),
    async span(name, annotations, work) {
      const subsegment = recorder.open(name, { annotations });
      if (!subsegment) return work();
      try {
        const result = await recorder.within(subsegment, work);
        subsegment.close();
        return result;
      } catch (error) {
        subsegment.close({}, error);
        throw error;
      }
    },
    stop() {
      stopHttp();
      sender.close();
    },
  };
}
