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
  | 'ProviderNotConfigured'
  /**
   * A webhook delivery: an attempt the endpoint answered 2xx, one it did not, and a delivery given up after its last attempt (per event
   * type).
   */
  | 'WebhookDelivered'
  | 'WebhookAttemptFailed'
  | 'WebhookDeliveryFailed'
  /** A command refused because its tenant was at a limit (in progress, monthly tokens or searches). */
  | 'CommandRefusedByLimit'
  /** A producer's job put back on its queue, delayed, because its tenant was at a limit. */
  | 'JobDelayedByLimit';

/** Port: counts operational events. */
export interface OperationMetrics {
  count(metric: OperationMetric, commandType: string): void;
}

export const noMetrics: OperationMetrics = { count: () => undefined };

/** The CloudWatch namespace of every Switchboard metric. */
export const METRICS_NAMESPACE = 'Switchboard';

/**
 * The dimension sets of every count: per function and command type (the
 * dashboard's view), and per command type alone, so an alarm reads one
 * metric per command type however many functions emit it (CloudWatch caps
 * an alarm at 10 metrics).
 */
export const METRIC_DIMENSION_SETS = [['service', 'command_type'], ['command_type']] as const;

/**
 * Counts as CloudWatch embedded-metric-format lines, one line per event on
 * stdout (Lambda sends it to CloudWatch Logs, which extracts the metric),
 * under both METRIC_DIMENSION_SETS. Locally
 * (`POWERTOOLS_METRICS_DISABLED=true`) nothing is printed.
 */
export function embeddedMetrics(
  serviceName: string,
  env: Record<string, string | undefined> = process.env,
  write: (line: string) => void = (line) => process.stdout.write(line),
): OperationMetrics {
  if (env.POWERTOOLS_METRICS_DISABLED?.toLowerCase() === 'true') return noMetrics;
  return {
    count(metric, commandType) {
      const line = {
        _aws: {
          Timestamp: Date.now(),
          CloudWatchMetrics: [
            { Namespace: METRICS_NAMESPACE, Dimensions: METRIC_DIMENSION_SETS, Metrics: [{ Name: metric, Unit: 'Count' }] },
          ],
        },
        service: serviceName,
        command_type: commandType,
        [metric]: 1,
      };
      write(`${JSON.stringify(line)}\n`);
    },
  };
}
