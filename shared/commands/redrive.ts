import { DeleteMessageBatchCommand, ReceiveMessageCommand, SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';

export interface RedriveOptions {
  /** The dead-letter queue to empty. */
  from: string;
  /** The work queue its jobs go back to. */
  to: string;
  /** Stop after this many messages. @default no limit */
  max?: number;
}

/**
 * Use case: puts the jobs of a dead-letter queue back on their work queue
 * (after the cause was fixed), each sent before it is deleted, so a failure
 * half way loses nothing: at worst a job is on both queues, and workers run
 * a command's job only once. Returns how many were moved.
 */
export async function redriveDeadLetters(sqs: SQSClient, options: RedriveOptions): Promise<number> {
  let moved = 0;
  const max = options.max ?? Number.POSITIVE_INFINITY;
  while (moved < max) {
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: options.from,
        MaxNumberOfMessages: Math.min(10, max - moved),
        WaitTimeSeconds: 0,
        VisibilityTimeout: 60,
      }),
    );
    const batch = [...new Map(Messages.map((message) => [message.MessageId, message])).values()];
    if (batch.length === 0) return moved;
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
    moved += done.length;
    if (done.length < batch.length) throw new Error(`${batch.length - done.length} job(s) could not be sent back; they stay on the dead-letter queue`);
  }
  return moved;
}
