import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { DELIVERY_STATUSES } from '@payments/contracts';

/** Response shapes of the public API, as the presenters build them (docs/api.md). */
const str = (description?: string): SchemaObject => ({ type: 'string', ...(description ? { description } : {}) });
const int = (description?: string): SchemaObject => ({ type: 'integer', ...(description ? { description } : {}) });
const num = (description?: string): SchemaObject => ({ type: 'number', ...(description ? { description } : {}) });
const bool = (): SchemaObject => ({ type: 'boolean' });
const nullable = (s: SchemaObject): SchemaObject => ({ ...s, nullable: true });
const arr = (items: SchemaObject): SchemaObject => ({ type: 'array', items });
const obj = (properties: Record<string, SchemaObject>): SchemaObject => ({ type: 'object', properties, required: Object.keys(properties) });
const success = { type: 'string', enum: ['success'] } as SchemaObject;
const ok = (properties: Record<string, SchemaObject>) => obj({ result: success, ...properties });
const status = { type: 'string', enum: ['pending', 'processing', 'success', 'failed'] } as SchemaObject;

/** An event: exactly the body of its webhook deliveries. */
const event = obj({
  id: str('evt_…, the webhook-id header of its deliveries'),
  event: str('The event type'),
  created_at: str(),
  mode: { type: 'string', enum: ['test', 'live'] },
  data: { type: 'object', description: 'The payload of this event type (docs/api.md, Webhooks)' },
});

export const ErrorBody = obj({
  result: { type: 'string', enum: ['error'] },
  code: {
    type: 'string',
    enum: [
      'validation_error', 'invalid_api_key', 'secret_key_required', 'not_found', 'duplicate_reference', 'idempotency_in_progress',
      'idempotency_key_reused', 'refund_exceeds_amount', 'transaction_not_refundable', 'payment_method_unavailable',
      'link_inactive', 'payload_too_large', 'rate_limited', 'internal_error', 'service_unavailable',
    ],
  },
  message: str(),
  errors: arr(obj({ field: str(), message: str() })),
  request_id: str('Also sent as the X-Request-Id header'),
});
(ErrorBody.required as string[]).splice((ErrorBody.required as string[]).indexOf('errors'), 1);

/** The merchant's own data on transactions, links and refunds (docs/api.md, Metadata and description). */
const metadata: SchemaObject = { type: 'object', additionalProperties: { type: 'string' }, description: 'Your key-value pairs; {} when none were set' };
const description = nullable(str('Your free text; null when none was set'));
const annotations = { metadata, description };

const refundStatus = { type: 'string', enum: ['pending', 'success', 'failed'] } as SchemaObject;
const refundFields = {
  refund_id: str(), status: refundStatus, amount: int(), currency: str(), transaction_id: str(),
  transaction_reference: str(), message: str(), reason: nullable(str('Free text given when the refund was asked for')), ...annotations, date_created: str(), date_updated: str(),
};
const amountRefunded = int('Sum of the successful refunds, minor units');

const paymentLink = obj({
  payment_link_id: str(), hosted_payment_link: str('Page where customers pay'), amount: int(), charges: int(), total: int(), currency: str(), description: str(), metadata,
  splits: arr(obj({ business_id: int(), type: { type: 'string', enum: ['percentage', 'fixed'] }, value: int('Basis points for percentage, minor units for fixed'), description: nullable(str()) })),
  success_url: nullable(str()), failure_url: nullable(str()), active: bool(), is_active: bool(), date_created: str(), date_updated: str(),
  date_deactivated: nullable(str()),
});

const callbackLong = obj({
  id: str('The spec types the fetched callback id as a string'),
  url: str(), description: str(), events: arr(str()), is_active: bool(), failure_count: int(),
  last_triggered: nullable(str()), date_created: str(), date_updated: str(),
});

const ledgerEntry = obj({
  public_id: str(), transaction_id: int(), split_config_id: nullable(int()), creditor_business_id: int(), debtor_business_id: int(),
  amount: int('Minor units; negative for a refund reversal'), currency: str(), status: str(), invoice_reference: nullable(str()),
  settlement_date: nullable(str('YYYY-MM-DD HH:MM:SS')), date_created: str('YYYY-MM-DD HH:MM:SS'),
});

