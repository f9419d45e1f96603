import { lambdaContext } from '../../infra/local/lambda-context';
import { functionById } from '../../shared/catalogue/functions';

describe('lambdaContext', () => {
  it('tells a function the memory the catalogue deploys it with, as Lambda does', () => {
    expect(lambdaContext('leadFollowUpApi', 29).memoryLimitInMB).toBe(String(functionById('leadFollowUpApi').memoryMb));
    expect(lambdaContext('healthApi', 3).memoryLimitInMB).toBe(String(functionById('healthApi').memoryMb));
  });

  it("gives a name the catalogue does not know Lambda's default, 128 MB", () => {
    expect(lambdaContext('somethingElse', 3).memoryLimitInMB).toBe('128');
  });

  it('counts the remaining time down from the timeout', () => {
    const remaining = lambdaContext('getCommandApi', 29).getRemainingTimeInMillis();
    expect(remaining).toBeGreaterThan(28_000);
    expect(remaining).toBeLessThanOrEqual(29_000);
  });
});
