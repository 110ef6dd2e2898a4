import type { InitiateRequest, RefundRequest } from '../connector';
import { formatDpoAmount, isDpoCurrency } from './dpo-amount';
import type { DpoCredentials } from './dpo-credentials';
import { type XmlNode, buildApi3g } from './dpo-xml';

/** DPO's hosted page takes cards, mobile money and the rest: one method code, the customer chooses there. */
export const DPO_METHODS: readonly string[] = ['dpo'];

/** The payment page's time limit (createToken PTL, in PTLtype units): past it verifyToken answers 903. */
export const DPO_PTL_HOURS = 1;

export type PlanResult = { ok: true; xml: string } | { ok: false; reason: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** CompanyRef: our transaction id, printable ASCII, so verifyToken by CompanyRef finds it exactly. */
const REF = /^[\x21-\x7e]{1,50}$/;

function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

/** `YYYY/MM/DD HH:MM` in UTC (createToken ServiceDate). */
export function dpoServiceDate(now: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const date = `${now.getUTCFullYear()}/${p(now.getUTCMonth() + 1)}/${p(now.getUTCDate())}`;
  return `${date} ${p(now.getUTCHours())}:${p(now.getUTCMinutes())}`;
}

function refusal(req: InitiateRequest): string | null {
  if (!DPO_METHODS.includes(req.method.trim().toLowerCase()))
    return `method ${JSON.stringify(req.method)} is not a DPO Pay method`;
  if (!isDpoCurrency(req.currency))
    return (
      `currency ${JSON.stringify(req.currency)} is not one the DPO connector sends ` +
      '(two-decimal ISO currencies only)'
    );
  if (!Number.isSafeInteger(req.amountMinor) || req.amountMinor <= 0)
    return 'amount must be a positive whole number of minor units';
  if (!REF.test(req.transactionId)) return 'transaction id must be 1 to 50 printable ASCII characters (DPO CompanyRef)';
  if (!isHttpUrl(req.returnUrl)) return 'the return URL must be an http(s) URL';
  return null;
}

/**
 * createToken: the transaction and one service of the account's service type. CompanyRef is our
 * transaction id, unique, so an answer lost on the way back is found by verifyToken by CompanyRef.
 */
export function planCreateToken(c: DpoCredentials, req: InitiateRequest, now: Date): PlanResult {
  const refused = refusal(req);
  if (refused !== null) return { ok: false, reason: refused };
  const transaction: XmlNode[] = [
    ['PaymentAmount', formatDpoAmount(req.amountMinor)],
    ['PaymentCurrency', req.currency],
    ['CompanyRef', req.transactionId],
    ['RedirectURL', req.returnUrl],
    ['BackURL', req.returnUrl],
    ['DeclinedURL', req.returnUrl],
    ['CompanyRefUnique', '1'],
    ['PTL', String(DPO_PTL_HOURS)],
    ['PTLtype', 'hours'],
  ];
  const email = req.email.trim();
  if (EMAIL.test(email)) transaction.push(['customerEmail', email]);
  // Digits only, as DPO's own PHP library sends it.
  const phone = (req.phone ?? '').replace(/\D/g, '');
  if (phone !== '') transaction.push(['customerPhone', phone]);
  const description = req.description?.trim() || req.reference.trim() || req.transactionId;
  return {
    ok: true,
    xml: buildApi3g([
      ['CompanyToken', c.companyToken],
      ['Request', 'createToken'],
      ['Transaction', transaction],
      [
        'Services',
        [
          [
            'Service',
            [
              ['ServiceType', c.serviceType],
              ['ServiceDescription', description.slice(0, 200)],
              ['ServiceDate', dpoServiceDate(now)],
            ],
          ],
        ],
      ],
    ]),
  };
}

/** verifyToken by TransactionToken (the initiate answer's TransToken) if known, else by CompanyRef (our id). */
export function planVerifyToken(c: DpoCredentials, by: { token: string } | { companyRef: string }): string {
  return buildApi3g([
    ['CompanyToken', c.companyToken],
    ['Request', 'verifyToken'],
    'token' in by ? ['TransactionToken', by.token] : ['CompanyRef', by.companyRef],
  ]);
}

export type RefundPlan = { ok: true; xml: string } | { ok: false; reason: string };

/** refundToken: the payment's token, the amount (major units), why, and our refund id as refundRef. */
export function planRefundToken(c: DpoCredentials, req: RefundRequest): RefundPlan {
  if (!Number.isSafeInteger(req.amountMinor) || req.amountMinor <= 0)
    return { ok: false, reason: 'refund amount must be a positive whole number of minor units' };
  if (req.providerReference.trim() === '') return { ok: false, reason: 'the payment has no DPO transaction token' };
  return {
    ok: true,
    xml: buildApi3g([
      ['CompanyToken', c.companyToken],
      ['Request', 'refundToken'],
      ['TransactionToken', req.providerReference.trim()],
      ['refundAmount', formatDpoAmount(req.amountMinor)],
      ['refundDetails', req.reason?.trim() || `Refund ${req.refundId} of ${req.transactionId}`],
      ['refundRef', req.refundId],
    ]),
  };
}
