import { tracingOf } from '../../shared/composition/adapters';
import { noTracing } from '../../shared/platform/tracing';

describe('tracingOf', () => {
  it('traces nothing outside Lambda (tests, npm start) or when tracing is turned off', () => {
    expect(tracingOf('salesWorker', {})).toBe(noTracing);
    expect(tracingOf('salesWorker', { AWS_LAMBDA_FUNCTION_NAME: 'sales', POWERTOOLS_TRACE_ENABLED: 'false' })).toBe(noTracing);
  });

  it('runs the work of a span unchanged when nothing is traced', async () => {
    await expect(noTracing.span('## x', { commandId: 'c' }, async () => 42)).resolves.toBe(42);
  });
});
