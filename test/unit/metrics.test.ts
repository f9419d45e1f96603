import { powertoolsMetrics } from '../../shared/platform/metrics';
import { captureOutput } from '../support/capture-output';

/** The EMF lines a counter prints. */
async function linesOf(run: (metrics: ReturnType<typeof powertoolsMetrics>) => void): Promise<Record<string, unknown>[]> {
  const metrics = powertoolsMetrics('researchWorker', {});
  const { stdout } = await captureOutput(() => run(metrics));
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const dimensionsOf = (line: Record<string, unknown>) => (line._aws as { CloudWatchMetrics: { Dimensions: string[][] }[] }).CloudWatchMetrics[0]!.Dimensions;

describe('powertoolsMetrics', () => {
  it('counts command outcomes per command type alone and per function, so one alarm reads every finisher', async () => {
    const [line] = await linesOf((metrics) => metrics.count('CommandFailed', 'deep_research'));
    expect(dimensionsOf(line!)).toEqual([['command_type'], ['service', 'command_type']]);
    expect(line).toMatchObject({ command_type: 'deep_research', service: 'researchWorker', CommandFailed: 1 });
  });

  it('counts everything else per function and command type', async () => {
    const [line] = await linesOf((metrics) => metrics.count('JobRetried', 'deep_research'));
    expect(dimensionsOf(line!)).toEqual([['service', 'command_type']]);
    expect(line).toMatchObject({ command_type: 'deep_research', service: 'researchWorker', JobRetried: 1 });
  });

  it('prints nothing where metrics are disabled', async () => {
    const { stdout } = await captureOutput(() => powertoolsMetrics('researchWorker', { POWERTOOLS_METRICS_DISABLED: 'true' }).count('CommandCompleted', 'x'));
    expect(stdout).toBe('');
  });
});
