/**
 * How Lambda sizes a function, and the rule the `sizing` bench part judges a
 * memory size by. Lambda gives a function CPU in proportion to its memory: one
 * vCPU at 1,769 MB, a share below; the init (the cold start) runs at full
 * speed, every invocation at the share. An invocation is billed for its
 * duration at its memory, whatever it spends waiting.
 */

/** Memory at which a function has one full vCPU. */
export const FULL_VCPU_MB = 1_769;

/** us-east-1 list price (USD) of a GB-second of Lambda on arm64, as deployed, November 2026. */
export const LAMBDA_PRICE_PER_GB_SECOND = 0.0000133334;

/** The sizes the rule considers, smallest first: up to one full vCPU, beyond which single-threaded code runs no faster. */
export const SIZES_MB = [128, 256, 512, 1024, FULL_VCPU_MB] as const;

/** The share of a vCPU an invocation runs with at `memoryMb`. */
export function vcpuShare(memoryMb: number): number {
  return Math.min(1, memoryMb / FULL_VCPU_MB);
}

/**
 * What a size must give a function. Memory: a third of it left free beyond
 * the peak measured (requests and answers larger than the sample's). CPU: a
 * warm request's own CPU time within 50 ms at the size's share of a vCPU, so
 * with its storage round trips in a region (5–10 ms each) an API answer takes
 * about 100 ms; and the first request after a cold start, which compiles the
 * code it runs and opens its connections, within 500 ms at the share, so with
 * the init (full speed, 0.1–0.2 s) a cold request answers within about a second.
 */
export const SIZING_RULE = { peakRssShare: 2 / 3, warmRequestMs: 50, firstRequestMs: 500 } as const;

/** A function measured in a sandbox of one size. */
export interface SizeMeasurement {
  memoryMb: number;
  initMs: number;
  peakRssMb: number;
  /** CPU time of the first invocation after the cold start. */
  firstCpuMs: number;
  /** Median CPU time of the later invocations. */
  warmCpuMs: number;
}

/** The first and warm request's CPU time at the measurement's share of a vCPU (what it adds to an answer there). */
export function atShare(measured: SizeMeasurement): { firstMs: number; warmMs: number } {
  const share = vcpuShare(measured.memoryMb);
  return { firstMs: measured.firstCpuMs / share, warmMs: measured.warmCpuMs / share };
}

/** True when the size measured supports what was measured there, by {@link SIZING_RULE}. */
export function supports(measured: SizeMeasurement): boolean {
  const { firstMs, warmMs } = atShare(measured);
  return (
    measured.peakRssMb <= measured.memoryMb * SIZING_RULE.peakRssShare &&
    warmMs <= SIZING_RULE.warmRequestMs &&
    firstMs <= SIZING_RULE.firstRequestMs
  );
}

/** The smallest size measured that supports its measurement, and how `catalogueMb` compares with it. */
export function sizeVerdict(measurements: readonly SizeMeasurement[], catalogueMb: number): { smallest?: number; label: string } {
  const smallest = [...measurements].sort((a, b) => a.memoryMb - b.memoryMb).find(supports)?.memoryMb;
  if (smallest === undefined) return { label: 'none supported' };
  if (catalogueMb === smallest) return { smallest, label: 'the smallest supported' };
  if (catalogueMb > smallest) return { smallest, label: `larger than needed` };
  return { smallest, label: 'too small' };
}

/** Dollars per million invocations that last `seconds` at `memoryMb` (duration only: no request fee). */
export function durationCostPerMillion(seconds: number, memoryMb: number): number {
  return seconds * (memoryMb / 1024) * LAMBDA_PRICE_PER_GB_SECOND * 1e6;
}
