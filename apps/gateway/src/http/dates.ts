import isISO8601 from 'validator/lib/isISO8601';
import type { CreatedRange } from '@payments/contracts';
import { custom } from './request-rules';

/**
 * Years the API accepts in dates and timestamps. PostgreSQL has no year 0 ("0000-01-01" is an
 * error there, 1 BC in ISO 8601) and four digits is what the formats below allow.
 */
const FIRST_YEAR = 1;
const LAST_YEAR = 9999;

/** A real calendar day `YYYY-MM-DD` (no 2025-02-30, no year 0000). */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const year = Number(value.slice(0, 4));
  if (year < FIRST_YEAR || year > LAST_YEAR) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** An ISO-8601 timestamp naming a real instant within years 0001–9999. */
export function isTimestamp(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(value)) return false;
  if (!isISO8601(value, { strict: true, strictSeparator: true }) || !isCalendarDate(value.slice(0, 10))) return false;
  const t = Date.parse(value);
  return !Number.isNaN(t) && new Date(t).getUTCFullYear() >= FIRST_YEAR && new Date(t).getUTCFullYear() <= LAST_YEAR;
}

/** Latest instant the API accepts, 9999-12-31T23:59:59Z, in Unix seconds. */
const LAST_UNIX_SECOND = 253_402_300_799;

/** An ISO-8601 timestamp, or Unix seconds as Stripe sends them. */
export function isTimestampOrUnixSeconds(value: unknown): value is string {
  return (
    isTimestamp(value) || (typeof value === 'string' && /^\d{1,12}$/.test(value) && Number(value) <= LAST_UNIX_SECOND)
  );
}

export const calendarDate = () =>
  custom<string>(
    'isCalendarDate',
    isCalendarDate,
    (p) => `${p} must be a real date in the form YYYY-MM-DD (years 0001 to 9999)`,
    {
      type: 'string',
      format: 'date',
    },
  );

export const timestamp = () =>
  custom<string>(
    'isTimestamp',
    isTimestamp,
    (p) => `${p} must be an ISO-8601 timestamp such as 2025-01-31T12:00:00Z (years 0001 to 9999)`,
    {
      type: 'string',
      format: 'date-time',
    },
  );

export const timestampOrUnixSeconds = () =>
  custom<string>(
    'isTimestampOrUnixSeconds',
    isTimestampOrUnixSeconds,
    (p) => `${p} must be an ISO-8601 timestamp such as 2025-01-31T12:00:00Z or Unix seconds`,
    {
      type: 'string',
      description: 'An ISO-8601 timestamp (2025-01-31T12:00:00Z) or Unix seconds',
    },
  );

/** A validated bound as the ISO timestamp the dispatcher compares with. */
export function toIso(value: string): string {
  return /^\d+$/.test(value) ? new Date(Number(value) * 1000).toISOString() : new Date(value).toISOString();
}

/** The `created[gte|gt|lte|lt]` bounds of a list query (parsed flat: each is a field of its own), as ISO timestamps. */
export function createdRange(
  q: Partial<Record<'created[gte]' | 'created[gt]' | 'created[lte]' | 'created[lt]', string>>,
): CreatedRange {
  const range: CreatedRange = {};
  for (const op of ['gte', 'gt', 'lte', 'lt'] as const) {
    const v = q[`created[${op}]`];
    if (v !== undefined) range[op] = toIso(v);
  }
  return range;
}
