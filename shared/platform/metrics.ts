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
 * Counts as CloudWatch embedded-metric-format lines through Powertools, one
 * line per event with the command type as dimension. Locally
 * (`POWERTOOLS_METRICS_DISABLED=true`) nothing is printed.
 */
export function powertoolsMetrics(serviceName: string, env: Record<string, string | undefined> = process.env): OperationMetrics {
  if (env.POWERTOOLS_METRICS_DISABLED?.toLowerCase() === 'true') return noMetrics;
  const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName });
  return {
    count(metric, commandType) {
      const single = metrics.singleMetric();
      single.addDimension('command_type', commandType);
      single.addMetric(metric, MetricUnit.Count, 1);
    },
  };
}
