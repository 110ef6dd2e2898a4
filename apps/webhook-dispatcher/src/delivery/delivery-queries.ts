import type { PreparedStatement } from '@payments/database';
import type { CallbackRow } from '../callbacks/callback-store';
import { recordNewEvents } from '../events/events-store';
import type { ClaimedAttempt, DeliveryRow, WebhookEventRow } from './delivery-rows';
import { DELIVERY_COLUMNS, DELIVERY_COLUMNS_D, DELIVERY_COLUMNS_I } from './delivery-rows';

/*
 * The dispatcher's hot statements (DeliveryStore runs them), and how a claimed row comes back from them.
 */

/**
 * The statements every webhook runs (events and fan-out, a claim unless the fan-out made it, success), prepared under
 * a name. Their arrays are read through a sub-select, so no plan sees their values: a custom plan then costs what the
 * generic one does before PostgreSQL's charge for planning, so after five custom plans it keeps the generic one,
 * planning again only when it invalidates the plan (an ANALYZE of a table they read, say). Given an array it could see,
 * it would plan every call afresh, which cost it as much as running them. The generic plan assumes a few ids and looks
 * each one up by index, on any table past a few thousand rows (docs/benchmarks.md, eighteenth round). The
 * record-and-fan-out reads its events from JSON, which every plan estimates at 100 rows whatever it holds; with 20,000
 * callbacks its generic plan still joins them by index (`callbacks_business`), and a small table is scanned (nineteenth
 * round).
 *
 * Handed over (`$2`), a delivery is also claimed for its first attempt in the fan-out: at most `$6` of them (0 claims
 * none), each within its callback's limit of claims in flight (`$4`), locked for `$5` seconds from the insert
 * (`clock_timestamp()`: later than the caller's clock reading before it sent the statement, which FirstAttempts counts
 * from). The in-process attempt then sends without a claim statement of its own. Like CLAIM_MANY it counts a
 * callback's claims in flight, so run it with bitmap scans off, as the dispatcher's consumer transactions do (see
 * CLAIM_MANY).
 */
export const RECORD_AND_FAN_OUT: PreparedStatement = {
  name: 'deliveries_record_and_fan_out',
  text: `WITH recorded AS (${recordNewEvents(7)}),
   fan_out AS (
     SELECT e.id AS event_id, c.id AS callback_id, c.is_active, c.is_active AND $2::boolean AS handed,
            array_position((SELECT $3::text[]), e.id) AS position
       FROM recorded e
       JOIN callbacks c ON c.business_id = e.business_id AND c.mode = e.mode AND c.deleted_at IS NULL
                       AND e.event_type = ANY (c.events)
   ),
   fan_out_claims AS ( -- as CLAIM_MANY counts: ranked, one callback's claims stay within its limit
     SELECT f.*, f.handed AND $6::int > 0
            AND row_number() OVER (PARTITION BY f.handed ORDER BY f.position, f.callback_id) <= $6::int
            AND row_number() OVER (PARTITION BY f.callback_id, f.handed ORDER BY f.position)
                + (SELECT count(*) FROM (SELECT FROM deliveries x
                    WHERE x.callback_id = f.callback_id AND x.locked_until IS NOT NULL AND x.locked_until > now()
                    LIMIT $4::int) in_flight) <= $4::int AS claimed
       FROM fan_out f
   ),
   fanned_deliveries AS (
     INSERT INTO deliveries (public_id, event_id, callback_id, status, next_attempt_at, last_error, enqueued_at,
                             enqueue_count, locked_until, lock_token)
     SELECT 'dlv_' || replace(gen_random_uuid()::text, '-', ''), k.event_id, k.callback_id,
            CASE WHEN k.is_active THEN 'pending' ELSE 'skipped' END,
            CASE WHEN k.is_active THEN now() END,
            CASE WHEN k.is_active THEN NULL ELSE 'callback disabled' END,
            CASE WHEN k.handed THEN now() END,
            CASE WHEN k.handed THEN 1 ELSE 0 END,
            CASE WHEN k.claimed THEN clock_timestamp() + make_interval(secs => $5::int) END,
            CASE WHEN k.claimed THEN gen_random_uuid() END
       FROM fan_out_claims k
      ORDER BY k.position, k.callback_id
     ON CONFLICT (event_id, callback_id) DO NOTHING
     RETURNING ${DELIVERY_COLUMNS}
   )
   SELECT ${DELIVERY_COLUMNS_I},
          CASE WHEN i.lock_token IS NOT NULL THEN
            (SELECT row_to_json(c) FROM callbacks c WHERE c.id = i.callback_id) END AS callback_json,
          CASE WHEN e.id IS NOT NULL THEN
            json_build_object('id', e.id, 'event_type', e.event_type, 'mode', e.mode,
                              'payload', e.payload, 'created_at', e.created_at) END AS event_json
     FROM fanned_deliveries i LEFT JOIN recorded e ON i.lock_token IS NOT NULL AND e.id = i.event_id
    ORDER BY i.id`,
};

