import type { NotificationOutcome } from '../connector';
import { parseOzowAmount } from './ozow-amount';
import type { OzowCredentials } from './ozow-credentials';
import { NOTIFICATION_HASH_ORDER, REFUND_NOTIFICATION_HASH_ORDER, hashMatches, ozowHash } from './ozow-hash';
import { updateOf } from './ozow-reply';
import { mapOzowRefundStatus } from './ozow-status';

/** Bodies bigger than this are not Ozow's (13 short fields and a 128-digit hash). */
const MAX_BODY = 16 * 1024;

function isForm(contentType: string | undefined): boolean {
  if (contentType === undefined) return true;
  return contentType.split(';')[0].trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

/**
 * The posted form as a map of lower-cased names (Ozow's are PascalCase; case is not trusted either
 * way). A name given twice with different values is refused: which one the hash covers is unclear.
 */
function readForm(rawBody: string): Map<string, string> | string {
  if (rawBody.length > MAX_BODY) return 'body too large';
  const out = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(rawBody)) {
    const key = k.toLowerCase();
    if (out.has(key) && out.get(key) !== v) return `field ${key} given twice`;
    out.set(key, v);
  }
  return out;
}

function valuesOf(form: Map<string, string>, order: readonly string[]): string[] {
  return order.map((name) => form.get(name.toLowerCase()) ?? '');
}

/**
 * Authenticates a payment (of this connection's site) or refund notification Ozow posted, by its SHA-512 Hash over the
 * documented fields plus the private key, checked first, in constant time. Reasons never quote a value, so customers'
 * bank details never reach a log.
 */
export function verifyOzowNotification(
  c: OzowCredentials,
  rawBody: string,
  contentType: string | undefined,
): NotificationOutcome {
  if (!isForm(contentType)) return { kind: 'invalid', reason: 'not a form post' };
  const form = readForm(rawBody);
  if (typeof form === 'string') return { kind: 'invalid', reason: form };
  const hash = form.get('hash');
  if (hash === undefined || hash.trim() === '') return { kind: 'invalid', reason: 'no hash' };
  return form.has('refundid') ? refundNotification(c, form, hash) : paymentNotification(c, form, hash);
}

function paymentNotification(c: OzowCredentials, form: Map<string, string>, hash: string): NotificationOutcome {
  if (!hashMatches(hash, ozowHash(valuesOf(form, NOTIFICATION_HASH_ORDER), c.privateKey)))
    return { kind: 'invalid', reason: 'hash does not verify' };
  for (const name of ['SiteCode', 'TransactionId', 'TransactionReference', 'Amount', 'Status', 'CurrencyCode']) {
    if ((form.get(name.toLowerCase()) ?? '').trim() === '') return { kind: 'invalid', reason: `field ${name} missing` };
  }
  if (form.get('sitecode')!.trim().toLowerCase() !== c.siteCode.toLowerCase())
    return { kind: 'invalid', reason: 'not for this site' };
  if (form.get('currencycode')!.trim().toUpperCase() !== 'ZAR')
    return { kind: 'invalid', reason: 'currency is not ZAR' };
  const isTest = (form.get('istest') ?? 'false').trim().toLowerCase();
  if (isTest !== 'true' && isTest !== 'false') return { kind: 'invalid', reason: 'IsTest is neither true nor false' };
  const amountMinor = parseOzowAmount(form.get('amount'));
  if (amountMinor === null) return { kind: 'invalid', reason: 'amount malformed' };
  const update = updateOf(
    form.get('status')!,
    form.get('transactionreference')!.trim(),
    amountMinor,
    form.get('transactionid')!.trim(),
  );
  // One reference can hold several attempts (a customer who cancelled, then paid on a second try):
  // a failed attempt does not fail the payment; the status API, which lists them all, decides.
  if (update.status === 'failed') return { kind: 'recheck', providerReference: null, transactionId: update.reference };
  return { kind: 'valid', update };
}

function refundNotification(c: OzowCredentials, form: Map<string, string>, hash: string): NotificationOutcome {
  if (!hashMatches(hash, ozowHash(valuesOf(form, REFUND_NOTIFICATION_HASH_ORDER), c.privateKey)))
    return { kind: 'invalid', reason: 'hash does not verify' };
  for (const name of ['RefundId', 'TransactionId', 'Amount', 'Status']) {
    if ((form.get(name.toLowerCase()) ?? '').trim() === '') return { kind: 'invalid', reason: `field ${name} missing` };
  }
  const amountMinor = parseOzowAmount(form.get('amount'));
  if (amountMinor === null) return { kind: 'invalid', reason: 'amount malformed' };
  const meaning = mapOzowRefundStatus(form.get('status')!);
  return {
    kind: 'refund',
    update: {
      providerRefundId: form.get('refundid')!.trim(),
      providerPaymentReference: form.get('transactionid')!.trim(),
      providerStatus: meaning.providerStatus,
      status: meaning.status,
      amountMinor,
    },
  };
}

/** The TransactionReference of a payment notification (our transaction id), unverified; null for anything else. */
export function identifyOzowNotification(rawBody: string, contentType: string | undefined): string | null {
  if (!isForm(contentType)) return null;
  const form = readForm(rawBody);
  if (typeof form === 'string' || form.has('refundid')) return null;
  const reference = (form.get('transactionreference') ?? '').trim();
  return /^[\x21-\x7e]{1,50}$/.test(reference) ? reference : null;
}

/** Test helper and fake helper: the Hash a payment notification carries. */
export function paymentNotificationHash(fields: Readonly<Record<string, string>>, privateKey: string): string {
  return ozowHash(
    NOTIFICATION_HASH_ORDER.map((n) => fields[n] ?? ''),
    privateKey,
  );
}

export function refundNotificationHash(fields: Readonly<Record<string, string>>, privateKey: string): string {
  return ozowHash(
    REFUND_NOTIFICATION_HASH_ORDER.map((n) => fields[n] ?? ''),
    privateKey,
  );
}
