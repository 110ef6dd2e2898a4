/**
 * The port every payment-provider connector implements (Paynow now; DPO Pay and Ozow later): plain
 * types, no Nest, no database. A connector turns one provider's wire protocol into these outcomes
 * and never throws for a provider problem (timeouts, garbage, bad signatures): it answers
 * `unknown` instead.
 *
 * The one rule every outcome keeps: only an explicit, authenticated provider answer says that a
 * payment succeeded, failed or was refused. Anything uncertain is `unknown`, and the caller finds
 * out later (sync by poll URL or by our transaction id) instead of guessing.
 */

export type ProviderName = 'paynow' | 'dpo' | 'ozow';

/**
 * Our statuses, as the transaction status machine knows them:
 * - `pending`: not yet at the provider, or at the provider but the customer has not acted yet
 *   (a redirect not followed, a code not yet entered);
 * - `processing`: the provider holds it and the customer has been asked to pay (a USSD push sent,
 *   an upstream system reached);
 * - `success` / `failed`: the provider said so explicitly.
 */
export type ConnectorStatus = 'pending' | 'processing' | 'success' | 'failed';

export interface InitiateRequest {
  /** Our public transaction id (at most 32 characters): Paynow's `merchanttrace`, what `sync` finds it by without a poll URL. */
  transactionId: string;
  /** The merchant-visible reference the provider echoes in every update. */
  reference: string;
  /** The total to charge, in minor units of `currency`. */
  amountMinor: number;
  currency: string;
  /** The provider's method code (Paynow: ecocash, onemoney, innbucks, zimswitch, vmc). */
  method: string;
  /** The wallet to debit (mobile money), as the customer gave it. */
  phone: string | null;
  email: string;
  description: string | null;
  /** Where the provider posts status updates (our notifications endpoint). */
  resultUrl: string;
  /** Where the customer's browser goes back to after a redirect flow. */
  returnUrl: string;
  /** A stored card token (recurring card payment without the customer); absent for every other payment. */
  paymentToken?: string | null;
}

export type InitiateOutcome =
  | {
      kind: 'accepted';
      status: ConnectorStatus;
      providerReference: string | null;
      pollUrl: string | null;
      /** Where to send the customer's browser (redirect flows). */
      redirectUrl: string | null;
      /** What to show the customer (e.g. "dial *151# and approve"). */
      instructions: string | null;
      /** A code the customer enters or scans in their wallet app (InnBucks), and until when it is valid, as the provider wrote it. */
      authorizationCode: string | null;
      authorizationExpires: string | null;
    }
  /**
   * Nothing was created at the provider. `source: 'provider'`: the provider explicitly refused it
   * (the reason is its error text). `source: 'connector'`: the connector refused to send it (a
   * request the provider cannot take: unsupported currency or method, a missing phone…).
   */
  | { kind: 'declined'; reason: string; source: 'provider' | 'connector' }
  /**
   * May or may not exist at the provider: timeout, connection reset, 5xx, garbage, a reply whose
   * signature does not verify. `sent: false` only when the request certainly never reached the
   * provider (connection refused, DNS failure, TLS handshake refused).
   */
  | { kind: 'unknown'; reason: string; sent: boolean };

/** One authenticated statement of the provider about a payment. */
export interface ProviderUpdate {
  /** The provider's own status word, as it wrote it (trimmed), e.g. 'Paid', 'Refunded'. */
  providerStatus: string;
  status: ConnectorStatus;
  /** Whether the connector knows `providerStatus`; an unknown one maps to `processing`, never to a final status. */
  recognized: boolean;
  /**
   * The provider says the payment was paid and later refunded there (Paynow `Refunded`): `status`
   * is then `success`, the money having been collected, and the caller decides what a refund it did
   * not ask for means.
   */
  refunded: boolean;
  /** Our reference, as the provider echoed it: the caller checks it is the transaction's. */
  reference: string;
  /** The amount the provider says, in minor units; null when it sent none. The caller compares it with the transaction's. */
  amountMinor: number | null;
  providerReference: string | null;
  pollUrl: string | null;
}

export type SyncOutcome = { kind: 'status'; update: ProviderUpdate } | { kind: 'not_found' } | { kind: 'unknown'; reason: string };

/** `reason` is safe to log: it never holds a secret, a phone number or a body. */
export type NotificationOutcome = { kind: 'valid'; update: ProviderUpdate } | { kind: 'invalid'; reason: string };

export interface RefundRequest {
  providerReference: string;
  amountMinor: number;
  currency: string;
  reason: string | null;
  /** Our refund id: the provider's idempotency key where it has one. */
  refundId: string;
}

export type RefundOutcome =
  | { kind: 'succeeded' | 'pending'; providerRefundId: string | null }
  | { kind: 'declined'; reason: string }
  | { kind: 'unknown'; reason: string };

export type CredentialsResult<C> = { ok: true; value: C } | { ok: false; field: string; message: string };

export interface Connector<C> {
  readonly provider: ProviderName;
  /** The provider's method codes this connector can initiate. */
  readonly methods: readonly string[];
  /** Validates stored or submitted credentials; names the bad field. */
  parseCredentials(input: unknown): CredentialsResult<C>;
  /** An identifier of the credentials that is safe to show and log, e.g. 'int_…1201'. */
  maskedId(c: C): string;
  initiate(c: C, req: InitiateRequest, opts: { timeoutMs: number }): Promise<InitiateOutcome>;
  /**
   * The provider's current statement about a payment: by its poll URL, or, when none is known
   * (the initiate outcome was unknown), by our transaction id. `not_found` is an authenticated
   * "no such payment"; it does not say that one will never appear (a request still in flight).
   */
  sync(c: C, target: { pollUrl: string | null; transactionId: string }, opts: { timeoutMs: number }): Promise<SyncOutcome>;
  /** Authenticates a status update the provider posted to our result URL (the raw body, as received). */
  verifyNotification(c: C, rawBody: string, contentType: string | undefined): NotificationOutcome;
  /** Absent when the provider has no refund API (Paynow). */
  refund?(c: C, req: RefundRequest, opts: { timeoutMs: number }): Promise<RefundOutcome>;
}
