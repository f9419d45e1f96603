import { pacificDay } from '../../../shared/providers/search/quota';

const at = (iso: string) => Date.parse(iso);

describe('pacificDay', () => {
  it('turns at midnight Pacific Standard Time (UTC-8) in winter', () => {
    expect(pacificDay(at('2025-01-15T07:59:59.999Z'))).toBe('2025-01-14');
    expect(pacificDay(at('2025-01-15T08:00:00.000Z'))).toBe('2025-01-15');
  });

  it('turns at midnight Pacific Daylight Time (UTC-7) in summer', () => {
    expect(pacificDay(at('2025-07-15T06:59:59.999Z'))).toBe('2025-07-14');
    expect(pacificDay(at('2025-07-15T07:00:00.000Z'))).toBe('2025-07-15');
  });

  it('follows the clock change: the spring-forward day starts in PST and the next in PDT', () => {
    expect(pacificDay(at('2025-03-09T07:59:59.999Z'))).toBe('2025-03-08');
    expect(pacificDay(at('2025-03-09T08:00:00.000Z'))).toBe('2025-03-09');
    expect(pacificDay(at('2025-03-10T06:59:59.999Z'))).toBe('2025-03-09');
    expect(pacificDay(at('2025-03-10T07:00:00.000Z'))).toBe('2025-03-10');
  });

  it('follows the clock change: the fall-back day starts in PDT and the next in PST (a 25-hour day)', () => {
    expect(pacificDay(at('2025-11-02T06:59:59.999Z'))).toBe('2025-11-01');
    expect(pacificDay(at('2025-11-02T07:00:00.000Z'))).toBe('2025-11-02');
    expect(pacificDay(at('2025-11-03T07:59:59.999Z'))).toBe('2025-11-02');
    expect(pacificDay(at('2025-11-03T08:00:00.000Z'))).toBe('2025-11-03');
  });

  it('is already the next UTC day in the evening Pacific time, and not yet in the morning', () => {
    expect(pacificDay(at('2025-12-31T23:30:00Z'))).toBe('2025-12-31');
    expect(pacificDay(at('2026-01-01T07:30:00Z'))).toBe('2025-12-31');
    expect(pacificDay(at('2026-01-01T08:00:00Z'))).toBe('2026-01-01');
  });
});
