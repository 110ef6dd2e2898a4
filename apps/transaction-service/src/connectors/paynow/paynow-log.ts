import type { PaynowFields } from './paynow-form';

/**
 * Nothing in the Paynow connector logs a request or a reply. What may be logged about one is this
 * summary: only the fields on an allow-list, so the hash, the integration id, the customer's e-mail
 * and phone, card tokens, InnBucks codes, URLs and any field Paynow adds later stay out.
 */
const LOGGABLE = new Set([
  'status',
  'reference',
  'amount',
  'paynowreference',
  'method',
  'merchanttrace',
  'error',
  'paymentchannel',
]);

export function describeForLog(fields: PaynowFields): { fields: Record<string, string>; omitted: string[] } {
  const out: Record<string, string> = {};
  const omitted: string[] = [];
  for (const [k, v] of fields) {
    if (LOGGABLE.has(k)) out[k] = k === 'error' ? safeReason(v) : v.slice(0, 64);
    else omitted.push(k);
  }
  return { fields: out, omitted };
}

const EMAIL = /[^\s@]+@[^\s@]+/g;
/** Seven or more digits, possibly with spaces, dashes or a leading +: a phone or card number. */
const LONG_NUMBER = /\+?\d(?:[\s-]?\d){6,}/g;

/**
 * Text Paynow wrote (an error message) made safe for logs and stored reasons: no e-mail address, no
 * phone or card number, no control characters, at most 200 characters.
 */
export function safeReason(text: string): string {
  const cleaned = text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(EMAIL, '[email]')
    .replace(LONG_NUMBER, '[number]')
    .trim();
  return cleaned.length > 200 ? `${cleaned.slice(0, 199)}…` : cleaned;
}