/** What a claim returns of a delivery `d`: the row, its callback's row and its event, as an attempt sends them. */
const CLAIMED_COLUMNS = `${DELIVERY_COLUMNS_D},
      (SELECT row_to_json(c) FROM callbacks c WHERE c.id = d.callback_id) AS callback_json,
      (SELECT json_build_object('id', e.id, 'event_type', e.event_type, 'mode', e.mode,
                                'payload', e.payload, 'created_at', e.created_at)
         FROM webhook_events e WHERE e.id = d.event_id) AS event_json`;

/**
 * The claim finds its rows by id: `status` is compared with a sub-select, which no partial index's predicate matches,
 * so no plan reads every pending delivery (`deliveries_pending`) and hash-joins them with the few it claims, which
 * the generic plan did whenever the statistics put few deliveries pending (a backlog makes that a scan of all of
 * them). The count of a callback's claims in flight stops at its limit (LIMIT), which is all the comparison needs.
 * Run it only through claimMany's transaction, with bitmap scans off: a connection's cached plan does not follow
 * planner settings, so one run outside it could leave a bitmap plan that later runs reuse.
 */
export const CLAIM_MANY: PreparedStatement = {
  name: 'deliveries_claim_many',
  text: `WITH input AS (
     SELECT * FROM unnest((SELECT $1::bigint[]), (SELECT $2::int[]), (SELECT $3::int[]), (SELECT $4::int[]))
                AS t(id, attempt, lock_seconds, max_in_flight)
   ),
   ranked AS ( -- the count below predates this statement: ranked, one callback's claims stay within its limit
     SELECT t.*, row_number() OVER (PARTITION BY x.callback_id ORDER BY t.id) AS rank
       FROM input t JOIN deliveries x ON x.id = t.id
   )
   UPDATE deliveries d SET locked_until = now() + make_interval(secs => i.lock_seconds),
                           lock_token = gen_random_uuid(), updated_at = now()
     FROM ranked i
    WHERE d.id = i.id AND d.status = (SELECT 'pending'::text) AND d.attempts = i.attempt
      AND (d.locked_until IS NULL OR d.locked_until < now())
      AND (SELECT count(*) FROM (SELECT FROM deliveries x
            WHERE x.callback_id = d.callback_id AND x.locked_until IS NOT NULL AND x.locked_until > now()
            LIMIT i.max_in_flight) in_flight)
          + i.rank <= i.max_in_flight
    RETURNING ${CLAIMED_COLUMNS}`,
};

/**
 * Renews a claim its holder still has (its token is on the row): a new lock and token, and what the attempt sends as
 * it is now. For a claim made in the fan-out whose attempt waited too long to start on it.
 */
export const RENEW_CLAIM: PreparedStatement = {
  name: 'deliveries_renew_claim',
  text: `UPDATE deliveries d SET locked_until = now() + make_interval(secs => $3::int),
                              lock_token = gen_random_uuid(), updated_at = now()
          WHERE d.id = $1 AND d.lock_token = $2 AND d.status = 'pending' AND d.attempts = $4
      RETURNING ${CLAIMED_COLUMNS}`,
};

export const RECORD_SUCCESSES: PreparedStatement = {
  name: 'deliveries_record_successes',
  text: `WITH input AS (
     SELECT * FROM unnest((SELECT $1::bigint[]), (SELECT $2::uuid[]), (SELECT $3::int[]),
                         (SELECT $4::int[]), (SELECT $5::int[]))
                AS t(id, lock_token, previous, status_code, duration_ms)
   ), done AS (
     UPDATE deliveries d SET status = 'succeeded', attempts = i.previous + 1,
                             locked_until = NULL, lock_token = NULL,
                             next_attempt_at = NULL, last_error = NULL, updated_at = now()
       FROM input i
      WHERE d.id = i.id AND d.lock_token = i.lock_token AND d.status = 'pending' AND d.attempts = i.previous
     RETURNING d.id, i.previous, i.status_code, i.duration_ms
   ), attempt AS (
     INSERT INTO delivery_attempts (delivery_id, attempt, status_code, duration_ms, error)
     SELECT id, previous + 1, status_code, duration_ms, NULL FROM done ON CONFLICT DO NOTHING
   )
   SELECT id FROM done`,
};

const CALLBACK_DATES = [
  'last_triggered',
  'failing_since',
  'previous_secret_expires_at',
  'created_at',
  'updated_at',
  'deleted_at',
] as const;

/** A claimed delivery as a claim statement returns it: the row, its callback's and its event's as JSON. */
export type ClaimedRow = DeliveryRow & {
  callback_json: Record<string, unknown> | null;
  event_json: Record<string, unknown> | null;
};

/** A claimed row as the attempt takes it: the callback's and event's JSON back to rows. */
export function claimedAttempt({ callback_json, event_json, ...delivery }: ClaimedRow): ClaimedAttempt {
  return {
    delivery,
    callback: callback_json ? withDates<CallbackRow>(callback_json, CALLBACK_DATES) : null,
    event: withDates<WebhookEventRow>(event_json!, ['created_at']),
  };
}

/** Rows that travelled as JSON carry timestamps as strings: back to Dates, as pg gives them. */
function withDates<T>(json: Record<string, unknown>, fields: readonly string[]): T {
  const out: Record<string, unknown> = { ...json };
  for (const f of fields) out[f] = typeof out[f] === 'string' ? new Date(out[f] as string) : (out[f] ?? null);
  return out as T;
}
