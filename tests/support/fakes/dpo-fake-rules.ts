import { type XmlElement, childText, childrenNamed, repeatedTag, twoDecimals } from './dpo-fake-wire';

/**
 * What the fake checks of a createToken request (DPO's createToken page and the result codes of its
 * PHP library). Explanations are DPO's documented texts, the field named where DPO says "name of field".
 */

/** The test card that pays (DPO's sandbox test card, as its SDKs document it). */
export const PAYING_CARD = '5436886269848367';
/** The fake's declining card (DPO documents none): the payment ends declined, verifyToken 901. */
export const DECLINING_CARD = '4000000000000002';

/** Currencies the fake's accounts take; any other is 904 "Currency not supported". */
export const FAKE_CURRENCIES: readonly string[] = [
  'USD',
  'ZAR',
  'KES',
  'TZS',
  'UGX',
  'ZMW',
  'GHS',
  'NGN',
  'BWP',
  'MWK',
  'ZWG',
  'EUR',
  'GBP',
];

export interface CreateFields {
  amount: string;
  currency: string;
  companyRef: string;
  companyRefUnique: boolean;
  redirectUrl: string;
  backUrl: string;
  declinedUrl: string | null;
  /** Payment time limit in ms, from PTL and PTLtype (default 96 hours, as documented). */
  ptlMs: number;
  email: string | null;
  phone: string | null;
  serviceType: string;
  serviceDescription: string;
  serviceDate: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; code: string; explanation: string };

const refuse = (code: string, explanation: string): { ok: false; code: string; explanation: string } => ({
  ok: false,
  code,
  explanation,
});

function isHttpUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

export function checkCreateToken(root: XmlElement): Checked<CreateFields> {
  const repeated = repeatedTag(root);
  if (repeated !== null) return refuse('960', `Tag has been sent multiple times - ${repeated}`);
  const transaction = childrenNamed(root, 'Transaction')[0];
  if (transaction === undefined) return refuse('950', 'Request missing mandatory fields - Transaction');
  const get = (k: string) => childText(transaction, k) ?? '';
  if (get('PaymentAmount') === '')
    return refuse('902', 'Request missing transaction level mandatory fields - PaymentAmount');
  const amount = twoDecimals(get('PaymentAmount'));
  if (amount === null) return refuse('902', 'Request missing transaction level mandatory fields - PaymentAmount');
  if (get('PaymentCurrency') === '')
    return refuse('902', 'Request missing transaction level mandatory fields - PaymentCurrency');
  if (!FAKE_CURRENCIES.includes(get('PaymentCurrency'))) return refuse('904', 'Currency not supported');
  const services = childrenNamed(root, 'Services')[0];
  const service = services === undefined ? undefined : childrenNamed(services, 'Service')[0];
  if (service === undefined) return refuse('950', 'Request missing mandatory fields - Services');
  for (const k of ['ServiceType', 'ServiceDescription', 'ServiceDate']) {
    if ((childText(service, k) ?? '') === '') return refuse('950', `Request missing mandatory fields - ${k}`);
  }
  if (!/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}$/.test(childText(service, 'ServiceDate') as string))
    return refuse('950', 'Request missing mandatory fields - ServiceDate');
  const redirectUrl = get('RedirectURL');
  const backUrl = get('BackURL');
  if (redirectUrl !== '' && !isHttpUrl(redirectUrl))
    return refuse('950', 'Request missing mandatory fields - RedirectURL');
  if (backUrl !== '' && !isHttpUrl(backUrl)) return refuse('950', 'Request missing mandatory fields - BackURL');
  const ptl = get('PTL') === '' ? 96 : Number(get('PTL'));
  if (!Number.isFinite(ptl) || ptl <= 0) return refuse('950', 'Request missing mandatory fields - PTL');
  const minutes = get('PTLtype').toLowerCase() === 'minutes';
  const unique = ['1', 'true'].includes(get('CompanyRefUnique').toLowerCase());
  return {
    ok: true,
    value: {
      amount,
      currency: get('PaymentCurrency'),
      companyRef: get('CompanyRef'),
      companyRefUnique: unique,
      redirectUrl,
      backUrl,
      declinedUrl: get('DeclinedURL') || null,
      ptlMs: ptl * (minutes ? 60_000 : 3_600_000),
      email: get('customerEmail') || null,
      phone: get('customerPhone') || null,
      serviceType: childText(service, 'ServiceType') as string,
      serviceDescription: childText(service, 'ServiceDescription') as string,
      serviceDate: childText(service, 'ServiceDate') as string,
    },
  };
}

/** `url` with `params` appended: joined with `&` when it already has a query, else `?` (createToken page). */
export function withParams(url: string, params: ReadonlyArray<readonly [string, string]>): string {
  const query = params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}
