import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Every Ozow hash (the payment request's HashCheck, the notification's Hash, the refund's hashCheck
 * and the refund notification's Hash): the values in their documented order, then the private key,
 * the whole string lower-cased, SHA-512, lower-case hexadecimal.
 */
export function ozowHash(values: readonly string[], privateKey: string): string {
  return createHash('sha512')
    .update((values.join('') + privateKey).toLowerCase(), 'utf8')
    .digest('hex');
}

/**
 * The payment request's fields in HashCheck order (hub.ozow.com "Post from merchant website"): the
 * usual ones, then the rarely used ones. HashCheck itself, Token, CustomerCellphoneNumber and
 * GenerateShortUrl are not hashed; AllowVariableAmount only when true.
 */
export const PAYMENT_REQUEST_HASH_ORDER: readonly string[] = [
  'SiteCode',
  'CountryCode',
  'CurrencyCode',
  'Amount',
  'TransactionReference',
  'BankReference',
  'Optional1',
  'Optional2',
  'Optional3',
  'Optional4',
  'Optional5',
  'Customer',
  'CancelUrl',
  'ErrorUrl',
  'SuccessUrl',
  'NotifyUrl',
  'IsTest',
  'SelectedBankId',
  'BankAccountNumber',
  'BranchCode',
  'BankAccountName',
  'PayeeDisplayName',
  'ExpiryDateUtc',
  'AllowVariableAmount',
  'VariableAmountMin',
  'VariableAmountMax',
  'CustomerIdentifier',
];

/** HashCheck of a payment request: absent or empty optionals add nothing, unknown and excluded fields are ignored. */
export function paymentRequestHash(fields: Readonly<Record<string, string | undefined>>, privateKey: string): string {
  const values: string[] = [];
  for (const name of PAYMENT_REQUEST_HASH_ORDER) {
    const v = fields[name];
    if (v === undefined || v === '') continue;
    if (name === 'AllowVariableAmount' && v.toLowerCase() !== 'true') continue;
    values.push(v);
  }
  return ozowHash(values, privateKey);
}

/** A payment notification's Hash order (hub.ozow.com "Outcome"; Ozow's WooCommerce plugin). */
export const NOTIFICATION_HASH_ORDER: readonly string[] = [
  'SiteCode',
  'TransactionId',
  'TransactionReference',
  'Amount',
  'Status',
  'Optional1',
  'Optional2',
  'Optional3',
  'Optional4',
  'Optional5',
  'CurrencyCode',
  'IsTest',
  'StatusMessage',
];

/** A refund notification's Hash order (hub.ozow.com "Refund processing"; Ozow's WooCommerce plugin). */
export const REFUND_NOTIFICATION_HASH_ORDER: readonly string[] = [
  'RefundId',
  'TransactionId',
  'CurrencyCode',
  'Amount',
  'Status',
  'BankName',
  'AccountNumber',
  'StatusMessage',
];

/** The refund request's hashCheck: transactionId, amount, refundReason, notifyUrl, then the key. */
export function refundRequestHash(
  r: { transactionId: string; amount: string; refundReason: string; notifyUrl: string },
  privateKey: string,
): string {
  return ozowHash([r.transactionId, r.amount, r.refundReason, r.notifyUrl], privateKey);
}

/** Compares a received hash with the expected one, without regard to case and in constant time. */
export function hashMatches(received: string, expected: string): boolean {
  const a = Buffer.from(received.trim().toLowerCase(), 'utf8');
  const b = Buffer.from(expected.toLowerCase(), 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
