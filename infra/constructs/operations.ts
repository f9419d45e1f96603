import { Duration, Validations } from 'aws-cdk-lib';
import type { IHttpApi, IWebSocketApi } from 'aws-cdk-lib/aws-apigatewayv2';
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
import { Operation, type ITable } from 'aws-cdk-lib/aws-dynamodb';
import { ManagedPolicy } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { AlarmSubscriptions, AlarmThresholds } from '../config';
import type { FunctionDefinition, FunctionId } from '../../shared/catalogue/functions';
import { DEFAULT_ROUTE_FUNCTION, ROUTES } from '../../shared/catalogue/routes';
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

/** The table operations the functions use (transactions write with ConditionCheck), whose throttles and system errors are summed. */
export const TABLE_OPERATIONS = [
  Operation.GET_ITEM,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.QUERY,
  Operation.TRANSACT_WRITE_ITEMS,
] as const;

/** When an alarm fires: `datapoints` of the last `periods` periods breaching (1 of 1 unless said), and what missing data means. */
interface Evaluation {
  readonly comparisonOperator?: ComparisonOperator;
  readonly periods?: number;
  readonly datapoints?: number;
  readonly treatMissingData?: TreatMissingData;
}

/** A noisy signal pages when it holds: 2 of the last 3 periods. */
const TWO_OF_THREE = { periods: 3, datapoints: 2 } as const;

/**
 * A dead-letter alarm keeps its state while no data comes (SQS stops
 * sending a queue's metrics after hours without activity): jobs still
 * waiting there never read as recovered.
 */
const KEEP_STATE_WITHOUT_DATA = { treatMissingData: TreatMissingData.IGNORE } as const;

/** True for a function behind an HTTP API route (or its `$default`): its failures show in the API's 5xx rate and latency. */
function servedByHttpApi(definition: FunctionDefinition): boolean {
  return definition.id === DEFAULT_ROUTE_FUNCTION || ROUTES.some((route) => route.function === definition.id);
}

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
  /** The relay socket (WebSocket API and stage) whose errors, refused connects and client errors are watched. */
  readonly relaySocket?: { readonly api: IWebSocketApi; readonly stageName: string };
  /** The table whose throttled requests and system errors are watched. */
  readonly table?: ITable;
  /** Reserved concurrency per function: each one's ConcurrentExecutions is watched against it. @default {} */
  readonly reservedConcurrency?: Readonly<Partial<Record<FunctionId, number>>>;
  /** The dead-letter queue of the schedules (EventBridge events that could not reach their function). */
  readonly scheduleDeadLetterQueue?: IQueue;
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
 * depth and age and oldest message per queue; errors and duration near the
 * timeout of every function not behind the HTTP API; throttles and
 * concurrency near the reservation of every function; API 5xx rate and p99
 * latency; relay socket errors, refused connects and client errors; table
 * throttles and system errors; failed alarm notifications; the schedules'
 * dead letters; failure rate per command type; offline generation where
 * providers are configured), and one dashboard.
 */
