import type { InitiateRequest } from '../connector';
import { OZOW_COUNTRY, OZOW_CURRENCY, formatOzowAmount } from './ozow-amount';
import type { OzowCredentials } from './ozow-credentials';
import { paymentRequestHash } from './ozow-hash';

export const OZOW_METHODS: readonly string[] = ['ozow'];

/** The PostPaymentRequest body: the request fields in HashCheck order, then HashCheck. */
export type OzowPaymentRequest = Record<string, string>;

export type PlanResult = { ok: true; body: OzowPaymentRequest } | { ok: false; reason: string };

/** TransactionReference: our transaction id (Ozow allows 50 characters; ours have at most 32). */
const REFERENCE = /^[\x21-\x7e]{1,50}$/;
const BANK_REFERENCE_MAX = 20;

function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * BankReference, shown on the customer's bank statement: at most 20 letters, digits, spaces and
 * dashes (hub.ozow.com), from the merchant's reference, else from our transaction id.
 */
export function bankReference(reference: string, transactionId: string): string {
  const cleaned = reference
    .replace(/[^A-Za-z0-9 -]+/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, BANK_REFERENCE_MAX)
    .trim();
  if (/[A-Za-z0-9]/.test(cleaned)) return cleaned;
  return transactionId.replace(/[^A-Za-z0-9]+/g, '').slice(-BANK_REFERENCE_MAX);
}

function refusal(req: InitiateRequest): string | null {
  if (!OZOW_METHODS.includes(req.method.trim().toLowerCase()))
    return `method ${JSON.stringify(req.method)} is not an Ozow method`;
  if (req.currency.trim().toUpperCase() !== OZOW_CURRENCY)
    return `currency ${JSON.stringify(req.currency)} is not one Ozow takes (ZAR only)`;
  if (!Number.isSafeInteger(req.amountMinor) || req.amountMinor <= 0)
    return 'amount must be a positive whole number of minor units';
  if (req.amountMinor > 9_999_999_99) return 'amount is over what Ozow takes (decimal 9,2)';
  if (!REFERENCE.test(req.transactionId))
    return 'transaction id must be 1 to 50 printable ASCII characters (Ozow TransactionReference)';
  if (!isHttpUrl(req.resultUrl) || !isHttpUrl(req.returnUrl))
    return 'notification and return URLs must be http(s) URLs';
  return null;
}

/**
 * Plans PostPaymentRequest; our transaction id is the TransactionReference, the status API's lookup key. Every outcome
 * returns to our URL, which asks Ozow instead of trusting the browser; no customer data Ozow does not need is sent.
 */
export function planPaymentRequest(c: OzowCredentials, req: InitiateRequest): PlanResult {
  const refused = refusal(req);
  if (refused !== null) return { ok: false, reason: refused };
  const fields: OzowPaymentRequest = {
    SiteCode: c.siteCode,
    CountryCode: OZOW_COUNTRY,
    CurrencyCode: OZOW_CURRENCY,
    Amount: formatOzowAmount(req.amountMinor),
    TransactionReference: req.transactionId,
    BankReference: bankReference(req.reference, req.transactionId),
    CancelUrl: req.returnUrl,
    ErrorUrl: req.returnUrl,
    SuccessUrl: req.returnUrl,
    NotifyUrl: req.resultUrl,
    IsTest: req.test ? 'true' : 'false',
  };
  return { ok: true, body: { ...fields, HashCheck: paymentRequestHash(fields, c.privateKey) } };
}

/** The query of GetTransactionByReference: siteCode, transactionReference, isTest. */
export function byReferenceQuery(c: OzowCredentials, transactionId: string, test: boolean): string {
  return new URLSearchParams({
    siteCode: c.siteCode,
    transactionReference: transactionId,
    isTest: test ? 'true' : 'false',
  }).toString();
}
