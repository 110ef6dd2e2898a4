import { Inject, Injectable } from '@nestjs/common';
import { DataSource, GroupCommit, RUN_ALONE, type PreparedStatement, queryRows } from '@payments/database';
import { OUTBOX_INSERT_COLUMNS } from '@payments/messaging';
import { TransactionServiceConfig } from '../config/transaction.config';
import { ROW_COLUMNS, iso, type TransactionRow } from './transaction-row';
import { TransactionStore, type NewTransaction, type PreparedInsert } from './transaction-store';

/**
 * Many transactions and their events in one statement: CREATE_STATEMENT for a set of rows, passed
 * as one JSON document so the text (and its plan) does not depend on how many. A row that meets a
 * unique constraint is skipped (ON CONFLICT DO NOTHING), not an error for the others: it is not
 * returned, and its caller's insert runs alone to get the answer it would have had
 * (TransactionInsertBatch). Rows go in the order given, so of two with one reference the first wins.
 */
const INSERT_MANY: PreparedStatement = {
  name: 'transactions_create_many',
  text: `WITH r AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(i integer, public_id text, business_id integer, mode text, reference text,
           amount bigint, charges bigint, total bigint, currency text, email text, payment_method_type text, payment_method_code text,
           mobile_money_number text, requested_response text, status text, message text, checkout_id text, success_url text,
           failure_url text, payment_link_id text, link_splits jsonb, expires_in double precision, checkout_attempt text,
           version integer, settle_at timestamptz, metadata jsonb, description text, events jsonb)
       ), t AS (
         INSERT INTO transactions (public_id, business_id, mode, reference, amount, charges, total, currency, email,
           payment_method_type, payment_method_code, mobile_money_number, requested_response, status, message,
           checkout_id, success_url, failure_url, payment_link_id, link_splits, expires_at, checkout_attempt, version, settle_at,
           metadata, description)
         SELECT public_id, business_id, mode, reference, amount, charges, total, currency, email,
           payment_method_type, payment_method_code, mobile_money_number, requested_response, status, message,
           checkout_id, success_url, failure_url, payment_link_id, link_splits, now() + make_interval(secs => expires_in), checkout_attempt,
           version, settle_at, metadata, description
           FROM r ORDER BY i
         ON CONFLICT DO NOTHING
         RETURNING ${ROW_COLUMNS}
       ), event AS (
         INSERT INTO outbox_events (${OUTBOX_INSERT_COLUMNS})
         SELECT e.event_id, e.topic, e.message_key,
                jsonb_set(jsonb_set(jsonb_set(e.payload, '{data,transaction,id}', to_jsonb(t.id)),
                  '{data,transaction,date_created}', ${iso('t.created_at')}), '{data,transaction,date_updated}', ${iso('t.updated_at')}),
                e.headers
           FROM t JOIN r ON r.public_id = t.public_id,
                jsonb_to_recordset(r.events) AS e(n integer, event_id uuid, topic text, message_key text, payload jsonb, headers jsonb)
          ORDER BY r.i, e.n
       )
       SELECT * FROM t`,
};

/** One row of INSERT_MANY's document; field names as the columns, so log redaction recognises them (metadata, description, mobile number). */
function record({ draft, row, outbox, expiresInSeconds, checkoutAttempt }: PreparedInsert, i: number) {
  return {
    i,
    public_id: draft.public_id,
    business_id: draft.business_id,
    mode: draft.mode,
    reference: draft.reference,
    amount: draft.amount,
    charges: draft.charges,
    total: draft.total,
    currency: draft.currency,
    email: draft.email,
    payment_method_type: draft.payment_method_type,
    payment_method_code: draft.payment_method_code,
    mobile_money_number: draft.mobile_money_number,
    requested_response: draft.requested_response,
    status: row.status,
    message: row.message,
    checkout_id: draft.checkout_id,
    success_url: draft.success_url,
    failure_url: draft.failure_url,
    payment_link_id: draft.payment_link_id,
    link_splits: draft.link_splits,
    expires_in: expiresInSeconds,
    checkout_attempt: checkoutAttempt,
    version: row.version,
    settle_at: row.settle_at,
    metadata: draft.metadata,
    description: draft.description,
    events: outbox,
  };
}

/**
 * Group commit of the initialize inserts (docs/decisions/0013-group-commit-of-initialize.md): an
 * insert that finds fewer than INITIALIZE_INSERTS_IN_FLIGHT statements running goes out at once
 * as the single-row statement; those that arrive while that many run go out together in one
 * INSERT_MANY. Still one statement, so one atomic autocommit transaction: every caller is answered
 * only after the statement that carries its row committed. Each caller gets the answer it would
 * have had alone: a row skipped by a unique constraint, and every row of a statement that failed
 * for any reason but the connection (one row's CHECK or data error rolls the statement back), runs
 * again alone; a connection lost in flight gives every caller of that statement the same
 * OutcomeUnknownError, and a pool that cannot connect the same connect error, as one insert would.
 *
 * Only for inserts run on the pool: one inside a caller's transaction (a checkout attempt) must see
 * that transaction, and uses TransactionStore.create.
 */
@Injectable()
export class TransactionInsertBatch {
  private readonly group: GroupCommit<PreparedInsert, TransactionRow>;

  constructor(
    private readonly ds: DataSource,
    private readonly store: TransactionStore,
    @Inject(TransactionServiceConfig) config: TransactionServiceConfig,
  ) {
    this.group = new GroupCommit((items) => this.write(items), {
      max: config.INITIALIZE_BATCH_MAX,
      inFlight: config.INITIALIZE_INSERTS_IN_FLIGHT,
      alone: (item) => this.store.insert(this.ds, item),
    });
  }

  async create(t: NewTransaction, correlationId: string | null): Promise<TransactionRow> {
    return this.group.submit(this.store.prepare(t, correlationId));
  }

  private async write(items: PreparedInsert[]): Promise<(TransactionRow | typeof RUN_ALONE)[]> {
    // A lone insert keeps the single-row statement: its plan, and its exact error, unchanged.
    if (items.length === 1) return [await this.store.insert(this.ds, items[0])];
    const rows = await queryRows<TransactionRow>(this.ds, INSERT_MANY, [JSON.stringify(items.map(record))]);
    const byId = new Map(rows.map((r) => [r.public_id, r]));
    return items.map((item) => byId.get(item.draft.public_id) ?? RUN_ALONE);
  }
}
