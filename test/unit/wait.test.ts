import { preferredWaitMs } from '../../shared/commands/wait';

describe('preferredWaitMs', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['respond-async', undefined],
    ['wait=5', 5000],
    ['respond-async, wait=3', 3000],
    ['wait="2"', 2000],
    ['wait=0', undefined],
    ['wait=999', 25000],
    ['handling=lenient; wait=1.5', 1500],
    ['wait=abc', undefined],
  ])('reads %p as %p ms', (header, expected) => {
    expect(preferredWaitMs(header, 25)).toBe(expected);
  });
});
