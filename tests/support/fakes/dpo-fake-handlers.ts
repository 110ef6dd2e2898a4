import { type CreateFields, DECLINING_CARD, PAYING_CARD, checkCreateToken, withParams } from './dpo-fake-rules';
import { type XmlElement, cents, childText, fromCents, twoDecimals, writeApi3g } from './dpo-fake-wire';

/** A payment (a transaction token) the fake holds. */
export interface FakePayment {
  company: string;
  token: string;
  transRef: string;
  request: CreateFields;
  createdAt: number;
  /** unpaid → paid | declined | cancelled; verifyToken also answers 903 once the PTL has passed unpaid. */
  status: 'unpaid' | 'paid' | 'declined' | 'cancelled';
  approval: string | null;
  /** The card's last four digits, once paid or declined. */
  cardEnding: string | null;
  refundedCents: number;
  refunds: Array<{ amount: string; ref: string; details: string }>;
  /** Set by tests: the TransactionAmount verifyToken and the push answer instead of the real one. */
  verifyAmount: string | null;
  /** What verifyToken says as TransactionCurrency instead of the real one (a currency mismatch); null: the real one. */
  verifyCurrency: string | null;
}

/** What the handlers need of the fake. */
export interface FakeStore {
  readonly companies: ReadonlySet<string>;
  create(company: string, request: CreateFields): FakePayment;
  byToken(company: string | null, token: string): FakePayment | undefined;
  byCompanyRef(company: string, ref: string): FakePayment | undefined;
  paid(p: FakePayment): void;
}

export interface FakeReply {
  status: number;
  contentType: string;
  body: string;
  location?: string;
}

export const xml = (fields: ReadonlyArray<readonly [string, string]>): FakeReply => ({
  status: 200,
  contentType: 'text/xml; charset=utf-8',
  body: writeApi3g(fields),
});
export const result = (code: string, explanation: string): FakeReply =>
  xml([
    ['Result', code],
    ['ResultExplanation', explanation],
  ]);
const html = (status: number, body: string): FakeReply => ({
  status,
  contentType: 'text/html; charset=utf-8',
  body: `<!DOCTYPE html><html><head><title>DPO Pay (fake)</title></head><body>${body}</body></html>`,
});

/** 801 / 802: the company token of a request, or the reply refusing it. */
export function checkCompany(
  store: FakeStore,
  root: XmlElement,
): { ok: true; company: string } | { ok: false; reply: FakeReply } {
  const company = childText(root, 'CompanyToken') ?? '';
  if (company === '') return { ok: false, reply: result('801', 'Request missing company token') };
  if (!store.companies.has(company)) return { ok: false, reply: result('802', 'Company token does not exist') };
  return { ok: true, company };
}

export function handleCreateToken(store: FakeStore, company: string, root: XmlElement): FakeReply {
  const checked = checkCreateToken(root);
  if (!checked.ok) return result(checked.code, checked.explanation);
  const req = checked.value;
  if (req.companyRefUnique && req.companyRef !== '' && store.byCompanyRef(company, req.companyRef)?.status === 'paid')
    return result('940', 'CompanyREF already exists and paid');
  const p = store.create(company, req);
  return xml([
    ['Result', '000'],
    ['ResultExplanation', 'Transaction created'],
    ['TransToken', p.token],
    ['TransRef', p.transRef],
  ]);
}

/** verifyToken's code for a payment now. */
export function verifyCode(p: FakePayment, now = Date.now()): [string, string] {
  if (p.status === 'paid') return ['000', 'Transaction Paid'];
  if (p.status === 'declined') return ['901', 'Transaction declined'];
  if (p.status === 'cancelled') return ['904', 'Transaction cancelled'];
  if (now > p.createdAt + p.request.ptlMs) return ['903', 'The transaction passed the Payment Time Limit'];
  return ['900', 'Transaction not paid yet'];
}

/** The verifyToken fields (documented order), as the push carries them too. */
export function verifyFields(p: FakePayment): Array<[string, string]> {
  const [code, explanation] = verifyCode(p);
  const paid = p.status === 'paid';
  return [
    ['Result', code],
    ['ResultExplanation', explanation],
    ['CustomerName', paid ? 'Test Customer' : ''],
    ['CustomerCredit', p.cardEnding ?? ''],
    ['CustomerCreditType', p.cardEnding ? 'MasterCard' : ''],
    ['TransactionApproval', p.approval ?? ''],
    ['TransactionCurrency', p.verifyCurrency ?? p.request.currency],
    ['TransactionAmount', p.verifyAmount ?? p.request.amount],
    ['FraudAlert', paid ? '000' : ''],
    ['FraudExplnation', paid ? 'Genuine transaction' : ''],
    ['TransactionNetAmount', paid ? fromCents(Math.round(cents(p.request.amount) * 0.965)) : ''],
    [
      'TransactionSettlementDate',
      paid ? new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '/') : '',
    ],
    ['TransactionRollingReserveAmount', '0.00'],
    ['TransactionRollingReserveDate', ''],
    ['CustomerPhone', p.request.phone ?? ''],
    ['CustomerCountry', ''],
    ['CustomerAddress', ''],
    ['CustomerCity', ''],
    ['CustomerZip', ''],
    ['MobilePaymentRequest', ''],
    ['AccRef', ''],
    ['TransactionFinalCurrency', p.request.currency],
    ['TransactionFinalAmount', p.verifyAmount ?? p.request.amount],
  ];
}

/**
 * By TransactionToken, else by CompanyRef. DPO documents no "no such transaction" code: the fake
 * answers an unknown token or CompanyRef with 902 "Data mismatch in one of the fields" naming it
 * (its own choice, which the connector must not take for a statement about a payment).
 */
