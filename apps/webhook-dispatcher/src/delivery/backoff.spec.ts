import fc from 'fast-check';
import { nextRetry, parseRetryAfter, parseSchedule } from './backoff';

const SCHEDULE = parseSchedule('5,300,1800,7200,18000,36000,36000');

describe('nextRetry', () => {
  it('follows the schedule with at most ±20 % jitter', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: SCHEDULE.length }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        (n, r) => {
          const d = nextRetry(n, SCHEDULE, null, () => r);
          const base = SCHEDULE[n - 1] * 1000;
          return d.retry && d.delayMs >= base * 0.8 - 1 && d.delayMs <= base * 1.2 + 1;
        },
      ),
    );
  });

  it('gives up once the schedule is used up', () => {
    expect(nextRetry(SCHEDULE.length + 1, SCHEDULE, null)).toEqual({ retry: false, delayMs: 0 });
  });

  it('honours Retry-After within bounds', () => {
    expect(nextRetry(1, SCHEDULE, 120).delayMs).toBe(120_000);
    expect(nextRetry(1, SCHEDULE, 0).delayMs).toBe(1_000);
    expect(nextRetry(1, SCHEDULE, 10 * 86_400).delayMs).toBe(36_000_000);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('30')).toBe(30);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60);
    expect(parseRetryAfter(undefined)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
  });
});
