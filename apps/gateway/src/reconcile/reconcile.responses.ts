import { MODES, REFUND_STATUSES, TRANSACTION_STATUSES } from '@payments/contracts';
import { Bool, Closed, Int, List, Nullable, Str, StringEnum, type Static } from '@payments/contracts/schemas';
import { Ok } from '../http/responses';

/** Answers of the reconcile admin API (`ops reconcile`): the handlers' return types and the OpenAPI schemas. */
const Mode = StringEnum(MODES);
const TxStatus = StringEnum(TRANSACTION_STATUSES);
const Refund = Closed({ id: Str(), amount: Int(), status: StringEnum(REFUND_STATUSES) });
const Next = Nullable(Str('Cursor of the next page; null on the last'));

export const ReconcileTransactions = Ok({
  transactions: List(
    Closed({
      id: Str(),
      transaction_id: Str(),
      business_id: Int(),
      mode: Mode,
      amount: Int(),
      status: TxStatus,
      refunds: List(Refund),
      updated_at: Str(),
    }),
  ),
  next: Next,
});
export type ReconcileTransactions = Static<typeof ReconcileTransactions>;

export const ReconcileLedger = Ok({
  transactions: List(
    Closed({
      id: Str(),
      status: TxStatus,
      amount: Int(),
      refunds: List(Refund),
      splits: List(Closed({ key: Str(), amount: Int(), reversed: Int() })),
      expected: List(Closed({ key: Str(), amount: Int() })),
    }),
  ),
});
export type ReconcileLedger = Static<typeof ReconcileLedger>;

export const ReconcileWebhookTransactions = Ok({
  transactions: List(Closed({ transaction_id: Str(), status: TxStatus })),
  retained_since: Str('Events older than this may have been pruned (EVENT_RETENTION)'),
});
export type ReconcileWebhookTransactions = Static<typeof ReconcileWebhookTransactions>;

export const ReconcileWebhookEvents = Ok({
  events: List(
    Closed({
      event_id: Str(),
      event_type: Str(),
      business_id: Int(),
      mode: Mode,
      created_at: Str(),
      delivered_to: List(Int()),
    }),
  ),
  next: Next,
});
export type ReconcileWebhookEvents = Static<typeof ReconcileWebhookEvents>;

export const ReconcileCallbacks = Ok({
  callbacks: List(
    Closed({
      id: Int(),
      business_id: Int(),
      mode: Mode,
      events: List(Str()),
      is_active: Bool(),
      deleted: Bool(),
      created_at: Str(),
    }),
  ),
  next: Next,
});
export type ReconcileCallbacks = Static<typeof ReconcileCallbacks>;
