import { atShare, durationCostPerMillion, sizeVerdict, supports, vcpuShare, type SizeMeasurement } from '../../bench/sizing-rule';

/** A function that needs 40 MB, 3 ms of CPU a warm request and 50 ms its first, measured in a sandbox of `memoryMb`. */
const measuredAt = (memoryMb: number, overrides: Partial<SizeMeasurement> = {}): SizeMeasurement => ({
  memoryMb,
  initMs: 100,
  peakRssMb: 40,
  firstCpuMs: 50,
  warmCpuMs: 3,
  ...overrides,
});

describe('vcpuShare', () => {
  it('is one vCPU at 1,769 MB, in proportion below, never more than one', () => {
    expect(vcpuShare(1_769)).toBe(1);
    expect(vcpuShare(128)).toBeCloseTo(0.0724, 4);
    expect(vcpuShare(3_538)).toBe(1);
  });
});

describe('supports', () => {
  it('holds a warm request to 50 ms and the first to 500 ms at the size’s share of a vCPU', () => {
    // 3 ms ÷ (128/1769) = 41 ms warm, 50 ms ÷ 0.072 = 691 ms first: the first request is too slow at 128 MB.
    expect(atShare(measuredAt(128)).warmMs).toBeCloseTo(41.5, 1);
    expect(supports(measuredAt(128))).toBe(false);
    expect(supports(measuredAt(256))).toBe(true);
    expect(supports(measuredAt(256, { warmCpuMs: 8 }))).toBe(false);
  });

  it('leaves a third of the memory free beyond the peak', () => {
    expect(supports(measuredAt(256, { peakRssMb: 170 }))).toBe(true);
    expect(supports(measuredAt(256, { peakRssMb: 172 }))).toBe(false);
  });
});

describe('sizeVerdict', () => {
  const measurements = [128, 256, 512, 1024].map((memoryMb) => measuredAt(memoryMb));

  it('names the smallest size that supports its own measurement, in any order', () => {
    expect(sizeVerdict([...measurements].reverse(), 256)).toEqual({ smallest: 256, label: 'the smallest supported' });
    expect(sizeVerdict(measurements, 512)).toEqual({ smallest: 256, label: 'larger than needed' });
    expect(sizeVerdict(measurements, 128)).toEqual({ smallest: 256, label: 'too small' });
  });

  it('says so when no size supports it', () => {
    expect(sizeVerdict([measuredAt(1024, { warmCpuMs: 100 })], 1024)).toEqual({ label: 'none supported' });
  });
});

describe('durationCostPerMillion', () => {
  it('bills the duration at the memory: a million waits of 10 s at 512 MB', () => {
    expect(durationCostPerMillion(10, 512)).toBeCloseTo(66.67, 2);
  });
});
