/** Parses WEBHOOK_RETRY_SCHEDULE: seconds to wait after the 1st, 2nd, … failed attempt. */
export function parseSchedule(text: string): number[] {
  return text.split(',').map((s) => Number(s.trim()));
}

export interface RetryDecision {
  retry: boolean;
  delayMs: number;
}

/**
 * When to try again after the `failuresInCycle`-th failed attempt (1-based): the schedule's delay
 * with ±20 % jitter, or the receiver's Retry-After (429/503) kept between 1 s and the schedule's
 * longest delay. No retry once the schedule is used up.
 */
export function nextRetry(
  failuresInCycle: number,
  schedule: number[],
  retryAfterSeconds: number | null,
  random: () => number = Math.random,
): RetryDecision {
  if (failuresInCycle > schedule.length) return { retry: false, delayMs: 0 };
  const base = schedule[failuresInCycle - 1] * 1000;
  if (retryAfterSeconds !== null && Number.isFinite(retryAfterSeconds)) {
    const max = Math.max(...schedule) * 1000;
    return { retry: true, delayMs: Math.round(Math.min(Math.max(retryAfterSeconds * 1000, 1000), max)) };
  }
  const jitter = 1 + (random() * 0.4 - 0.2);
  return { retry: true, delayMs: Math.max(0, Math.round(base * jitter)) };
}

/** Retry-After: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, (at - now) / 1000);
}
