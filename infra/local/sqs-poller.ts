import { DeleteMessageBatchCommand, ReceiveMessageCommand, type Message, type SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { lambdaContext } from './lambda-context';
import type { QueueActivity } from './queue-news';

/** A worker module's `handler`, as Lambda's SQS event source invokes it. */
export type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

/** One queue, its worker and how Lambda would feed it. */
export interface PollerOptions {
  /** What the queue is called in messages to the user. @default functionName */
  name?: string;
  sqs: SQSClient;
  queueUrl: string;
  queueArn: string;
  region: string;
  functionName: string;
  timeoutSeconds: number;
  batchSize: number;
  /** Batches handled at once (Lambda's maximum concurrency for the event source). */
  concurrency: number;
  handler: SqsHandler;
  /** Called with errors of the poller itself (not of the handler). */
  onError?: (error: unknown) => void;
  /**
   * Tells the poller when messages may have arrived (the embedded SQS's
   * {@link QueueActivity}): an idle poller then receives at once, and between
   * such news polls only every {@link IDLE_PAUSE_MS}`.quiet`, for what no
   * request announces (a visibility timeout or a delay running out). Without
   * it the poller polls every {@link IDLE_PAUSE_MS}`.max` when idle.
   */
  activity?: QueueActivity;
  /** The longest idle pause when arrivals are announced. @default IDLE_PAUSE_MS.quiet */
  quietPauseMs?: number;
}

/** A running poller. */
export interface Poller {
  readonly name: string;
  /** Jobs (messages) in the batches being handled now. */
  inHand(): number;
  /**
   * Resolves once every loop has ended, the handlers of abandoned batches
   * included (a process exits without waiting for them; a test waits, so
   * nothing of its file runs on after it).
   */
  settled(): Promise<void>;
  /**
   * Stops receiving, then waits for the batches in hand to finish, at most
   * `graceMs`. Jobs still in hand then are abandoned: their messages stay on
   * the queue (back after the visibility timeout), and whatever their
   * handlers do later is not reported. Resolves with how many were abandoned.
   */
  stop(options?: StopPollerOptions): Promise<{ abandoned: number }>;
}

/** How long a stopping poller waits for jobs in hand. */
export interface StopPollerOptions {
  /** @default Infinity (wait for every batch in hand) */
  graceMs?: number;
}

/**
 * Pauses between empty receives: doubling from `min` to `max`, or to
 * `quiet` where arrivals are announced. Each idle receive costs both sides a
 * request (about 1 ms of CPU): two loops a queue at `max` kept an idle
 * `npm start` busy 18% of a core.
 */
export const IDLE_PAUSE_MS = { min: 10, max: 200, quiet: 1_000 } as const;

/**
 * Hands SQS batches to a worker the way Lambda's event source mapping does:
 * records in the SQS event shape, messages deleted on success, those named in
 * `batchItemFailures` (or the whole batch, if the handler throws) left to
 * reappear after the visibility timeout. Short polls, because the embedded
 * SQS's long polls can return one message twice.
 */
export function startPoller(options: PollerOptions): Poller {
  let stopping = false;
  let abandoned = false;
  const inHand = new Set<Message[]>();
  const idle = idleWait(options.activity ? (options.quietPauseMs ?? IDLE_PAUSE_MS.quiet) : IDLE_PAUSE_MS.max);
  const unsubscribe = options.activity?.(options.queueUrl, idle.wake);
  const loops = Array.from({ length: options.concurrency }, () => pollLoop());
  const jobsInHand = () => [...inHand].reduce((sum, batch) => sum + batch.length, 0);

  async function pollLoop(): Promise<void> {
    let pause: number = IDLE_PAUSE_MS.min;
    while (!stopping) {
      let messages: Message[] = [];
      const newsBefore = idle.news();
      try {
        const received = await options.sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: options.queueUrl,
            MaxNumberOfMessages: options.batchSize,
            WaitTimeSeconds: 0,
            AttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
        );
        messages = uniqueById(received.Messages ?? []);
      } catch (error) {
        if (!stopping) options.onError?.(error);
      }
      if (stopping) break;
      if (messages.length === 0) {
        const woken = await idle.wait(pause, newsBefore);
        pause = woken ? IDLE_PAUSE_MS.min : Math.min(pause * 2, idle.maxMs);
        continue;
      }
      pause = IDLE_PAUSE_MS.min;
      inHand.add(messages);
      await handleBatch(messages).finally(() => inHand.delete(messages));
    }
  }

  async function handleBatch(messages: Message[]): Promise<void> {
    const event = sqsEventOf(messages, options);
    let failed: Set<string>;
    try {
      const response = await options.handler(event, lambdaContext(options.functionName, options.timeoutSeconds));
      failed = new Set((response?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
    } catch (error) {
      if (!abandoned) options.onError?.(error);
      return;
    }
    const done = messages.filter((message) => !failed.has(message.MessageId!));
    if (done.length === 0 || abandoned) return;
    try {
      await options.sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: options.queueUrl,
          Entries: done.map((message, index) => ({ Id: String(index), ReceiptHandle: message.ReceiptHandle! })),
        }),
      );
    } catch (error) {
      if (!abandoned) options.onError?.(error);
    }
  }

  return {
    name: options.name ?? options.functionName,
    inHand: jobsInHand,
    settled: () => Promise.all(loops).then(() => undefined),
    async stop(stopOptions = {}) {
      stopping = true;
      unsubscribe?.();
      idle.wake();
      const graceMs = stopOptions.graceMs ?? Number.POSITIVE_INFINITY;
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        Promise.all(loops).then(() => true),
        ...(Number.isFinite(graceMs) ? [new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)))] : []),
      ]);
      clearTimeout(timer);
      if (finished) return { abandoned: 0 };
      abandoned = true;
      return { abandoned: jobsInHand() };
    },
  };
}

