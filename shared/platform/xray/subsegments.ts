import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { describeError } from '../logger';
import type { SegmentSender } from './daemon';
import { parseTraceHeader, type TraceContext } from './trace-header';
import { lazy } from '../memo';

/** What a subsegment records besides its name and times (the fields of X-Ray's segment documents). */
export interface SubsegmentFields {
  /** `aws` for an AWS SDK call, `remote` for any other outgoing request. */
  namespace?: 'aws' | 'remote';
  aws?: Readonly<Record<string, string | number>>;
  http?: {
    request?: { method: string; url: string };
    response?: { status?: number };
  };
  /** Indexed for filter expressions (`annotation.commandId = "…"`). */
  annotations?: Readonly<Record<string, string>>;
  /** A 4xx answer. */
  error?: boolean;
  /** A 5xx answer, or a failure without one. */
  fault?: boolean;
  /** Throttled (429, or the service's throttling error). */
  throttle?: boolean;
}

/** X-Ray's flags for an answer: 429 or a throttling error is `throttle` and `error`, another 4xx `error`, a 5xx `fault`. */
export function flagsOf(status: number | undefined, throttled = false): Pick<SubsegmentFields, 'error' | 'fault' | 'throttle'> {
  if (throttled || status === 429) return { throttle: true, error: true };
  if (status !== undefined && status >= 500) return { fault: true };
  if (status !== undefined && status >= 400) return { error: true };
  return {};
}

/** A subsegment being timed; `close` sends it. */
export interface OpenSubsegment {
  readonly id: string;
  readonly trace: TraceContext;
  /** Ends it now with `fields` (merged over those given at open) and, for a failure, its error's name and redacted message. */
  close(fields?: SubsegmentFields, error?: unknown): void;
}

/** Where a subsegment opened now hangs: the enclosing span's, or the invocation's segment. */
interface Frame {
  readonly trace: TraceContext;
  readonly parentId: string;
  /** Set while an AWS SDK call is under way: the HTTP request under it is that call, not one more subsegment. */
  readonly awsCall?: boolean;
}

const NAME_CHARACTERS = lazy(() => new RegExp(String.raw`[^\p{L}\p{N}\s_.:/%&#=+\\@-]`, 'gu'));
const ANNOTATION_KEY_CHARACTERS = /[^A-Za-z0-9_]/g;

/** A 64-bit id in 16 hex digits, as X-Ray wants a segment's. */
export function segmentId(): string {
  return randomBytes(8).toString('hex');
}

function seconds(): number {
  return Date.now() / 1000;
}

function annotationsOf(annotations: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(annotations)) out[key.replace(ANNOTATION_KEY_CHARACTERS, '_')] = value.slice(0, 250);
  return out;
}

/**
 * Opens and sends subsegments of the current invocation's trace, each sent
 * on its own when it closes (as X-Ray's SDKs do in Lambda), with its parent
 * taken from the async context: a span's subsegment is the parent of what
 * runs inside it.
 */
export class SubsegmentRecorder {
  private readonly frames = new AsyncLocalStorage<Frame>();

  constructor(
    private readonly sender: SegmentSender,
    private readonly traceHeader: () => string | undefined,
  ) {}

  /** The trace a subsegment opened now joins; undefined outside a sampled invocation. */
  private frame(): Frame | undefined {
    const inner = this.frames.getStore();
    if (inner) return inner;
    const trace = parseTraceHeader(this.traceHeader());
    return trace?.sampled ? { trace, parentId: trace.parentId } : undefined;
  }

  /** True while an AWS SDK call is being recorded in this async context. */
  insideAwsCall(): boolean {
    return this.frames.getStore()?.awsCall === true;
  }

  /** Starts a subsegment named `name`; undefined when nothing is recorded (no sampled trace). */
  open(name: string, fields: SubsegmentFields = {}): OpenSubsegment | undefined {
    const frame = this.frame();
    if (!frame) return undefined;
    const id = segmentId();
    const startTime = seconds();
    const sender = this.sender;
    let closed = false;
    return {
      id,
      trace: frame.trace,
      close(more = {}, error) {
        if (closed) return;
        closed = true;
        const merged = { ...fields, ...more, ...(fields.http || more.http ? { http: { ...fields.http, ...more.http } } : {}) };
        const failed = error !== undefined && !merged.error && !merged.fault && !merged.throttle;
        const failure = error === undefined ? undefined : describeError(error);
        sender.send({
          name: name.replace(NAME_CHARACTERS(), '_').slice(0, 200) || 'subsegment',
          id,
          trace_id: frame.trace.traceId,
          parent_id: frame.parentId,
          type: 'subsegment',
          start_time: startTime,
          end_time: seconds(),
          ...merged,
          ...(merged.annotations ? { annotations: annotationsOf(merged.annotations) } : {}),
          ...(failed ? { fault: true } : {}),
          ...(failure
            ? { cause: { exceptions: [{ id: segmentId(), type: failure.name.slice(0, 200), message: failure.message.slice(0, 1000) }] } }
            : {}),
        });
      },
    };
  }

  /** Runs `work` with `subsegment` as the parent of what it records. */
  within<T>(subsegment: OpenSubsegment, work: () => T, options: { awsCall?: boolean } = {}): T {
    return this.frames.run({ trace: subsegment.trace, parentId: subsegment.id, awsCall: options.awsCall }, work);
  }
}
