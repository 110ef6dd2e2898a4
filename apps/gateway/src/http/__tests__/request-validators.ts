import { parse as parseQuery } from 'node:querystring';
import { CreateBusinessDto, RedirectOriginsDto, RollKeyDto } from '../../businesses/business.requests';
import {
  AdminRecoverDto,
  CallbackPageQuery,
  CreateCallbackDto,
  DeliveriesQuery,
  RecoverDto,
  UpdateCallbackDto,
} from '../../callbacks/callback.requests';
import { CONNECTION_BODIES } from '../../connections/connection.requests';
import { ListEventsQuery } from '../../events/event.requests';
import { CreateLinkDto, ListLinksQuery, UpdateLinkDto } from '../../links/link.requests';
import { ReconcileIdsDto, ReconcilePageQuery, ReconcileTransactionIdsDto } from '../../reconcile/reconcile.requests';
import { ResolveRefundDto } from '../../refunds/refund.requests';
import { InvoicePageQuery, LedgerPageQuery, SplitConfigPageQuery } from '../../splits/split.requests';
import {
  FetchTransactionQuery,
  InitializeTransactionDto,
  ListRefundsQuery,
  ListTransactionsQuery,
  RefundDto,
  VerifyTransactionQuery,
} from '../../transactions/transaction.requests';
import { CreateSplitConfigDto, UpdateSplitConfigDto } from '../../splits/split.requests';
import { ApiException } from '../api-exception';
import type { RequestObject } from '../request-schema';
import { validateRequest } from '../request-validation';
/** What validation made of a request: the value the handler receives, or the 400 it answers. */
export type Outcome =
  { ok: unknown } | { message?: string; errors?: { field: string; message: string }[] } | { crash: string };

/** The request schema each endpoint validates its body or query with. */
export const SCHEMA_OF: Record<string, RequestObject> = {
  'POST /admin/v1/businesses': CreateBusinessDto,
  'POST /admin/v1/businesses/{id}/keys/roll': RollKeyDto,
  'PUT /v1/settings/redirect_origins': RedirectOriginsDto,
  'POST /v1/callback': CreateCallbackDto,
  'PUT /v1/callback/{id}': UpdateCallbackDto,
  'POST /v1/callback/{id}/recover': RecoverDto,
  'POST /admin/v1/webhooks/recover': AdminRecoverDto,
  'PUT /v1/connections/paynow': CONNECTION_BODIES.paynow,
  'PUT /v1/connections/dpo': CONNECTION_BODIES.dpo,
  'PUT /v1/connections/ozow': CONNECTION_BODIES.ozow,
  'POST /v1/links': CreateLinkDto,
  'POST /v1/links/{id}': UpdateLinkDto,
  'POST /admin/v1/reconcile/ledger': ReconcileIdsDto,
  'POST /admin/v1/reconcile/webhook-transactions': ReconcileTransactionIdsDto,
  'POST /admin/v1/refunds/{refund_id}/complete': ResolveRefundDto,
  'POST /v1/splits/config': CreateSplitConfigDto,
  'PUT /v1/splits/config/{public_id}': UpdateSplitConfigDto,
  'POST /v1/transactions': InitializeTransactionDto,
  'POST /v1/transactions/refund': RefundDto,
  'GET /v1/transactions/verify': VerifyTransactionQuery,
  'GET /v1/transactions/fetch': FetchTransactionQuery,
  'GET /v1/transactions/list': ListTransactionsQuery,
  'GET /v1/transactions/refunds': ListRefundsQuery,
  'GET /v1/links': ListLinksQuery,
  'GET /v1/callback/list': CallbackPageQuery,
  'GET /v1/callback/{id}/deliveries': DeliveriesQuery,
  'GET /v1/events': ListEventsQuery,
  'GET /admin/v1/reconcile/transactions': ReconcilePageQuery,
  'GET /v1/splits/ledger': LedgerPageQuery,
  'GET /v1/splits/invoices': InvoicePageQuery,
  'GET /v1/splits/config': SplitConfigPageQuery,
};

/** The value as JSON would carry it to a service, with -0 told apart from 0. */
function snapshot(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_k, v: unknown) => (Object.is(v, -0) ? '<-0>' : v)) ?? 'null');
}

export function validateAs(endpoint: string, value: unknown): Outcome {
  try {
    return { ok: snapshot(validateRequest(SCHEMA_OF[endpoint], value)) };
  } catch (err) {
    if (!(err instanceof ApiException)) return { crash: String(err) };
    return err.errors === undefined ? { message: err.message } : { message: err.message, errors: err.errors };
  }
}

/** The request as the gateway's parsers hand it to validation. */
export function parsedInput(kind: 'body' | 'query', text: string | null, change: string): unknown {
  if (kind === 'query') return parseQuery(text ?? '');
  return change === 'no body' ? undefined : JSON.parse(text!);
}

/** An outcome as a case records it: the message only when it is not the first error's field and message. */
export function compact(outcome: Outcome): Outcome {
  if (
    !('message' in outcome) ||
    !outcome.errors ||
    outcome.message !== `${outcome.errors[0].field} ${outcome.errors[0].message}`
  )
    return outcome;
  return { errors: outcome.errors };
}
