import { safeReason } from '../paynow/paynow-log';

export { safeReason };

/**
 * What may be logged about an Ozow message: allow-listed fields only (case-insensitive), so hashes,
 * keys, the site code, the customer's bank details and any field Ozow adds later stay out.
 */
const LOGGABLE = new Set([
  'transactionid',
  'transactionreference',
  'amount',
  'status',
  'currencycode',
  'istest',
  'statusmessage',
  'refundid',
  'paymentrequestid',
  'errormessage',
]);
const FREE_TEXT = new Set(['statusmessage', 'errormessage']);

export function describeForLog(fields: Iterable<readonly [string, unknown]>): {
  fields: Record<string, string>;
  omitted: string[];
} {
  const out: Record<string, string> = {};
  const omitted: string[] = [];
  for (const [k, raw] of fields) {
    const key = k.toLowerCase();
    const v = typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : '';
    if (LOGGABLE.has(key)) out[k] = FREE_TEXT.has(key) ? safeReason(v) : v.slice(0, 64);
    else omitted.push(k);
  }
  return { fields: out, omitted };
}