const splitConfig = obj({
  public_id: str(), owner_business_id: int(), partner_business_id: int(), split_type: { type: 'string', enum: ['percentage', 'fixed'] },
  split_value: int(), split_role: { type: 'string', enum: ['fee', 'principal'] }, currency: str(), description: nullable(str()), is_active: bool(),
});

const keys = obj({ secret: str(), public: str() });

/** Success response per operation id (controller_method). */
export const RESPONSES: Record<string, { status: number; schema?: SchemaObject; description: string; contentType?: string }> = {
  AdminController_createBusiness: {
    status: 201,
    description: 'The business and its four API keys, shown only this once',
    schema: ok({ business: obj({ id: int(), name: str() }), api_keys: obj({ test: keys, live: keys }) }),
  },
  AdminController_rollKey: {
    status: 201,
    description: 'The new key; the previous one stops working at previous_key_expires_at',
    schema: ok({ mode: str(), type: str(), api_key: str(), previous_key_expires_at: str() }),
  },
  SettingsController_getRedirectOrigins: { status: 200, description: 'Origins public-key payments may redirect to', schema: ok({ redirect_origins: arr(str()) }) },
  SettingsController_setRedirectOrigins: { status: 200, description: 'The list, replaced', schema: ok({ message: str(), redirect_origins: arr(str()) }) },
  AdminController_getRedirectOrigins: { status: 200, description: 'Origins public-key payments may redirect to', schema: ok({ redirect_origins: arr(str()) }) },
  AdminController_setRedirectOrigins: { status: 200, description: 'The list, replaced', schema: ok({ message: str(), redirect_origins: arr(str()) }) },
  TransactionsController_initialize: {
    status: 200,
    description: 'Transaction initialized',
    schema: {
      type: 'object',
      required: ['result', 'transaction_id', 'transaction_reference', 'message', 'total', 'metadata', 'description'],
      properties: {
        result: success,
        transaction_id: str(),
        transaction_reference: str(),
        message: str(),
        total: num('Amount plus charges in MAJOR units'),
        checkout_url: str('Present when the customer completes the payment on the hosted page'),
        ...annotations,
      },
    },
  },
  TransactionsController_verify: {
    status: 200,
    description: 'The transaction',
    schema: ok({
      transaction_id: str(), transaction_reference: str(), amount: int(), charges: int(), total: int(), currency: str(), status,
      emailAddress: str(), checkoutId: nullable(str()), successUrl: nullable(str()), failureUrl: nullable(str()), dateCreated: str('ISO 8601'),
      amount_refunded: amountRefunded, ...annotations,
    }),
  },
  TransactionsController_list: {
    status: 200,
    description: 'Newest first, one page (cursor: starting_after / ending_before)',
    schema: ok({
      has_more: bool(), 
      transactions: arr(
        obj({
          transaction_id: str(), amount: str('Decimal string in major units'), currency: str(), status, message: str(), ...annotations,
          details: obj({
            transaction_reference: str(), charges: str(), total: str(), email: str(), payment_method_type: nullable(str()),
            payment_method_code: nullable(str()), payment_link_id: nullable(str()), amount_refunded: amountRefunded, date_created: str(), date_updated: str(),
          }),
        }),
      ),
    }),
  },
  TransactionsController_fetch: {
    status: 200,
    description: 'The Transaction model',
    schema: ok({
      transactionId: str(), transactionReference: str(), amount: int(), charges: int(), total: int(), currency: str(), emailAddress: str(),
      status, checkoutId: nullable(str()), successUrl: nullable(str()), failureUrl: nullable(str()), dateCreated: str(),
      amount_refunded: amountRefunded, ...annotations,
    }),
  },
  TransactionsController_refund: {
    status: 200,
    description: 'Refund accepted',
    schema: ok({ message: str(), refund_id: str(), status: { type: 'string', enum: ['pending'] }, amount: int('The amount asked for, or all that was left'), reason: nullable(str()), ...annotations }),
  },
  TransactionsController_listRefunds: {
    status: 200,
    description: "The transaction's refunds, oldest first: all of them, or one page when a limit or cursor is given",
    schema: ok({ refunds: arr(obj(refundFields)), has_more: bool() }),
  },
  TransactionsController_getRefund: {
    status: 200,
    description: 'The refund',
    schema: ok(refundFields),
  },
  LinksController_create: {
    status: 200,
    description: 'Payment link created',
    schema: ok({ payment_link_id: str(), hosted_payment_link: str(), message: str('States amount, charges and total'), description: str(), metadata }),
  },
  LinksController_list: {
    status: 200,
    description: 'Newest first; has_more says whether another page follows in the direction asked',
    schema: ok({ links: arr(paymentLink), has_more: bool() }),
  },
  LinksController_get: { status: 200, description: 'The payment link', schema: ok(paymentLink.properties as Record<string, SchemaObject>) },
  LinksController_update: {
    status: 200,
    description: 'The link with its new description and metadata (a metadata key set to "" removed; null or "" removes all)',
    schema: ok(paymentLink.properties as Record<string, SchemaObject>),
  },
  LinksController_deactivate: {
    status: 200,
    description: 'The link, now inactive (idempotent); its page says it is no longer active and refuses payments',
    schema: ok(paymentLink.properties as Record<string, SchemaObject>),
  },
  CheckoutController_css: { status: 200, description: 'Stylesheet of the hosted checkout page', contentType: 'text/css' },
  CheckoutController_show: { status: 200, description: 'The hosted checkout page (HTML); 303 to the merchant once the payment ended', contentType: 'text/html' },
  CheckoutController_pay: { status: 303, description: 'Redirect to the checkout page of the transaction' },
  CallbacksController_create: { status: 200, description: 'Callback created (no id, as the spec says)', schema: ok({ message: str() }) },
  CallbacksController_list: {
    status: 200,
    description: 'Superset item shape',
    schema: ok({
      message: str(),
      total_count: int(),
      has_more: bool(), 
      callbacks: arr(
        obj({
          id: int(), url: str(), description: str(), events: arr(str()), is_active: bool(), failure_count: int(), last_triggered: nullable(str()),
          date_created: str(), date_updated: str(), dateCreated: str(),
        }),
      ),
    }),
  },
  CallbacksController_fetch: { status: 200, description: 'The callback', schema: ok({ callback: callbackLong }) },
  CallbacksController_get: { status: 200, description: 'The callback', schema: ok({ callback: callbackLong }) },
  CallbacksController_update: { status: 200, description: 'Updated', schema: ok({ message: str() }) },
  CallbacksController_remove: { status: 200, description: 'Deleted; pending deliveries cancelled', schema: ok({ message: str() }) },
  CallbacksController_secret: { status: 200, description: 'The signing secret', schema: ok({ secret: str(), previous_secret_expires_at: nullable(str()) }) },
  CallbacksController_roll: { status: 200, description: 'A new signing secret', schema: ok({ message: str(), secret: str(), previous_secret_expires_at: nullable(str()) }) },
  CallbacksController_deliveries: {
    status: 200,
    description: 'Delivery log, newest first',
    schema: ok({
      total_count: int(),
      has_more: bool(), 
      deliveries: arr(
        obj({
          delivery_id: str(), event_id: str(), event: str(), status: { type: 'string', enum: [...DELIVERY_STATUSES] },
          attempts: arr(obj({ attempt: int(), status_code: nullable(int()), duration_ms: int(), error: nullable(str()), date_created: str() })),
          next_attempt_at: nullable(str()), date_created: str(),
        }),
      ),
    }),
  },
  CallbacksController_resend: { status: 200, description: 'Queued again', schema: ok({ message: str(), delivery_id: str(), status: str() }) },
  CallbacksController_recover: { status: 200, description: 'Failed and skipped deliveries queued again', schema: ok({ message: str(), requeued: int() }) },
  CallbacksController_test: {
    status: 200,
    description: 'A signed ping was sent now; status_code is null (and error set) when the endpoint could not be reached',
    schema: ok({ message: str(), event_id: str(), delivery_id: str(), status_code: nullable(int()), duration_ms: int(), error: nullable(str()) }),
  },
  EventsController_list: { status: 200, description: 'One page of events, newest first', schema: ok({ events: arr(event), has_more: bool() }) },
  EventsController_get: { status: 200, description: 'The event', schema: ok({ event }) },
  ReconcileAdminController_listTransactions: {
    status: 200,
    description: 'One page of transactions with their refunds, as transaction-service recorded them',
    schema: ok({ transactions: arr(obj({ id: str(), transaction_id: str(), business_id: int(), mode: str(), amount: int(), status: str(), refunds: arr(obj({ id: str(), amount: int(), status: str() })), updated_at: str() })), next: nullable(str()) }),
  },
  ReconcileAdminController_ledgerOf: {
    status: 200,
    description: "The ledger's copy of the given transactions: refunds, split entries with what their reversals undo, and the entries its rules expect",
    schema: ok({
      transactions: arr(
        obj({
          id: str(), status: str(), amount: int(),
          refunds: arr(obj({ id: str(), amount: int(), status: str() })),
          splits: arr(obj({ key: str(), amount: int(), reversed: int() })),
          expected: arr(obj({ key: str(), amount: int() })),
        }),
      ),
    }),
  },
  ReconcileAdminController_webhookTransactions: {
    status: 200,
    description: 'The status of the latest transaction.* event webhook-dispatcher recorded per transaction',
    schema: ok({ transactions: arr(obj({ transaction_id: str(), status: str() })), retained_since: str('Events older than this may have been pruned (EVENT_RETENTION)') }),
  },
  ReconcileAdminController_webhookEvents: {
    status: 200,
    description: 'One page of catalogue events with the callbacks each has a delivery for',
    schema: ok({ events: arr(obj({ event_id: str(), event_type: str(), business_id: int(), mode: str(), created_at: str(), delivered_to: arr(int()) })), next: nullable(str()) }),
  },
  ReconcileAdminController_webhookCallbacks: {
    status: 200,
    description: 'One page of callbacks',
    schema: ok({ callbacks: arr(obj({ id: int(), business_id: int(), mode: str(), events: arr(str()), is_active: bool(), deleted: bool(), created_at: str() })), next: nullable(str()) }),
  },
  WebhooksAdminController_recover: {
    status: 200,
    description: 'One page of the failed and skipped deliveries queued again (or, dry run, that would be)',
    schema: ok({
      dry_run: bool(),
      deliveries: arr(obj({ delivery_id: str(), callback_id: int(), event_id: str(), event: str(), status: { type: 'string', enum: ['failed', 'skipped'] }, date_created: str() })),
      next: nullable(str()),
      total: nullable(int()),
    }),
  },
  HealthController_live: { status: 200, description: 'The process is up', schema: obj({ status: str() }) },
  HealthController_ready: { status: 200, description: 'Dependencies reachable (503 otherwise)', schema: obj({ status: str(), checks: { type: 'object', additionalProperties: str() } }) },
  SplitsController_create: { status: 200, description: 'Split config created', schema: ok({ split_config: splitConfig, message: str() }) },
  SplitsController_list: {
    status: 200,
    description: 'The business’s split configs, newest first: all of them, or one page when a limit is given',
    schema: ok({ split_configs: arr({ ...splitConfig, properties: { ...splitConfig.properties, date_created: str('YYYY-MM-DD HH:MM:SS') } }), count: int(), has_more: bool() }),
  },
  SplitsController_update: { status: 200, description: 'Split config updated', schema: ok({ split_config: splitConfig, message: str() }) },
  SplitsController_deactivate: { status: 200, description: 'Deactivated (repeatable)', schema: ok({ public_id: str(), message: str() }) },
  SplitsController_entries: { status: 200, description: 'Ledger entries, newest first', schema: ok({ ledger_entries: arr(ledgerEntry), count: int(), has_more: bool() }) },
  SplitsController_summary: {
    status: 200,
    description: 'Unsettled totals per currency',
    schema: ok({ summary: obj({ owed_to_you: arr(obj({ currency: str(), total: int() })), you_owe: arr(obj({ currency: str(), total: int() })) }) }),
  },
  SplitsController_invoices: { status: 200, description: 'Settlement invoices of the business', schema: { type: 'object', properties: { result: success, has_more: bool() } } },
  SettlementAdminController_run: { status: 200, description: 'Invoices issued by this run', schema: { type: 'object', properties: { result: success } } },
  SettlementAdminController_paid: { status: 200, description: 'Invoice marked paid; entries settled', schema: { type: 'object', properties: { result: success } } },
};
