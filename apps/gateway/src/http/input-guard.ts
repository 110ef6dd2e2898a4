import { isUtf8 } from 'node:buffer';

/**
 * Rules for every request, applied before routing and validation so no endpoint can forget them and no text the stores
 * cannot hold reaches PostgreSQL: well-formed UTF-8, no control characters, bounded JSON depth and query strings.
 */
export const MAX_JSON_DEPTH = 32;
/** Longest query string, in bytes as sent (percent-encoded). */
export const MAX_QUERY_BYTES = 8 * 1024;

export interface InputProblem {
  status: 400 | 413;
  message: string;
  field?: string;
}

/** C0 controls except tab, LF and CR (allowed in free text such as descriptions), DEL and C1 controls. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const TEXT_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** In a URL nothing below space is legitimate, not even tab or newline. */
// eslint-disable-next-line no-control-regex -- as above
const URL_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** Half of a UTF-16 surrogate pair without its other half: not a Unicode character, not UTF-8 encodable. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** True when the JSON text nests objects/arrays deeper than `max` (a byte scan: no parsing, no recursion). */
export function jsonDeeperThan(buf: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) {
      inString = true;
    } else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

export function checkUtf8(buf: Uint8Array): InputProblem | undefined {
  return isUtf8(buf) ? undefined : { status: 400, message: 'request body is not valid UTF-8' };
}

/** Checks a JSON request body as received, before it is parsed. */
export function checkJsonBytes(buf: Uint8Array): InputProblem | undefined {
  const problem = checkUtf8(buf);
  if (problem) return problem;
  if (jsonDeeperThan(buf, MAX_JSON_DEPTH))
    return { status: 400, message: `request body nests objects or arrays deeper than ${MAX_JSON_DEPTH} levels` };
  return undefined;
}

/**
 * Checks percent-encoded text (a query string, a form body, a path): valid escapes of valid UTF-8
 * and no control characters once decoded.
 */
export function checkUrlEncoded(raw: string, what: string, maxBytes = Infinity): InputProblem | undefined {
  if (Buffer.byteLength(raw) > maxBytes) return { status: 413, message: `${what} is longer than ${maxBytes} bytes` };
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return { status: 400, message: `${what} is not valid percent-encoded UTF-8` };
  }
  if (LONE_SURROGATE.test(decoded)) return { status: 400, message: `${what} is not valid percent-encoded UTF-8` };
  if (URL_CONTROL.test(decoded)) return { status: 400, message: `${what} contains control characters` };
  return undefined;
}

/** Checks the request target: path and query string. */
export function checkRequestTarget(url: string): InputProblem | undefined {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  return (
    checkUrlEncoded(path, 'the URL path') ??
    (q === -1 ? undefined : checkUrlEncoded(url.slice(q + 1), 'the query string', MAX_QUERY_BYTES))
  );
}

function textProblem(s: string): string | undefined {
  if (LONE_SURROGATE.test(s)) return 'is not valid Unicode text (unpaired surrogate)';
  if (TEXT_CONTROL.test(s))
    return 'must not contain control characters (only tab, line feed and carriage return are allowed)';
  return undefined;
}

/** A field path for messages; a key that is itself bad is shown escaped. */
function join(parent: string, key: string): string {
  const shown = textProblem(key) ? JSON.stringify(key).slice(1, -1) : key;
  return parent ? `${parent}.${shown}` : shown;
}

/**
 * Walks parsed input (a JSON body, a form, a query object) for strings — values and keys — that
 * are not clean text. Depth is bounded by checkJsonBytes before this runs.
 */
export function findBadText(value: unknown, path = ''): InputProblem | undefined {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem
      ? { status: 400, field: path || 'body', message: `${path || 'request body'} ${problem}` }
      : undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value)) {
    const field = join(path, key);
    const keyProblem = textProblem(key);
    if (keyProblem) return { status: 400, field, message: `a field name ${keyProblem}` };
    const found = findBadText(child, field);
    if (found) return found;
  }
  return undefined;
}