export class Operations extends Construct {
  readonly alarmTopic: Topic;
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: OperationsProps) {
    super(scope, id);
    const { thresholds } = props;
    this.alarmTopic = new Topic(this, 'AlarmTopic', { displayName: `${props.dashboardName} alarms`, enforceSSL: true });
    for (const email of props.subscriptions?.emails ?? []) {
      const subscription = this.alarmTopic.addSubscription(new EmailSubscription(email));
      Validations.of(subscription).acknowledge({
        id: 'Serverless-SNSRedrivePolicy',
        reason:
          'A person reads this mail: a notification SNS could not deliver has no later use (the alarm stays in its state on the dashboard), ' +
          'and failed deliveries raise the AlarmNotificationsFailed alarm.',
      });
    }
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
      // Counted once enough requests came: one failed request of two is no outage.
      expression: `IF(requests >= ${thresholds.apiServerErrorMinimumRequests}, 100 * errors / requests, 0)`,
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
      `API 5xx answers above this % of requests in 2 of 3 periods of 5 minutes (counted from ${thresholds.apiServerErrorMinimumRequests} requests)`,
      { comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD, ...TWO_OF_THREE },
    );
    this.alarm(
      'ApiLatencyP99',
      latencyP99,
      thresholds.apiP99LatencyMs,
      'API p99 latency (ms) near the integration timeout, in 2 of 3 periods of 5 minutes',
      { comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD, ...TWO_OF_THREE },
    );

    for (const { definition, queue, deadLetterQueue } of props.queues) {
      this.alarm(
        `${definition.id}DeadLetters`,
        deadLetterQueue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: PERIOD }),
        0,
        `Jobs in the ${definition.id} dead-letter queue: inspect, fix, redrive (stays in alarm until it is empty)`,
        { comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD, ...KEEP_STATE_WITHOUT_DATA },
      );
      this.alarm(
        `${definition.id}DeadLetterAge`,
        deadLetterQueue.metricApproximateAgeOfOldestMessage({ statistic: 'Maximum', period: PERIOD }),
        thresholds.deadLetterAgeSeconds,
        `A job has waited in the ${definition.id} dead-letter queue longer than this (s): SQS deletes it at 14 days`,
        { comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD, ...KEEP_STATE_WITHOUT_DATA },
      );
      this.alarm(
        `${definition.id}OldestMessage`,
        queue.metricApproximateAgeOfOldestMessage({ statistic: 'Maximum', period: PERIOD }),
        thresholds.queueOldestMessageAgeSeconds,
        `Oldest ${definition.id} job waiting longer than this (s): the worker is stuck or too slow`,
      );
    }
    if (props.scheduleDeadLetterQueue) {
      this.alarm(
        'ScheduleDeadLetters',
        props.scheduleDeadLetterQueue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: PERIOD }),
        0,
        'A scheduled run never reached its function (EventBridge gave up after its retries): see the event, check the function (stays in alarm until the queue is empty)',
        { comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD, ...KEEP_STATE_WITHOUT_DATA },
      );
    }
    for (const { definition, function: fn } of props.functions) {
      // Functions behind HTTP routes show their failures and slowness in the API's 5xx rate and latency; the others are watched here.
      if (!servedByHttpApi(definition)) {
        this.alarm(
          `${definition.id}Errors`,
          fn.metricErrors({ statistic: 'Sum', period: PERIOD }),
          thresholds.workerErrors,
          `${definition.id} invocations failing as a whole (crash, timeout), not single records`,
        );
        const nearTimeoutMs = Math.ceil((definition.timeoutSeconds * 1000 * thresholds.durationNearTimeoutPercent) / 100);
        this.alarm(
          `${definition.id}DurationNearTimeout`,
          fn.metricDuration({ statistic: 'p99', period: PERIOD }),
          nearTimeoutMs,
          `${definition.id} p99 duration (ms) at ${thresholds.durationNearTimeoutPercent}% of its ${definition.timeoutSeconds} s timeout ` +
            'in 2 of 3 periods of 5 minutes: a provider is slow, or the work outgrew the timeout',
          TWO_OF_THREE,
        );
      }
      this.alarm(
        `${definition.id}Throttles`,
        fn.metricThrottles({ statistic: 'Sum', period: PERIOD }),
        thresholds.functionThrottles,
        `${definition.id} throttled: reserved or account concurrency exhausted`,
      );
      const reserved = props.reservedConcurrency?.[definition.id];
      if (reserved !== undefined) {
        const near = Math.ceil((reserved * thresholds.concurrencyNearReservationPercent) / 100);
        this.alarm(
          `${definition.id}ConcurrencyNearReservation`,
          fn.metric('ConcurrentExecutions', { statistic: 'Maximum', period: PERIOD }),
          near,
          `${definition.id} running ${near} or more at once (${thresholds.concurrencyNearReservationPercent}% of its reserved ${reserved}) ` +
            'in 2 of 3 periods of 5 minutes: throttling is near; raise its throttles and reservation, or find the load',
          TWO_OF_THREE,
        );
      }
    }
    if (props.relaySocket) {
      const socket = (metricName: string, route?: string) =>
        new Metric({
          namespace: 'AWS/ApiGateway',
          metricName,
          dimensionsMap: {
            ApiId: props.relaySocket!.api.apiId,
            Stage: props.relaySocket!.stageName,
            ...(route ? { Route: route } : {}),
          },
          statistic: 'Sum',
          period: PERIOD,
        });
      this.alarm(
        'RelaySocketErrors',
        new MathExpression({
          label: 'Relay socket errors',
          expression: 'FILL(execution, 0) + FILL(integration, 0)',
          usingMetrics: { execution: socket('ExecutionError'), integration: socket('IntegrationError') },
          period: PERIOD,
        }),
        thresholds.relaySocketErrors,
        'Relay socket: API Gateway could not call the socket function (ExecutionError) or it answered an error (IntegrationError), ' +
          'in 2 of 3 periods of 5 minutes: callers hear nothing',
        TWO_OF_THREE,
      );
      this.alarm(
        'RelayConnectRefusals',
        socket('IntegrationError', '$connect'),
        thresholds.relayConnectRefusals,
        "Relay socket $connect refused by the socket function in 2 of 3 periods of 5 minutes: Twilio's signature does not check " +
          '(PUBLIC_BASE_URL, the Twilio secret) or the call is unknown',
        TWO_OF_THREE,
      );
      this.alarm(
        'RelaySocketClientErrors',
        socket('ClientError'),
        thresholds.relaySocketClientErrors,
        'Relay socket requests API Gateway refused itself (ClientError: throttled by relayThrottle, malformed) in 2 of 3 periods of 5 minutes',
        TWO_OF_THREE,
      );
    }
    if (props.table) {
      const operations = [...TABLE_OPERATIONS];
      this.alarm(
        'TableThrottledRequests',
        props.table.metricThrottledRequestsForOperations({ operations, period: PERIOD }),
        thresholds.tableThrottledRequests,
        'DynamoDB throttled requests of the table in 2 of 3 periods of 5 minutes: a hot partition, or on-demand limits reached',
        TWO_OF_THREE,
      );
      this.alarm(
        'TableSystemErrors',
        props.table.metricSystemErrorsForOperations({ operations, period: PERIOD }),
        thresholds.tableSystemErrors,
        'DynamoDB answered the table with internal errors (HTTP 500) in 2 of 3 periods of 5 minutes: check the AWS Health Dashboard',
        TWO_OF_THREE,
      );
    }
    this.alarm(
      'AlarmNotificationsFailed',
      this.alarmTopic.metricNumberOfNotificationsFailed({ statistic: 'Sum', period: PERIOD }),
      thresholds.alarmNotificationFailures,
      'The alarm topic could not deliver notifications (an address bouncing, the Slack channel gone): fix the subscription',
    );

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
        { comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD },
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

  private alarm(id: string, metric: IMetric, threshold: number, description: string, evaluation: Evaluation = {}): void {
    const alarm = new Alarm(this, id, {
      metric,
      threshold,
      comparisonOperator: evaluation.comparisonOperator ?? ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: evaluation.periods ?? 1,
      datapointsToAlarm: evaluation.datapoints ?? 1,
      treatMissingData: evaluation.treatMissingData ?? TreatMissingData.NOT_BREACHING,
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
