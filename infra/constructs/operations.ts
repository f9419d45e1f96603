import { Duration } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { SlackChannelConfiguration } from 'aws-cdk-lib/aws-chatbot';
import { ManagedPolicy } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { AlarmSubscriptions, AlarmThresholds } from '../config';
import { isRouted, type FunctionDefinition } from '../../shared/catalogue/functions';
import type { QueueDefinition } from '../../shared/catalogue/job-types';
import { METRICS_NAMESPACE, type OperationMetric } from '../../shared/platform/metrics';

const PERIOD = Duration.minutes(5);

/** Long enough for a failure rate to mean something at low traffic. */
export const COMMAND_FAILURE_PERIOD = Duration.minutes(15);

/**
 * The metric counted when the offline writer is used (Powertools EMF,
 * dimensions `service` and `command_type`). The alarm sums it over every
 * dimension, so it holds whichever function emits it.
 */
export const OFFLINE_GENERATION_METRIC = 'OfflineGeneration';

/** The metric a worker counts when a job needs a provider whose key is not set (shared/composition/worker.ts). */
export const PROVIDER_NOT_CONFIGURED_METRIC = 'ProviderNotConfigured';

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
  /**
   * Who is told: e-mail subscriptions of the alarm topic, and a Slack channel through AWS Chatbot.
   * @default - nobody (the topic has no subscriber)
   */
  readonly subscriptions?: AlarmSubscriptions;
  /**
   * Watch the failure rate of these command types (`CommandFailed` over
   * `CommandCompleted` + `CommandFailed`, namespace Switchboard), read from
   * the metrics' `command_type`-only dimension set, so each alarm reads two
   * metrics however many functions end commands of that type.
   * @default - no command failure alarms
   */
  readonly commandFailures?: { readonly commandTypes: readonly string[] };
  /**
   * Alarm when any function writes offline copy (`OfflineGeneration`): for
   * environments whose provider keys are set, where offline copy means a
   * provider failed.
   * @default false
   */
  readonly alarmOnOfflineGeneration?: boolean;
}

/**
 * The operator's view: an SNS topic every alarm notifies (on alarm and on
 * recovery) with its e-mail and chat subscribers, the alarms (dead-letter
 * depth and oldest message per queue, errors per worker, throttles per
 * function, API 5xx rate and p99 latency, failure rate per command type,
 * offline generation where providers are configured), and one dashboard.
 */
export class Operations extends Construct {
  readonly alarmTopic: Topic;
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: OperationsProps) {
    super(scope, id);
    const { thresholds } = props;
    this.alarmTopic = new Topic(this, 'AlarmTopic', { displayName: `${props.dashboardName} alarms`, enforceSSL: true });
    for (const email of props.subscriptions?.emails ?? []) this.alarmTopic.addSubscription(new EmailSubscription(email));
    const slack = props.subscriptions?.slack;
    if (slack) {
      new SlackChannelConfiguration(this, 'SlackChannel', {
        slackChannelConfigurationName: `${props.dashboardName}-alarms`,
        slackWorkspaceId: slack.workspaceId,
        slackChannelId: slack.channelId,
        notificationTopics: [this.alarmTopic],
        // The channel only hears alarms; its role has no permissions and this caps whatever it might be given.
        guardrailPolicies: [ManagedPolicy.fromAwsManagedPolicyName('CloudWatchReadOnlyAccess')],
      });
    }

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
    this.alarm(
      'ApiServerErrorRate',
      serverErrorRate,
      thresholds.apiServerErrorRatePercent,
      'API 5xx answers above this % of requests',
      ComparisonOperator.GREATER_THAN_THRESHOLD,
    );
    this.alarm(
      'ApiLatencyP99',
      latencyP99,
      thresholds.apiP99LatencyMs,
      'API p99 latency (ms) near the integration timeout',
      ComparisonOperator.GREATER_THAN_THRESHOLD,
    );

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
      // Functions behind routes show their failures in the API's 5xx rate.
      if (!isRouted(definition)) {
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

    const commandOutcomes: IMetric[] = [];
    for (const commandType of props.commandFailures?.commandTypes ?? []) {
      // Metric ids are unique per alarm and per graph, which shows every command type.
      const prefix = camel(commandType);
      // The command_type-only dimension set (METRIC_DIMENSION_SETS): one metric per outcome, whichever function ended the command.
      const outcome = (metricName: Extract<OperationMetric, 'CommandFailed' | 'CommandCompleted'>) =>
        new Metric({
          namespace: METRICS_NAMESPACE,
          metricName,
          dimensionsMap: { command_type: commandType },
          statistic: 'Sum',
          period: COMMAND_FAILURE_PERIOD,
        });
      const failed = `FILL(${prefix}Failed, 0)`;
      const ended = `(${failed} + FILL(${prefix}Completed, 0))`;
      const rate = new MathExpression({
        label: `${commandType} commands failed %`,
        expression: `IF(${ended} >= ${thresholds.commandFailureMinimumEnded}, 100 * ${failed} / ${ended}, 0)`,
        usingMetrics: { [`${prefix}Failed`]: outcome('CommandFailed'), [`${prefix}Completed`]: outcome('CommandCompleted') },
        period: COMMAND_FAILURE_PERIOD,
      });
      this.alarm(
        `${pascal(commandType)}CommandFailureRate`,
        rate,
        thresholds.commandFailureRatePercent,
        `${commandType} commands failing: more than this % of those that ended in 15 minutes (counted once at least ${thresholds.commandFailureMinimumEnded} ended)`,
        ComparisonOperator.GREATER_THAN_THRESHOLD,
      );
      commandOutcomes.push(rate);
    }
    const offlineGeneration = new MathExpression({
      label: 'Offline generation',
      // One dimension set (of the two each count carries), so every event counts once.
      expression: `SELECT SUM(${OFFLINE_GENERATION_METRIC}) FROM SCHEMA("${METRICS_NAMESPACE}", command_type)`,
      usingMetrics: {},
      period: PERIOD,
    });
    if (props.alarmOnOfflineGeneration) {
      this.alarm(
        'OfflineGeneration',
        offlineGeneration,
        1,
        'Copy was written by the offline writer although provider keys are configured: a provider is failing or its key is missing',
      );
    }
    this.alarm(
      'ProviderNotConfigured',
      new MathExpression({
        label: 'Jobs waiting for a provider key',
        expression: `SELECT SUM(${PROVIDER_NOT_CONFIGURED_METRIC}) FROM SCHEMA("${METRICS_NAMESPACE}", command_type)`,
        usingMetrics: {},
        period: PERIOD,
      }),
      1,
      'A job needed a provider whose key is not set (fill its secret, or allow offline providers): it is retried, then dead-lettered',
    );

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
    this.dashboard.addWidgets(graph('Commands failed % (per type)', commandOutcomes), graph('Offline generation', [offlineGeneration]));
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

/** `lead_follow_up` → `LeadFollowUp`. */
function pascal(id: string): string {
  return id
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** `lead_follow_up` → `leadFollowUp`. */
function camel(id: string): string {
  const name = pascal(id);
  return name.charAt(0).toLowerCase() + name.slice(1);
}

function graph(title: string, metrics: IMetric[]): GraphWidget {
  return new GraphWidget({ title, left: metrics, width: 8, height: 6 });
}
