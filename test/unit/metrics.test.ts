import { embeddedMetrics, METRIC_DIMENSION_SETS, noMetrics } from '../../shared/platform/metrics';

describe('embeddedMetrics', () => {
  it('writes one EMF line per count, under the function-and-type and the type-only dimension sets', () => {
    const lines: string[] = [];
    embeddedMetrics('callWorker', {}, (line) => lines.push(line)).count('CommandCompleted', 'stakeholder_coordination');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith('\n')).toBe(true);
    expect(JSON.parse(lines[0]!)).toEqual({
      _aws: {
        Timestamp: expect.any(Number),
        CloudWatchMetrics: [
          {
            Namespace: 'Switchboard',
            Dimensions: [['service', 'command_type'], ['command_type']],
            Metrics: [{ Name: 'CommandCompleted', Unit: 'Count' }],
          },
        ],
      },
      service: 'callWorker',
      command_type: 'stakeholder_coordination',
      CommandCompleted: 1,
    });
    expect(METRIC_DIMENSION_SETS).toEqual([['service', 'command_type'], ['command_type']]);
  });

  it('prints nothing when metrics are off (npm start)', () => {
    expect(
      embeddedMetrics('callWorker', { POWERTOOLS_METRICS_DISABLED: 'true' }, () => {
        throw new Error('printed');
      }),
    ).toBe(noMetrics);
  });
});
