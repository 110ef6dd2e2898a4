import { createHash } from 'node:crypto';

/**
 * The fake's own reading and writing of Paynow messages, written apart from the connector's so that
 * a mistake in one is caught by the other (both are held to the documentation's hash vectors).
 */

/** Fields as received or sent: original key case, original order. */
export type WireFields = Array<[string, string]>;

/** Form-decodes a body, keeping key case and order (what Paynow hashes is the values in received order). */
export function parseWire(body: string): WireFields {
  return [...new URLSearchParams(body)];
}

/** Case-insensitive lookup (Paynow's keys are). */
export function wireGet(fields: WireFields, key: string): string | undefined {
  return fields.find(([k]) => k.toLowerCase() === key.toLowerCase())?.[1];
}

/** SHA-512 over the values (all but `hash`) in order, then the key; upper-case hex. */
export function wireHash(fields: WireFields, integrationKey: string): string {
  const text =
    fields
      .filter(([k]) => k.toLowerCase() !== 'hash')
      .map(([, v]) => v)
      .join('') + integrationKey;
  return createHash('sha512').update(Buffer.from(text, 'utf8')).digest('hex').toUpperCase();
}

/** .NET's HttpUtility.UrlEncode, as Paynow's replies show it: `+` for space, lower-case escapes (`%3a%2f`). */
function dotnetEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const ch = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.!*()]/.test(ch)) out += ch;
    else if (ch === ' ') out += '+';
    else out += `%${byte.toString(16).padStart(2, '0')}`;
  }
  return out;
}

export function encodeWire(fields: WireFields): string {
  return fields.map(([k, v]) => `${dotnetEncode(k)}=${dotnetEncode(v)}`).join('&');
}

/** Appends the hash of `fields` and encodes the whole message. */
export function signWire(fields: WireFields, integrationKey: string): string {
  return encodeWire([...fields, ['hash', wireHash(fields, integrationKey)]]);
}

/**
 * A received amount ("10.5", "10.50", "10") in Paynow's two-decimal form, or null when it is not a positive decimal of
 * at most two places.
 */
export function twoDecimals(amount: string): string | null {
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (m === null) return null;
  const whole = m[1].replace(/^0+(?=\d)/, '');
  const cents = (m[2] ?? '').padEnd(2, '0');
  return whole === '0' && cents === '00' ? null : `${whole}.${cents}`;
}