export function handleVerifyToken(store: FakeStore, company: string, root: XmlElement): FakeReply {
  const token = childText(root, 'TransactionToken') ?? '';
  const ref = childText(root, 'CompanyRef') ?? '';
  if (token === '' && ref === '')
    return result('950', 'Request missing transaction level mandatory fields - TransactionToken');
  const p = token !== '' ? store.byToken(company, token) : store.byCompanyRef(company, ref);
  if (p === undefined)
    return result('902', `Data mismatch in one of the fields - ${token !== '' ? 'TransactionToken' : 'CompanyRef'}`);
  return xml(verifyFields(p));
}

/** refundToken: 000 "Refund successful" for a paid payment within what is left of it; 999 otherwise. */
export function handleRefundToken(store: FakeStore, company: string, root: XmlElement): FakeReply {
  const get = (k: string) => childText(root, k) ?? '';
  for (const k of ['TransactionToken', 'refundAmount', 'refundDetails'])
    if (get(k) === '') return result('950', `Request missing mandatory fields - ${k}`);
  const p = store.byToken(company, get('TransactionToken'));
  if (p === undefined) return result('999', 'Refund failed - transaction token does not exist');
  if (p.status !== 'paid') return result('999', 'Refund failed - transaction not paid');
  const amount = twoDecimals(get('refundAmount'));
  if (amount === null) return result('999', 'Refund failed - invalid refund amount');
  if (p.refundedCents + cents(amount) > cents(p.request.amount))
    return result('999', 'Refund failed - amount exceeds the paid amount');
  p.refundedCents += cents(amount);
  p.refunds.push({ amount, ref: get('refundRef'), details: get('refundDetails') });
  return result('000', 'Refund successful');
}

/** cancelToken: an unpaid token → cancelled (000); anything else 999. */
export function handleCancelToken(store: FakeStore, company: string, root: XmlElement): FakeReply {
  const token = childText(root, 'TransactionToken') ?? '';
  if (token === '') return result('950', 'Request missing mandatory fields - TransactionToken');
  const p = store.byToken(company, token);
  if (p === undefined || p.status !== 'unpaid') return result('999', 'Token cannot be cancelled');
  p.status = 'cancelled';
  return result('000', 'Token been updated to status cancelled');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** GET /payv2.php?ID=…: the payment page, a card form and a cancel button. */
export function handlePage(store: FakeStore, token: string): FakeReply {
  const p = store.byToken(null, token);
  if (p === undefined) return html(404, '<p>Transaction not found</p>');
  if (p.status !== 'unpaid') return html(409, `<p>This transaction is ${p.status}</p>`);
  if (verifyCode(p)[0] === '903') return html(410, '<p>The transaction passed the Payment Time Limit</p>');
  const id = escapeHtml(p.token);
  return html(
    200,
    `<h1>Pay ${escapeHtml(p.request.amount)} ${escapeHtml(p.request.currency)}</h1>` +
      `<p>${escapeHtml(p.request.serviceDescription)}</p>` +
      `<form method="post" action="payv2.php"><input type="hidden" name="ID" value="${id}">` +
      `<label>Card number <input name="card" value="${PAYING_CARD}"></label>` +
      `<button name="action" value="pay">Pay</button><button name="action" value="cancel">Cancel</button></form>` +
      `<p>Test cards: ${PAYING_CARD} pays, ${DECLINING_CARD} is declined.</p>`,
  );
}

let approvals = 938_204_312;

/**
 * The customer's submission (POST /payv2.php, or a test's `pay`/`cancel`): `pay` with the paying card → paid, 302 to
 * RedirectURL + TransID, CCDapproval, PnrID, TransactionToken, CompanyRef; with the declining card → declined, 302 to
 * DeclinedURL (else RedirectURL) + TransactionToken, CompanyRef; `cancel` → cancelled, 302 to BackURL +
 * TransactionToken, CompanyRef. Another card: 400, nothing changes.
 */
export function handleSubmit(store: FakeStore, token: string, action: string, card: string): FakeReply {
  const p = store.byToken(null, token);
  if (p === undefined) return html(404, '<p>Transaction not found</p>');
  if (p.status !== 'unpaid') return html(409, `<p>This transaction is ${p.status}</p>`);
  if (verifyCode(p)[0] === '903') return html(410, '<p>The transaction passed the Payment Time Limit</p>');
  const back: Array<[string, string]> = [
    ['TransactionToken', p.token],
    ['CompanyRef', p.request.companyRef],
  ];
  const go = (url: string, params: Array<[string, string]>): FakeReply => ({
    ...html(302, '<p>Back to the merchant</p>'),
    location: withParams(url, params),
  });
  if (action === 'cancel') {
    p.status = 'cancelled';
    return go(p.request.backUrl || p.request.redirectUrl, back);
  }
  if (action !== 'pay') return html(400, '<p>Unknown action</p>');
  const digits = card.replace(/\D/g, '');
  if (digits !== PAYING_CARD && digits !== DECLINING_CARD)
    return html(400, '<p>Card not accepted (the fake takes its two test cards)</p>');
  p.cardEnding = digits.slice(-4);
  if (digits === DECLINING_CARD) {
    p.status = 'declined';
    return go(p.request.declinedUrl || p.request.redirectUrl, back);
  }
  p.status = 'paid';
  p.approval = String(approvals++);
  store.paid(p);
  return go(p.request.redirectUrl, [
    ['TransID', p.token],
    ['CCDapproval', p.approval],
    ['PnrID', p.request.companyRef],
    ...back,
  ]);
}
