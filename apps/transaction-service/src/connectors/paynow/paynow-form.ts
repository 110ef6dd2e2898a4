/**
 * Paynow's message format, both ways: form-encoded `key=value&…`. Keys are case-insensitive (the
 * docs use both cases), so they are lower-cased; field order is kept because the hash covers the
 * values in message order.
 */

/** The fields of one message, in message order, keys lower-cased. */
export type PaynowFields = ReadonlyArray<readonly [string, string]>;

export type ParsedMessage = { ok: true; fields: PaynowFields } | { ok: false; reason: string };

/** A real reply is a few hundred bytes; anything far larger is not one. */
export const MAX_MESSAGE_CHARS = 64 * 1024;

const KEY = /^[A-Za-z][A-Za-z0-9_]*$/;

function decode(text: string): string | null {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return null; // a stray % or an invalid UTF-8 sequence: not a message Paynow wrote
  }
}

/**
 * Parses a reply or a posted status update. Refuses (with a reason safe to log: it never quotes the
 * body) anything that is not a well-formed message: HTML, JSON, empty, a field without `=`, a key
 * that is not a plain name, a repeated key (which value would count?).
 */
export function parsePaynowMessage(body: string): ParsedMessage {
  if (body.length > MAX_MESSAGE_CHARS) return { ok: false, reason: 'message too large' };
  const text = body.replace(/^\uFEFF/, '').trim();
  if (text === '') return { ok: false, reason: 'empty message' };
  const fields: Array<readonly [string, string]> = [];
  const seen = new Set<string>();
  for (const part of text.split('&')) {
    if (part === '') continue; // a trailing or doubled & carries nothing
    const eq = part.indexOf('=');
    const key = eq > 0 ? decode(part.slice(0, eq)) : null;
    const value = eq > 0 ? decode(part.slice(eq + 1)) : null;
    if (key === null || value === null || !KEY.test(key)) return { ok: false, reason: 'not a form-encoded message' };
    const lower = key.toLowerCase();
    if (seen.has(lower)) return { ok: false, reason: `field ${lower} appears twice` };
    seen.add(lower);
    fields.push([lower, value]);
  }
  if (fields.length === 0) return { ok: false, reason: 'not a form-encoded message' };
  return { ok: true, fields };
}

/** The value of a field (keys are lower-cased), or undefined when the message has none. */
export function fieldOf(fields: PaynowFields, key: string): string | undefined {
  const lower = key.toLowerCase();
  for (const [k, v] of fields) if (k === lower) return v;
  return undefined;
}

/** Form-encodes fields in the given order (`application/x-www-form-urlencoded`, UTF-8). */
export function encodePaynowMessage(fields: PaynowFields): string {
  const params = new URLSearchParams();
  for (const [k, v] of fields) params.append(k, v);
  return params.toString();
}
