import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The fake's own reading of Ozow's rules, written apart from the connector's so that a mistake in
 * one is caught by the other (both are held to Ozow's documented HashCheck example).
 */

export interface FakeSite {
  siteCode: string;
  privateKey: string;
  apiKey: string;
}

/** SHA-512 of the lower-cased concatenation of the values and the private key, lower-case hex. */
export function ozowFakeHash(values: readonly string[], privateKey: string): string {
  return createHash('sha512')
    .update(`${values.join('')}${privateKey}`.toLowerCase(), 'utf8')
    .digest('hex');
}

export function sameHash(given: string, expected: string): boolean {
  const a = Buffer.from(given.trim().toLowerCase());
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const HASHED = [
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

/** The request's fields as Ozow reads them: names without regard to case, values as strings. */
export type RequestFields = Map<string, string>;

export function readRequestFields(input: unknown): RequestFields | null {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return null;
  const out: RequestFields = new Map();
  for (const [k, v] of Object.entries(input)) {
    if (v === null || v === undefined) continue;
    out.set(k.toLowerCase(), typeof v === 'string' ? v : String(v));
  }
  return out;
}

export function field(f: RequestFields, name: string): string {
  return f.get(name.toLowerCase()) ?? '';
}

/**
 * The HashCheck a request should carry: hashed fields in order, empty ones adding nothing, AllowVariableAmount only
 * when true.
 */
export function expectedHashCheck(f: RequestFields, privateKey: string): string {
  const values = HASHED.map((name) => field(f, name)).filter(
    (v, i) => v !== '' && (HASHED[i] !== 'AllowVariableAmount' || v.toLowerCase() === 'true'),
  );
  return ozowFakeHash(values, privateKey);
}

/** The payment request a site may make, or Ozow's error message. */
export interface CheckedRequest {
  site: FakeSite;
  amount: string;
  transactionReference: string;
  bankReference: string;
  optionals: string[];
  cancelUrl: string;
  errorUrl: string;
  successUrl: string;
  notifyUrl: string;
  isTest: boolean;
}

function isHttpUrl(v: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
}

/**
 * Checks a PostPaymentRequest body the way Ozow documents the fields: the site is the API key's,
 * ZA and ZAR, a (9,2) amount, references within their lengths, true/false IsTest, and HashCheck.
 * The error texts are the fake's (Ozow's exact wording is not published).
 */
export function checkPaymentRequest(
  f: RequestFields,
  site: FakeSite,
): { ok: true; value: CheckedRequest } | { ok: false; error: string } {
  if (field(f, 'SiteCode') !== site.siteCode) return { ok: false, error: 'Invalid SiteCode' };
  if (!sameHash(field(f, 'HashCheck'), expectedHashCheck(f, site.privateKey)))
    return { ok: false, error: 'HashCheck value has failed' };
  if (field(f, 'CountryCode') !== 'ZA') return { ok: false, error: 'Invalid CountryCode' };
  if (field(f, 'CurrencyCode') !== 'ZAR') return { ok: false, error: 'Invalid CurrencyCode' };
  const amount = field(f, 'Amount');
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(amount) || Number(amount) <= 0) return { ok: false, error: 'Invalid Amount' };
  const transactionReference = field(f, 'TransactionReference');
  if (transactionReference === '' || transactionReference.length > 50)
    return { ok: false, error: 'Invalid TransactionReference' };
  const bankReference = field(f, 'BankReference');
  if (!/^[A-Za-z0-9 -]{1,20}$/.test(bankReference)) return { ok: false, error: 'Invalid BankReference' };
  const isTest = field(f, 'IsTest').toLowerCase();
  if (isTest !== 'true' && isTest !== 'false') return { ok: false, error: 'Invalid IsTest' };
  const urls = ['CancelUrl', 'ErrorUrl', 'SuccessUrl', 'NotifyUrl'].map((n) => field(f, n));
  if (urls.some((u) => u !== '' && !isHttpUrl(u))) return { ok: false, error: 'Invalid Url' };
  return {
    ok: true,
    value: {
      site,
      amount: Number(amount).toFixed(2),
      transactionReference,
      bankReference,
      optionals: [1, 2, 3, 4, 5].map((i) => field(f, `Optional${i}`)),
      cancelUrl: urls[0],
      errorUrl: urls[1],
      successUrl: urls[2],
      notifyUrl: urls[3],
      isTest: isTest === 'true',
    },
  };
}

/** A refund request's hashCheck: transactionId, amount, refundReason, notifyUrl, then the private key. */
export function expectedRefundHash(r: Record<string, unknown>, privateKey: string): string {
  return ozowFakeHash(
    ['transactionId', 'amount', 'refundReason', 'notifyUrl'].map((k) => String(r[k] ?? '')),
    privateKey,
  );
}

/** Fields as sent in a form post: original key case, original order. */
export type FormFields = Array<[string, string]>;

export function formGet(fields: FormFields, name: string): string | undefined {
  return fields.find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
}
