import type { Api3gFields } from './dpo-xml';

/**
 * Nothing in the DPO connector logs a request or a reply. What may be logged about one is this
 * summary: only elements on an allow-list, so the company token, the customer's name, e-mail,
 * phone and address, card details (CustomerCredit), URLs and any element DPO adds later stay out.
 */
const LOGGABLE = new Set([
  'request',
  'result',
  'resultexplanation',
  'transref',
  'companyref',
  'transactionamount',
  'transactioncurrency',
  'transactionapproval',
  'fraudalert',
]);

export function describeForLog(fields: Api3gFields): { fields: Record<string, string>; omitted: string[] } {
  const out: Record<string, string> = {};
  const omitted: string[] = [];
  for (const [k, v] of fields) {
    const lower = k.toLowerCase();
    if (LOGGABLE.has(lower) && v !== null)
      out[k] = lower === 'resultexplanation' ? safeReason(v) : safeReason(v).slice(0, 64);
    else omitted.push(k);
  }
  return { fields: out, omitted };
}

const EMAIL = /[^\s@]+@[^\s@]+/g;
/** Seven or more digits, possibly with spaces, dashes or a leading +: a phone or card number. */
const LONG_NUMBER = /\+?\d(?:[\s-]?\d){6,}/g;
/** A GUID (DPO's company tokens and transaction tokens look like one). */
const GUID = /[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}/g;

/**
 * Text DPO wrote (a ResultExplanation) made safe for logs and stored reasons: no e-mail address,
 * phone or card number, GUID (a company token), control characters; at most 200 characters.
 */
export function safeReason(text: string): string {
  const cleaned = text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(GUID, '[token]')
    .replace(EMAIL, '[email]')
    .replace(LONG_NUMBER, '[number]')
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned.length > 200 ? `${cleaned.slice(0, 199)}…` : cleaned;
}
