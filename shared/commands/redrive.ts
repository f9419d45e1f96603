import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  type Message,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { sha256Hex } from '../platform/hashing';

export interface RedriveOptions {
  /** The dead-letter queue to empty. */
  from: string;
  /** The work queue its jobs go back to. */
  to: string;
  /** Stop after this many messages. @default as many as the dead-letter queue held when the run began */
  max?: number;
}

/** What a run did. */
export interface RedriveReport {
  /** Jobs moved back to the work queue, each at most once. */
  moved: number;
  /**
   * Messages left on the dead-letter queue for a later run: jobs dead-lettered
   * again while this run went on, and repeats of a job it moved.
   */
  skipped: number;
}

/** How long a received dead letter stays hidden from other readers while it is being moved. */
const RECEIVE_VISIBILITY_SECONDS = 60;

/**
 * Use case: puts the jobs of a dead-letter queue back on their work queue
 * (after the cause was fixed), each sent before it is deleted, so a failure
 * half way loses nothing: at worst a job is on both queues, and workers run
 * a command's job only once.
 *
 * A run moves each job at most once, even while a job that is still bad is
 * dead-lettered again behind it: it moves no more than the queue held when
 * it began, and skips any message sent to the dead-letter queue after it
 * began (`SentTimestamp` after its start: a job dead-lettered in the very
 * millisecond the run began was there before it), or whose message id or
 * body it already moved.
 * Skipped messages are made visible again when the run ends.
 */
export async function redriveDeadLetters(sqs: SQSClient, options: RedriveOptions): Promise<RedriveReport> {
  const startedAt = Date.now();
  const budget = Math.min(options.max ?? Number.POSITIVE_INFINITY, await visibleCount(sqs, options.from));
  const movedIds = new Set<string>();
  const movedBodies = new Set<string>();
  const skipped = new Map<string, string>();
  /** Splits a batch into jobs to move and messages this run must not move (sent after it began, or already moved). */
  const sort = (batch: Message[]) => {
    const fresh: Message[] = [];
    const stale: Message[] = [];
    const bodies = new Set<string>();
    for (const message of batch) {
      const body = sha256Hex(message.Body ?? '');
      const repeat =
        Number(message.Attributes?.SentTimestamp) > startedAt ||
        movedIds.has(message.MessageId!) ||
        movedBodies.has(body) ||
        bodies.has(body);
      bodies.add(body);
      (repeat ? stale : fresh).push(message);
    }
    return { fresh, stale };
  };

  let moved = 0;
  try {
    while (moved < budget) {
      const batch = await receive(sqs, options.from, Math.min(10, budget - moved));
      if (batch.length === 0) break;
      const { fresh, stale } = sort(batch);
      const seenBefore = stale.every((message) => skipped.has(message.MessageId!));
      for (const message of stale) skipped.set(message.MessageId!, message.ReceiptHandle!);
      if (fresh.length === 0) {
        if (seenBefore) break;
        continue;
      }
      const done = await moveBatch(sqs, options, fresh);
      for (const message of done) {
        movedIds.add(message.MessageId!);
        movedBodies.add(sha256Hex(message.Body ?? ''));
      }
      moved += done.length;
      if (done.length < fresh.length)
        throw new Error(`${fresh.length - done.length} job(s) could not be sent back; they stay on the dead-letter queue`);
    }
  } finally {
    // Best effort: a skipped message becomes visible on its own when its receive visibility ends.
    await makeVisible(sqs, options.from, [...skipped.values()]).catch(() => undefined);
  }
  return { moved, skipped: skipped.size };
}

async function visibleCount(sqs: SQSClient, queueUrl: string): Promise<number> {
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['ApproximateNumberOfMessages'] }),
  );
  return Number(Attributes?.ApproximateNumberOfMessages ?? 0);
}

/** One long-polled receive (so an empty answer means an empty queue), each message once, with its SentTimestamp. */
async function receive(sqs: SQSClient, queueUrl: string, max: number): Promise<Message[]> {
  const { Messages = [] } = await sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: queueUrl,
      MaxNumberOfMessages: max,
      WaitTimeSeconds: 1,
      VisibilityTimeout: RECEIVE_VISIBILITY_SECONDS,
      // `AttributeNames` for emulators that ignore `MessageSystemAttributeNames`.
      AttributeNames: ['All'],
      MessageSystemAttributeNames: ['SentTimestamp'],
    }),
  );
  return [...new Map(Messages.map((message) => [message.MessageId, message])).values()];
}

/** Sends the messages to the work queue, then deletes those sent from the dead-letter queue; returns those moved. */
async function moveBatch(sqs: SQSClient, options: RedriveOptions, batch: Message[]): Promise<Message[]> {
  const sent = await sqs.send(
    new SendMessageBatchCommand({
      QueueUrl: options.to,
      Entries: batch.map((message, index) => ({ Id: String(index), MessageBody: message.Body ?? '' })),
    }),
  );
  const ok = new Set((sent.Successful ?? []).map((entry) => entry.Id));
  const done = batch.filter((_, index) => ok.has(String(index)));
  if (done.length > 0) {
    await sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: options.from,
        Entries: done.map((message, index) => ({ Id: String(index), ReceiptHandle: message.ReceiptHandle! })),
      }),
    );
  }
  return done;
}

async function makeVisible(sqs: SQSClient, queueUrl: string, receiptHandles: string[]): Promise<void> {
  for (let start = 0; start < receiptHandles.length; start += 10) {
    const entries = receiptHandles
      .slice(start, start + 10)
      .map((handle, index) => ({ Id: String(index), ReceiptHandle: handle, VisibilityTimeout: 0 }));
    await sqs.send(new ChangeMessageVisibilityBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
  }
}
