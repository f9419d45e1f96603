/** The trace an invocation belongs to, as Lambda hands it over in its `X-Amzn-Trace-Id` header. */
export interface TraceContext {
  /** `1-<8 hex seconds>-<24 hex>`. */
  readonly traceId: string;
  /** The segment a subsegment recorded now hangs under (Lambda's function segment). */
  readonly parentId: string;
  /** False when Lambda decided not to record this invocation: nothing is sent. */
  readonly sampled: boolean;
}

const TRACE_ID = /^1-[0-9a-f]{8}-[0-9a-f]{24}$/;
const SEGMENT_ID = /^[0-9a-f]{16}$/;

/** Reads `Root=…;Parent=…;Sampled=1` (any order, other keys ignored); undefined unless both ids are well formed. */
export function parseTraceHeader(header: string | undefined): TraceContext | undefined {
  if (!header) return undefined;
  const fields = new Map<string, string>();
  for (const part of header.split(';')) {
    const equals = part.indexOf('=');
    if (equals > 0) fields.set(part.slice(0, equals).trim(), part.slice(equals + 1).trim());
  }
  const traceId = fields.get('Root');
  const parentId = fields.get('Parent');
  if (!traceId || !TRACE_ID.test(traceId) || !parentId || !SEGMENT_ID.test(parentId)) return undefined;
  return { traceId, parentId, sampled: fields.get('Sampled') === '1' };
}

/** The header an outgoing call carries so the service it calls joins the trace under `parentId`. */
export function formatTraceHeader(trace: Pick<TraceContext, 'traceId' | 'sampled'>, parentId: string): string {
  return `Root=${trace.traceId};Parent=${parentId};Sampled=${trace.sampled ? '1' : '0'}`;
}

interface LambdaGlobal {
  awslambda?: { InvokeStore?: { getXRayTraceId?: () => string | undefined } };
}

/**
 * The current invocation's trace header: the Node.js runtime keeps it in its
 * invoke store (where one invocation at a time is not a given) and in
 * `_X_AMZN_TRACE_ID`, which it rewrites at each invocation.
 */
export function lambdaTraceHeader(): string | undefined {
  return (globalThis as LambdaGlobal).awslambda?.InvokeStore?.getXRayTraceId?.() ?? process.env._X_AMZN_TRACE_ID;
}
