/**
 * What must never reach a log line, wherever it hides: in a message, a structured field, an error
 * object (a database error's query and parameters, its driver error) or a request body.
 * Secrets are masked; customer contact data is reduced to a hint.
 */

import { MODES } from '@payments/contracts';

/** API keys, webhook signing secrets and Bearer credentials; the prefix stays visible. */
const SECRET_PATTERN = new RegExp(
  [
    String.raw`(?<![A-Za-z0-9])((?:sk|pk)_(?:${MODES.join('|')})_)[A-Za-z0-9]{6,}`,
    String.raw`(?<![A-Za-z0-9])(whsec_)[A-Za-z0-9+/=_-]{6,}`,
    String.raw`\b(Bearer\s+)[A-Za-z0-9._~+/=-]{6,}`,
  ].join('|'),
  'gi',
);
/** `scheme://user:password@host`: the password goes. */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/]*):[^\s@/]+@/gi;
/** E-mail addresses: first character and domain stay, `b***@example.com`. */
const EMAIL = /(?<![A-Za-z0-9._%+-])([A-Za-z0-9])[A-Za-z0-9._%+-]*@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})/g;
/** Phone numbers in text: international (+263…) or national with a trunk 0 (0771…). */
const PHONE_IN_TEXT = /(?<![\w+])(?:\+\d{7,15}|0\d{8,11})(?![\w])/g;
/** A value that is nothing but a phone-like digit run (e.g. a query parameter), not a date. */
const PHONE_VALUE = /^\s*\+?[\d ()-]{7,20}\s*$/;
const DATE_VALUE = /^\s*\d{4}-\d{2}-\d{2}\s*$/;
/** 13–19 digits, optionally grouped by spaces or dashes: candidates for card numbers (PAN). */
const PAN_CANDIDATE = /(?<!\d)\d(?:[ -]?\d){12,18}(?!\d)/g;
/**
 * Field names whose whole value is a credential, including every field of a business's payment-
 * provider credentials (libs/domain provider-connections.ts: integration_id, integration_key,
 * company_token, service_type, site_code, private_key, api_key; `credentials` as a whole).
 */
const SECRET_KEY = new RegExp(
  [
    'authorization|cookie|passw(or)?d|secret|token|api[-_]?key|credential',
    'private[-_]?key|integration[-_]?(id|key)|site[-_]?code|service[-_]?type',
  ].join('|'),
  'i',
);
/** Field names whose whole value is the merchant's free-form data about its customers. */
const CUSTOMER_DATA_KEY = /^(metadata|description)$/i;
/** Field names of a database error's statement parameters. */
const PARAMETERS_KEY = 'parameters';
/**
 * PostgreSQL's detail of a CHECK or NOT NULL violation lists every column of the row it refused:
 * free-form customer data (metadata, descriptions) that no pattern can recognise. The row goes.
 */
const FAILING_ROW = /^(Failing row contains )\(.*\)(\.?)$/s;
/** Field names whose value is a phone number. */
const PHONE_KEY = /phone|mobile|msisdn/i;

const MAX_DEPTH = 8;

/** Luhn checksum: card numbers pass it, most other digit runs (timestamps, ids) do not. */
function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** `0771234567` → `***567`: enough to tell two numbers apart in an incident, not to call one. */
export function phoneHint(value: string): string {
  const digits = value.replace(/\D/g, '');
  return digits.length < 4 ? '***' : `***${digits.slice(-3)}`;
}

export function redactText(text: string): string {
  if (PHONE_VALUE.test(text) && !DATE_VALUE.test(text) && /\d{7}/.test(text.replace(/\D/g, ''))) return phoneHint(text);
  return text
    .replace(
      SECRET_PATTERN,
      (_m, keyPrefix?: string, whsec?: string, bearer?: string) => `${keyPrefix ?? whsec ?? bearer ?? ''}[REDACTED]`,
    )
    .replace(URL_PASSWORD, '$1:[REDACTED]@')
    .replace(EMAIL, '$1***@$2')
    .replace(PAN_CANDIDATE, (m) => (luhnValid(m.replace(/[ -]/g, '')) ? '[REDACTED_PAN]' : m))
    .replace(PHONE_IN_TEXT, (m) => phoneHint(m));
}

/** An error as a plain, redacted object: type, message, stack, own fields (query, parameters, driverError…). */
function redactError(err: Error, depth: number, seen: WeakSet<object>): Record<string, unknown> {
  const out: Record<string, unknown> = {
    type: err.constructor?.name ?? err.name,
    message: redactText(String(err.message)),
  };
  if (err.stack) out.stack = redactText(err.stack);
  for (const key of Object.keys(err)) {
    if (key !== 'message' && key !== 'stack')
      out[key] = redactField(key, (err as unknown as Record<string, unknown>)[key], depth + 1, seen);
  }
  if (err.cause !== undefined) out.cause = redactField('cause', err.cause, depth + 1, seen);
  return out;
}

function redactField(key: string, value: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (value === null || value === undefined) return value;
  // Whatever sits under a credential's name goes whole (a Cookie header is all secret).
  if (SECRET_KEY.test(key) || CUSTOMER_DATA_KEY.test(key)) return '[REDACTED]';
  if (key === PARAMETERS_KEY && Array.isArray(value)) return value.map((v) => redactParameter(v, depth + 1, seen));
  if (typeof value === 'string' && FAILING_ROW.test(value)) return value.replace(FAILING_ROW, '$1([REDACTED])$2');
  if (PHONE_KEY.test(key) && (typeof value === 'string' || typeof value === 'number')) return phoneHint(String(value));
  return redactValue(value, depth, seen);
}

/**
 * A statement parameter that is a JSON object or array (outbox payloads, metadata) is redacted as
 * the object it holds, so its fields are recognised by name; anything else as any other value.
 */
function redactParameter(value: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (typeof value === 'string' && /^\s*[[{]/.test(value)) {
    try {
      return JSON.stringify(redactValue(JSON.parse(value) as unknown, depth, seen));
    } catch {
      // Not JSON after all: cleaned as text below.
    }
  }
  return redactValue(value, depth, seen);
}

/** Returns a copy of `value` with every string cleaned and credential fields masked. */
export function redactValue(value: unknown, depth = 0, seen: WeakSet<object> = new WeakSet()): unknown {
  if (typeof value === 'string') return redactText(value);
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return '[Circular]';
  if (depth > MAX_DEPTH) return '[Truncated]';
  seen.add(value);
  if (value instanceof Error) return redactError(value, depth, seen);
  if (Buffer.isBuffer(value)) return `[Buffer ${value.length} bytes]`;
  if (value instanceof Date) return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1, seen));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    out[key] = redactField(key, (value as Record<string, unknown>)[key], depth + 1, seen);
  }
  return out;
}
