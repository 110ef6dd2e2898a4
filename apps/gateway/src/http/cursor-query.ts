import type { CursorPageBody } from '@payments/contracts';
import { timestampOrUnixSeconds } from './dates';
import { crossField, isString, matches } from './request-rules';
import { optional } from './request-schema';

/** What a list's cursors name: ids of this form (anything else is a 400 before any RPC). */
export interface CursorIds {
  pattern: RegExp;
  /** How an id of this kind is described in messages, e.g. "a transaction id (txn_…)". */
  noun: string;
}

const cursorId = ({ pattern, noun }: CursorIds) => matches(pattern, (p) => `${p} must be ${noun}`, 'isCursorId');

/**
 * The cursor half of every list query (Stripe's `starting_after` / `ending_before`): newest
 * first, `starting_after` pages to older objects and `ending_before` to newer ones; the answer
 * carries `has_more`. Each list adds its own `limit` (each keeps the limits it always had).
 */
export const cursorFields = (ids: CursorIds) => ({
  starting_after: optional([cursorId(ids), isString()]),
  ending_before: optional([
    crossField(
      'oneCursor',
      (_v, o) => o.starting_after === undefined,
      'ending_before cannot be combined with starting_after',
    ),
    cursorId(ids),
    isString(),
  ]),
});

/** Bounds on creation time; the query string is parsed flat, so each bound is a field of its own. */
export const createdRangeFields = () => ({
  'created[gte]': optional([timestampOrUnixSeconds()]),
  'created[gt]': optional([timestampOrUnixSeconds()]),
  'created[lte]': optional([timestampOrUnixSeconds()]),
  'created[lt]': optional([timestampOrUnixSeconds()]),
});

/** The page a list query asks for, as the services take it. */
export function cursorPage(
  q: { limit?: number; starting_after?: string; ending_before?: string },
  defaultLimit: number,
): CursorPageBody {
  return { limit: q.limit ?? defaultLimit, starting_after: q.starting_after, ending_before: q.ending_before };
}
