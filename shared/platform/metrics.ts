import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

/** What Switchboard counts about its commands, per command type. */
export type OperationMetric =
  | 'CommandAccepted'
  | 'CommandCompleted'
  | 'CommandFailed'
  | 'JobRetried'
  | 'JobDeadLettered'
  | 'DuplicateJobIgnored'
  /** The offline writer answered (alarms where provider keys are expected). */
  | 'OfflineGeneration'
  /** A job needed a provider whose credentials are not set (alarms). */
  | 'ProviderNotConfigured';

/** Port: counts operational events. */
export interface OperationMetrics {
  count(metric: OperationMetric, commandType: string): void;
}

export const noMetrics: OperationMetrics = { count: () => undefined };

/** The CloudWatch namespace of every Switchboard metric. */
export const METRICS_NAMESPACE = 'Switchboard';

/**
 * Metrics also counted per command type alone (dimension set `command_type`),
 * whichever function emits them: the failure-rate alarm of a command type
 * reads two metrics however many functions finish its commands.
 */
export const SERVICE_WIDE_METRICS: readonly OperationMetric[] = ['CommandCompleted', 'CommandFailed'];

/**
 * Counts as CloudWatch embedded-metric-format lines through Powertools, one
 * line per event with the function (`service`) and the command type as
 * dimensions, plus the command type alone for SERVICE_WIDE_METRICS. Locally
 * (`POWERTOOLS_METRICS_DISABLED=true`) nothing is printed.
 */
export function powertoolsMetrics(serviceName: string, env: Record<string, string | undefined> = process.env): OperationMetrics {
  if (env.POWERTOOLS_METRICS_DISABLED?.toLowerCase() === 'true') return noMetrics;
  const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName });
  return {
    count(metric, commandType) {
      const single = metrics.singleMetric();
      if (SERVICE_WIDE_METRICS.includes(metric)) {
        // Default dimensions join every set; without them the line carries [command_type] and [service, command_type].
        single.clearDefaultDimensions();
        single.addDimension('command_type', commandType);
        single.addDimensions({ service: serviceName, command_type: commandType });
      } else {
        single.addDimension('command_type', commandType);
      }
      single.addMetric(metric, MetricUnit.Count, 1);
    },
  };
}
