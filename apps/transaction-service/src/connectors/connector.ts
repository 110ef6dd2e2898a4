/**
 * The port every payment-provider connector implements (plain types, no Nest, no database). A connector never throws
 * for a provider problem: only an explicit, authenticated answer says success, failed or refused; anything uncertain is
 * `unknown`, settled later by sync instead of guessing.
 */

export type ProviderName = 'paynow' | 'dpo' | 'ozow';

/** How messages to merchants and customers name each provider. */
export const PROVIDER_NAMES: Readonly<Record<ProviderName, string>> = {
  paynow: 'Paynow',
  dpo: 'DPO Pay',
  ozow: 'Ozow',
};

/**
 * Our statuses: `pending` until the customer has acted (even if the provider has it), `processing`
 * once the customer has been asked to pay, `success` / `failed` only when the provider said so.
 */
export type ConnectorStatus = 'pending' | 'processing' | 'success' | 'failed';

export interface InitiateRequest {
  /** Our public transaction id (at most 32 characters), Paynow's `merchanttrace`: `sync` finds it by this. */
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
  /**
   * Where the customer's browser comes back to, whatever happened: our return endpoint, which syncs
   * before sending the customer on. Providers with several return URLs get this one for each.
   */
  returnUrl: string;
  /** A test payment (a test-mode connection): providers with a test flag get it (Ozow's IsTest). Absent: live. */
  test?: boolean;
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
      /** A code the customer enters or scans in their wallet app (InnBucks), and its expiry as the provider gave it. */
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
  /**
   * The reference the provider echoed (the merchant's reference or our id, whichever was sent); the caller checks it is
   * this transaction's. Null when the provider's statement carries none (DPO's verifyToken).
   */
  reference: string | null;
  /** The amount the provider says, in minor units (null: none sent). The caller compares it with the transaction's. */
  amountMinor: number | null;
  /** The currency the provider says (ISO 4217), when it says one. The caller compares it with the transaction's. */
  currency?: string | null;
  providerReference: string | null;
  pollUrl: string | null;
}

export type SyncOutcome =
  { kind: 'status'; update: ProviderUpdate } | { kind: 'not_found' } | { kind: 'unknown'; reason: string };

/** What a sync asks about: poll URL and provider reference when known (initiate accepted); our transaction id. */
export interface SyncTarget {
  pollUrl: string | null;
  /** The provider's own id of the payment (DPO's TransToken, Ozow's TransactionId), if the initiate answer gave one. */
  providerReference?: string | null;
  transactionId: string;
  /** A test payment (Ozow's isTest). Absent: live. */
  test?: boolean;
}

/** One authenticated statement of the provider about a refund (Ozow's refund notification). */
export interface ProviderRefundUpdate {
  providerRefundId: string;
  /** The provider's id of the payment refunded (Ozow's TransactionId): the caller checks it is the refund's payment. */
  providerPaymentReference: string | null;
  providerStatus: string;
  /** Only `success` and `failed` are final; anything else, or an unknown word, leaves the refund pending. */
  status: 'pending' | 'success' | 'failed';
  amountMinor: number | null;
}

/**
 * `reason` is safe to log: never a secret, a phone number or a body. `recheck`: the notification is
 * unsigned (DPO's push), so it only names a payment and the caller syncs instead of trusting it.
 */
export type NotificationOutcome =
  | { kind: 'valid'; update: ProviderUpdate }
  | { kind: 'recheck'; providerReference: string | null; transactionId: string | null }
  | { kind: 'refund'; update: ProviderRefundUpdate }
  | { kind: 'invalid'; reason: string };

export interface RefundRequest {
  /** The provider's id of the payment (DPO's TransToken, Ozow's TransactionId). */
  providerReference: string;
  /** Our transaction id and reference, for providers that want them. */
  transactionId: string;
  amountMinor: number;
  currency: string;
  reason: string | null;
  /** Our refund id: the provider's idempotency key or refund reference where it has one. */
  refundId: string;
  /** Where the provider posts the refund's status updates (Ozow's refund notifyUrl). */
  notifyUrl: string;
}

/**
 * `pending`: the provider took it and says later. `unknown`: it may or may not have happened
 * (timeout, garbage); never retried blindly, as a refund API without an idempotency key would
 * refund twice: an operator checks.
 */
export type RefundOutcome =
  | { kind: 'succeeded'; providerRefundId: string | null }
  | { kind: 'pending'; providerRefundId: string | null }
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
  sync(c: C, target: SyncTarget, opts: { timeoutMs: number }): Promise<SyncOutcome>;
  /** Authenticates a status update the provider posted to our result URL (the raw body, as received). */
  verifyNotification(c: C, rawBody: string, contentType: string | undefined): NotificationOutcome;
  /**
   * For providers that post every notification to one URL per account (DPO's push): our
   * transaction id the notification names, read without credentials; null when it names none.
   * The notification is then verified with that payment's business's credentials as usual.
   */
  identifyNotification?(rawBody: string, contentType: string | undefined): string | null;
  /** Absent when the provider has no refund API (Paynow). */
  refund?(c: C, req: RefundRequest, opts: { timeoutMs: number }): Promise<RefundOutcome>;
}
