import { InvalidArgumentError } from 'commander';
import { ISO_8601_WITH_ZONE } from '@payments/contracts';

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/;

/**
 * Strict ISO 8601 with seconds and a zone (the admin API's rule, ISO_8601_WITH_ZONE) on a real
 * calendar date; anything else (a bare number, no zone, 2026-02-30, 25:00) is refused.
 */
export function isoTimestamp(value: string): Date {
  const [, y, mo, d, h, mi, s] = DATE_TIME.exec(value) ?? [];
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  const valid =
    ISO_8601_WITH_ZONE.test(value) &&
    day.getUTCMonth() === Number(mo) - 1 &&
    day.getUTCDate() === Number(d) &&
    Number(h) < 24 &&
    Number(mi) < 60 &&
    Number(s) < 60 &&
    !Number.isNaN(Date.parse(value));
  if (!valid)
    throw new InvalidArgumentError('expected an ISO 8601 timestamp with seconds and a zone, e.g. 2026-11-22T00:00:00Z');
  return new Date(Date.parse(value));
}

export function nonNegativeInt(value: string): number {
  if (!/^\d{1,15}$/.test(value)) throw new InvalidArgumentError('expected a non-negative integer');
  return Number(value);
}

export function positiveInt(value: string): number {
  const n = nonNegativeInt(value);
  if (n === 0) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

export function signedInt(value: string): number {
  if (!/^[+-]?\d{1,15}$/.test(value)) throw new InvalidArgumentError('expected an integer, e.g. -100');
  return Number(value);
}
