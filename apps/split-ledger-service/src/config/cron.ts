const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

/** The five fields of a standard cron expression: allowed range and names. */
const FIELDS: { min: number; max: number; names?: string[]; namesFrom?: number }[] = [
  { min: 0, max: 59 }, // minute
  { min: 0, max: 23 }, // hour
  { min: 1, max: 31 }, // day of month
  { min: 1, max: 12, names: MONTHS, namesFrom: 1 }, // month
  { min: 0, max: 7, names: DAYS, namesFrom: 0 }, // day of week (0 and 7 are Sunday)
];

function value(text: string, f: (typeof FIELDS)[number]): number | null {
  if (/^\d{1,2}$/.test(text)) return Number(text);
  const i = f.names?.indexOf(text.toUpperCase()) ?? -1;
  return i >= 0 ? i + (f.namesFrom ?? 0) : null;
}

function validPart(part: string, f: (typeof FIELDS)[number]): boolean {
  const [range, step, ...rest] = part.split('/');
  if (rest.length > 0 || (step !== undefined && !/^[1-9]\d{0,1}$/.test(step))) return false;
  if (range === '*') return true;
  const [from, to, ...more] = range.split('-');
  if (more.length > 0) return false;
  const a = value(from, f);
  const b = to === undefined ? a : value(to, f);
  return a !== null && b !== null && a >= f.min && b <= f.max && a <= b;
}

/**
 * True for a standard 5-field cron expression (minute hour day-of-month month day-of-week) with
 * numbers in range, `*`, ranges `a-b`, steps `/n`, lists `a,b` and month/day names — what BullMQ's
 * scheduler accepts, checked at boot rather than when the first job would be scheduled.
 */
export function isCronExpression(text: string): boolean {
  const fields = text.trim().split(/\s+/);
  return (
    fields.length === 5 && fields.every((field, i) => field.split(',').every((part) => validPart(part, FIELDS[i])))
  );
}
