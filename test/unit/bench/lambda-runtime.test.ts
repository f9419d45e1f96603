import { lambdaNodeFlags } from '../../bench/lambda-runtime';

describe('lambdaNodeFlags', () => {
  it("sets the young generation to a tenth of the memory and the old one to the rest, as Lambda's runtime does", () => {
    expect(lambdaNodeFlags(512)).toEqual([
      '--expose-gc',
      '--max-http-header-size=81920',
      '--max-semi-space-size=25',
      '--max-old-space-size=461',
    ]);
  });
});
