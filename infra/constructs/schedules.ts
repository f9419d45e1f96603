import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { FunctionDefinition } from '../../shared/catalogue/functions';
import { DEAD_LETTER_RETENTION } from './job-queue';

/** Times EventBridge tries again to hand a scheduled event to its function (throttled, Lambda unavailable) before dead-lettering it. */
export const SCHEDULE_RETRY_ATTEMPTS = 3;

/** Props of {@link Schedules}. */
export interface SchedulesProps {
  /** Every `scheduled` function with its definition (`scheduleMinutes`). */
  readonly functions: readonly { readonly definition: FunctionDefinition; readonly function: IFunction }[];
  /**
   * Fate of the dead-letter queue (and the events in it) when it leaves the stack.
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
}

/**
 * One EventBridge rule per scheduled function, every `scheduleMinutes`,
 * whose target retries delivery (SCHEDULE_RETRY_ATTEMPTS, for as long as
 * the interval: an older event is superseded by the next run) and then
 * parks the event in one dead-letter queue, encrypted (SQS-managed SSE) and
 * TLS-only, kept 14 days. The ScheduleDeadLetters alarm watches it.
 */
export class Schedules extends Construct {
  readonly deadLetterQueue: Queue;
  readonly rules: Rule[] = [];

  constructor(scope: Construct, id: string, props: SchedulesProps) {
    super(scope, id);
    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: DEAD_LETTER_RETENTION,
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
    });
    for (const [rule, reason] of [
      [
        'AwsSolutions-SQS3',
        'It is a dead-letter queue: that of the schedules’ EventBridge targets (cdk-nag recognizes only queues’ redrive policies).',
      ],
      [
        'Serverless-SQSRedrivePolicy',
        'It is a dead-letter queue itself; its events are read by hand, and an alarm fires while any is there.',
      ],
    ] as const) {
      Validations.of(this.deadLetterQueue).acknowledge({ id: rule, reason });
    }
    for (const { definition, function: fn } of props.functions) {
      if (definition.kind !== 'scheduled' || !definition.scheduleMinutes) {
        throw new Error(`shared/catalogue: scheduled function ${definition.id} needs kind scheduled and scheduleMinutes`);
      }
      const interval = Duration.minutes(definition.scheduleMinutes);
      this.rules.push(
        new Rule(scope, `${definition.id}Schedule`, {
          description: `Runs ${definition.id} every ${definition.scheduleMinutes} minutes`,
          schedule: Schedule.rate(interval),
          targets: [
            new LambdaFunction(fn, {
              retryAttempts: SCHEDULE_RETRY_ATTEMPTS,
              maxEventAge: interval,
              deadLetterQueue: this.deadLetterQueue,
            }),
          ],
        }),
      );
    }
  }
}
