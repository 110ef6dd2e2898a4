import type { CheckedRequest, FormFields } from './ozow-fake-rules';
import { ozowFakeHash } from './ozow-fake-rules';

/** One attempt of the customer at paying a payment request: what Ozow calls a transaction. */
export interface FakeOzowTransaction {
  transactionId: string;
  status: string;
  statusMessage: string;
  createdDate: string;
  paymentDate: string | null;
}

/** A payment request the fake holds, and the transactions made on it. */
export interface FakeOzowPayment {
  paymentRequestId: string;
  request: CheckedRequest;
  url: string;
  transactions: FakeOzowTransaction[];
  /** Test helper: the amount the notifications say, instead of the requested one (a mismatch). */
  notifiedAmount: string | null;
  /** Rand refunded or being refunded so far, in cents. */
  refundedCents: number;
}

export interface FakeOzowRefund {
  refundId: string;
  transactionId: string;
  amount: string;
  refundReason: string;
  notifyUrl: string;
  status: string;
  site: CheckedRequest['site'];
}

const MESSAGES: Readonly<Record<string, string>> = {
  Complete: 'Test transaction completed',
  Cancelled: 'Transaction cancelled by the customer',
  Error: 'An error occurred while processing the payment',
  Abandoned: 'Transaction abandoned',
  Pending: 'The final status will be notified',
  PendingInvestigation: 'The bank result was inconclusive',
};

export function statusMessageFor(status: string): string {
  return MESSAGES[status] ?? '';
}

export function cents(amount: string): number {
  const [whole, frac = ''] = amount.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0').slice(0, 2));
}

/**
 * The response variables Ozow posts to the notify URL and, as the customer returns, to the
 * success, cancel or error URL, in the documented order, Hash last (hub.ozow.com "Outcome").
 */
export function responseFields(p: FakeOzowPayment, t: FakeOzowTransaction): FormFields {
  const r = p.request;
  const fields: FormFields = [
    ['SiteCode', r.site.siteCode],
    ['TransactionId', t.transactionId],
    ['TransactionReference', r.transactionReference],
    ['Amount', p.notifiedAmount ?? r.amount],
    ['Status', t.status],
    ['Optional1', r.optionals[0]],
    ['Optional2', r.optionals[1]],
    ['Optional3', r.optionals[2]],
    ['Optional4', r.optionals[3]],
    ['Optional5', r.optionals[4]],
    ['CurrencyCode', 'ZAR'],
    ['IsTest', r.isTest ? 'true' : 'false'],
    ['StatusMessage', t.statusMessage],
  ];
  fields.push([
    'Hash',
    ozowFakeHash(
      fields.map(([, v]) => v),
      r.site.privateKey,
    ),
  ]);
  return fields;
}

/** A refund notification (hub.ozow.com "Refund processing"), Hash over the 8 fields and the key. */
export function refundFields(r: FakeOzowRefund): FormFields {
  const fields: FormFields = [
    ['RefundId', r.refundId],
    ['TransactionId', r.transactionId],
    ['CurrencyCode', 'ZAR'],
    ['Amount', r.amount],
    ['Status', r.status],
    ['BankName', 'Fake Bank'],
    ['AccountNumber', '62000000001'],
    ['StatusMessage', r.status === 'Complete' ? 'Refund paid' : ''],
  ];
  fields.push([
    'Hash',
    ozowFakeHash(
      fields.map(([, v]) => v),
      r.site.privateKey,
    ),
  ]);
  return fields;
}

/** A transaction as the status API lists it (JSON, camelCase). */
export function transactionJson(p: FakeOzowPayment, t: FakeOzowTransaction): Record<string, unknown> {
  return {
    transactionId: t.transactionId,
    merchantCode: 'FAKE',
    siteCode: p.request.site.siteCode,
    transactionReference: p.request.transactionReference,
    currencyCode: 'ZAR',
    amount: Number(p.notifiedAmount ?? p.request.amount),
    status: t.status,
    statusMessage: t.statusMessage,
    createdDate: t.createdDate,
    paymentDate: t.paymentDate,
    isTest: p.request.isTest,
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** What the customer's browser gets after choosing: a form that posts itself to the merchant's URL. */
export function autoPostPage(target: string, fields: FormFields): string {
  const inputs = fields
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('');
  return (
    `<!DOCTYPE html><html><body onload="document.forms[0].submit()">` +
    `<form method="post" action="${escapeHtml(target)}">${inputs}` +
    `<noscript><button type="submit">Continue</button></noscript></form></body></html>`
  );
}

export function paymentPage(p: FakeOzowPayment): string {
  const choices = ['Complete', 'Cancelled', 'Error'].map((s) => `<a href="?choose=${s}">${s}</a>`).join(' ');
  const title = p.request.isTest ? 'Ozow test payment: choose the outcome' : 'Ozow (fake bank): choose the outcome';
  return (
    `<!DOCTYPE html><html><body><h1>${title}</h1>` +
    `<p>Pay R${escapeHtml(p.request.amount)} to reference ${escapeHtml(p.request.bankReference)}</p>` +
    `<p>${choices}</p></body></html>`
  );
}
