import { Duration } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  TextWidget,
  TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { AlarmThresholds } from '../config';
import type { FunctionDefinition } from '../../shared/catalogue/functions';
import type { QueueDefinition } from '../../shared/catalogue/job-types';

const PERIOD = Duration.minutes(5);

/** Props of {@link Operations}. */
export interface OperationsProps {
  /** Every function, with its definition (workers get an error alarm, all a throttle alarm). */
  readonly functions: readonly { readonly definition: FunctionDefinition; readonly function: IFunction }[];
  /** Every work queue with its dead-letter queue. */
  readonly queues: readonly {
    readonly definition: QueueDefinition;
    readonly queue: IQueue;
    readonly deadLetterQueue: IQueue;
  }[];
  /** The HTTP API whose 5xx rate and p99 latency are watched. */
  readonly httpApi: IHttpApi;
  /** When each alarm fires. */
  readonly thresholds: AlarmThresholds;
  /** Prefix of the dashboard's name, e.g. `Switchboard-prod`. */
  readonly dashboardName: string;
}

/**
 * The operator's view: an SNS topic every alarm notifies (on alarm and on
 * recovery), the alarms (dead-letter depth and oldest message per queue,
 * errors per worker, throttles per function, API 5xx rate and p99
 * latency), and one dashboard. Subscribe to the topic to be told.
 */
export class Operations extends Construct {
  readonly alarmTopic: Topic;
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: OperationsProps) {
    super(scope, id);
    const { thresholds } = props;
    this.alarmTopic = new Topic(this, 'AlarmTopic', { displayName: `${props.dashboardName} alarms`, enforceSSL: true });

    const serverErrorRate = new MathExpression({
      label: 'API 5xx %',
      expression: 'IF(requests > 0, 100 * errors / requests, 0)',
      usingMetrics: {
        errors: props.httpApi.metricServerError({ statistic: 'Sum', period: PERIOD }),
        requests: props.httpApi.metricCount({ statistic: 'Sum', period: PERIOD }),
      },
      period: PERIOD,
    });
    const latencyP99 = props.httpApi.metricLatency({ statistic: 'p99', period: PERIOD });
    this.alarm('ApiServerErrorRate', serverErrorRate, thresholds.apiServerErrorRatePercent, 'API 5xx answers above this % of requests', ComparisonOperator.GREATER_THAN_THRESHOLD);
    this.alarm('ApiLatencyP99', latencyP99, thresholds.apiP99LatencyMs, 'API p99 latency (ms) near the integration timeout', ComparisonOperator.GREATER_THAN_THRESHOLD);

    for (const { definition, queue, deadLetterQueue } of props.queues) {
      this.alarm(
        `${definition.id}DeadLetters`,
        deadLetterQueue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: Duration.minutes(1) }),
        0,
        `Jobs in the ${definition.id} dead-letter queue: inspect, fix, redrive`,
        ComparisonOperator.GREATER_THAN_THRESHOLD,
      );
      this.alarm(
        `${definition.id}OldestMessage`,
        queue.metricApproximateAgeOfOldestMessage({ statistic: 'Maximum', period: PERIOD }),
        thresholds.queueOldestMessageAgeSeconds,
        `Oldest ${definition.id} job waiting longer than this (s): the worker is stuck or too slow`,
      );
    }
    for (const { definition, function: fn } of props.functions) {
      if (definition.kind !== 'api') {
        this.alarm(
          `${definition.id}Errors`,
          fn.metricErrors({ statistic: 'Sum', period: PERIOD }),
          thresholds.workerErrors,
          `${definition.id} invocations failing as a whole (crash, timeout), not single records`,
        );
      }
      this.alarm(
        `${definition.id}Throttles`,
        fn.metricThrottles({ statistic: 'Sum', period: PERIOD }),
        thresholds.functionThrottles,
        `${definition.id} throttled: reserved or account concurrency exhausted`,
      );
    }

    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: props.dashboardName,
      defaultInterval: Duration.hours(3),
    });
    this.dashboard.addWidgets(
      new TextWidget({ markdown: `# ${props.dashboardName}`, width: 24, height: 1 }),
      new AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24 }),
    );
    this.dashboard.addWidgets(
      graph('API requests', [props.httpApi.metricCount({ statistic: 'Sum', period: PERIOD })]),
      graph('API 5xx %', [serverErrorRate]),
      graph('API latency p99 (ms)', [latencyP99]),
    );
    for (const { definition, function: fn } of props.functions) {
      this.dashboard.addWidgets(
        graph(`${definition.id}: invocations, errors, throttles`, [
          fn.metricInvocations({ statistic: 'Sum', period: PERIOD }),
          fn.metricErrors({ statistic: 'Sum', period: PERIOD }),
          fn.metricThrottles({ statistic: 'Sum', period: PERIOD }),
        ]),
        graph(`${definition.id}: duration p99 (ms)`, [fn.metricDuration({ statistic: 'p99', period: PERIOD })]),
      );
    }
    for (const { definition, queue, deadLetterQueue } of props.queues) {
      this.dashboard.addWidgets(
        graph(`${definition.id} queue: visible, in flight`, [
          queue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: PERIOD }),
          queue.metricApproximateNumberOfMessagesNotVisible({ statistic: 'Maximum', period: PERIOD }),
        ]),
        graph(`${definition.id} queue: oldest message (s)`, [
          queue.metricApproximateAgeOfOldestMessage({ statistic: 'Maximum', period: PERIOD }),
        ]),
        graph(`${definition.id} dead letters`, [
          deadLetterQueue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: PERIOD }),
        ]),
      );
    }
  }

  private alarm(
    id: string,
    metric: IMetric,
    threshold: number,
    description: string,
    comparisonOperator = ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
  ): void {
    const alarm = new Alarm(this, id, {
      metric,
      threshold,
      comparisonOperator,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: description,
    });
    const action = new SnsAction(this.alarmTopic);
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
    this.alarms.push(alarm);
  }
}

function graph(title: string, metrics: IMetric[]): GraphWidget {
  return new GraphWidget({ title, left: metrics, width: 8, height: 6 });
}