function uniqueById(messages: Message[]): Message[] {
  const seen = new Set<string>();
  return messages.filter((message) => {
    if (!message.MessageId || seen.has(message.MessageId)) return false;
    seen.add(message.MessageId);
    return true;
  });
}

/**
 * The SQS event Lambda's event source mapping would hand a worker for these
 * messages (also used by tests that drive a worker with received messages).
 */
export function sqsEventOf(messages: readonly Message[], source: { queueArn: string; region: string }): SQSEvent {
  return { Records: messages.map((message) => toRecord(message, source)) };
}

function toRecord(message: Message, options: { queueArn: string; region: string }): SQSRecord {
  const attributes = message.Attributes ?? {};
  return {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? 'local',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: Object.fromEntries(
      Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [
        name,
        { dataType: value.DataType ?? 'String', ...(value.StringValue !== undefined ? { stringValue: value.StringValue } : {}) },
      ]),
    ),
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: options.queueArn,
    awsRegion: options.region,
  };
}

/**
 * The idle pauses of a poller's loops, which news of an arrival (or a stop)
 * ends at once. News that came while a loop was receiving (`news()` moved
 * since it began) spares it the pause, so no arrival waits a whole pause.
 */
function idleWait(maxMs: number): {
  maxMs: number;
  news(): number;
  wait(ms: number, newsBefore: number): Promise<boolean>;
  wake(): void;
} {
  const waiting = new Set<(woken: boolean) => void>();
  let news = 0;
  return {
    maxMs,
    news: () => news,
    wait: (ms, newsBefore) =>
      new Promise<boolean>((resolve) => {
        if (news !== newsBefore) return resolve(true);
        const timer = setTimeout(() => done(false), ms);
        const done = (woken: boolean) => {
          clearTimeout(timer);
          waiting.delete(done);
          resolve(woken);
        };
        waiting.add(done);
      }),
    wake() {
      news += 1;
      for (const done of [...waiting]) done(true);
    },
  };
}
