import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { Queue, QueueEncryption, type IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { visibilityTimeoutSeconds, type QueueDefinition } from '../../shared/catalogue/job-types';

/** How long a dead-lettered job stays inspectable: the most SQS allows. */
export const DEAD_LETTER_RETENTION = Duration.days(14);

/** Props of {@link JobQueue}. */
export interface JobQueueProps {
  /** The queue's entry in `QUEUES` (shared/catalogue/job-types.ts). */
  readonly definition: QueueDefinition;
  /**
   * Fate of the queue and its dead-letter queue (and the jobs in them) when
   * they leave the stack or the stack is replaced.
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
}

/**
 * One work queue and its dead-letter queue, both encrypted (SQS-managed
 * SSE) and TLS-only. The visibility timeout is six times the worker's
 * timeout and jobs move to the dead-letter queue after `maxReceiveCount`
 * deliveries. Both are kept (RETAIN) unless told otherwise, like the table:
 * dead-lettered jobs are data.
 */
export class JobQueue extends Construct {
  readonly definition: QueueDefinition;
  readonly queue: IQueue;
  readonly deadLetterQueue: IQueue;

  constructor(scope: Construct, id: string, props: JobQueueProps) {
    super(scope, id);
    this.definition = props.definition;
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: DEAD_LETTER_RETENTION,
      removalPolicy,
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'Serverless-SQSRedrivePolicy',
      reason: 'It is the dead-letter queue itself: its jobs are inspected and redriven by hand (npm run dlq:redrive), and alarms watch it.',
    });
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      removalPolicy,
      visibilityTimeout: Duration.seconds(visibilityTimeoutSeconds(props.definition)),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: props.definition.maxReceiveCount },
    });
  }
}
