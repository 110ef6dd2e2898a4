import { InvalidArgumentError } from 'commander';

// A date, a time with at least minutes, and a zone: "2026-11-22T00:00:00Z", "2026-11-22T02:00+02:00".
const ISO_WITH_ZONE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Strict ISO 8601 with a zone; anything else (a bare number, a date without zone, 2026-02-30) is refused. */
export function isoTimestamp(value: string): Date {
  const m = ISO_WITH_ZONE.exec(value);
  const [, y, mo, d, h, mi, s = '0'] = m ?? [];
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  const valid =
    m !== null &&
    day.getUTCMonth() === Number(mo) - 1 &&
    day.getUTCDate() === Number(d) &&
    Number(h) < 24 &&
    Number(mi) < 60 &&
    Number(s) < 60 &&
    !Number.isNaN(Date.parse(value));
  if (!valid) throw new InvalidArgumentError('expected an ISO 8601 timestamp with a zone, e.g. 2026-11-22T00:00:00Z');
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
