import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { parse as parseForm } from 'qs';
import type { ApiRequest } from './http-types';
import { header } from './http-types';
import { checkJsonBytes, checkUrlEncoded, checkUtf8, findBadText } from './input-guard';
import { InputRejected } from './input-rejection';

/** Largest accepted request body (after decompression). */
export const BODY_LIMIT = 64 * 1024;

/** A body that cannot be read as its content type says: 400 "not valid JSON" (413 when too large). */
export class BodyUnreadable extends Error {
  constructor(readonly tooLarge = false) {
    super(tooLarge ? 'request body is too large' : 'request body is not readable');
  }
}

const INFLATE: Record<string, (buf: Buffer, opts: { maxOutputLength: number }) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/** Content-Encoding as the earlier body parser accepted it: identity, gzip, deflate, br. */
function decoded(req: ApiRequest, raw: Buffer): Buffer {
  const encoding = (header(req, 'content-encoding') ?? 'identity').toLowerCase();
  if (encoding === 'identity') return raw;
  const inflate = INFLATE[encoding];
  if (!inflate) throw new BodyUnreadable();
  try {
    return inflate(raw, { maxOutputLength: BODY_LIMIT });
  } catch (err) {
    throw new BodyUnreadable((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE');
  }
}

/** Most parameters a form may carry; more is refused as too large rather than cut short. */
const MAX_FORM_PARAMS = 1000;

/**
 * Every body must be well-formed UTF-8 (input-guard checks the bytes and the percent-escapes
 * before decoding), so UTF-8 is the only decoding there is. A charset parameter that names
 * another encoding is refused; `accepted` lists the labels that, for UTF-8 text, mean the same.
 */
function requireUtf8(req: ApiRequest, accepted: readonly string[]): void {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(header(req, 'content-type') ?? '')?.[1].toLowerCase();
  if (charset !== undefined && !accepted.includes(charset)) throw new BodyUnreadable();
}

const UTF8_LABELS = ['utf-8', 'utf8'];
// Forms labelled ISO-8859-1 have always been accepted, as the earlier Express parser did. Such a
// body passes the UTF-8 checks only as ASCII (identical in both) or as mislabelled UTF-8.
const FORM_LABELS = [...UTF8_LABELS, 'iso-8859-1'];

/** Strict JSON (an object or an array at the top), as the API has always parsed it; empty → {}. */
export function parseJsonBody(req: ApiRequest, raw: Buffer): unknown {
  const buf = decoded(req, raw);
  const problem = checkJsonBytes(buf);
  if (problem) throw new InputRejected(problem);
  requireUtf8(req, UTF8_LABELS);
  // A leading byte order mark is dropped, as the decoder of the earlier parser did.
  const text = buf.toString('utf8').replace(/^\uFEFF/, '');
  if (text.length === 0) return {};
  // JSON's whitespace is exactly space, tab, LF and CR (trimStart would also skip other spaces).
  const first = /^[ \t\n\r]*(.)/.exec(text)?.[1];
  if (first !== '{' && first !== '[') throw new BodyUnreadable();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BodyUnreadable();
  }
}

/** The checkout page's form posts: flat keys (no nesting), at most MAX_FORM_PARAMS parameters. */
export function parseFormBody(req: ApiRequest, raw: Buffer): unknown {
  const buf = decoded(req, raw);
  const text = buf.toString('utf8');
  const problem = checkUtf8(buf) ?? checkUrlEncoded(text, 'request body');
  if (problem) throw new InputRejected(problem);
  requireUtf8(req, FORM_LABELS);
  if (text.length === 0) return {};
  const params = text.split('&').length;
  if (params > MAX_FORM_PARAMS) throw new BodyUnreadable(true);
  // The count is checked above, so qs is told not to drop parameters silently.
  return parseForm(text, {
    allowPrototypes: true,
    arrayLimit: params,
    depth: 0,
    parameterLimit: Infinity,
    strictDepth: true,
  });
}

/** Where XML bodies are read: payment providers' notifications (DPO's push is API3G XML). */
const XML_PATHS = /^\/v1\/provider-notifications(\/|\?|$)/;

/**
 * XML, as text (the provider's connector reads it), on the provider notification URLs only;
 * anywhere else it is left unread like any other type.
 */
export function parseXmlBody(req: ApiRequest, raw: Buffer): unknown {
  if (!XML_PATHS.test(req.url)) return undefined;
  const buf = decoded(req, raw);
  const problem = checkUtf8(buf);
  if (problem) throw new InputRejected(problem);
  requireUtf8(req, UTF8_LABELS);
  return buf.toString('utf8').replace(/^\uFEFF/, '');
}

/**
 * The only body parsers: JSON (application/json and application/*+json), forms, and XML text on
 * the provider notification URLs. Bodies of any other type are not read and leave `body`
 * undefined, so validation reports the missing fields.
 */
export function registerBodyParsers(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  const asBuffer = { parseAs: 'buffer' as const, bodyLimit: BODY_LIMIT };
  const guarded =
    (parse: (req: ApiRequest, raw: Buffer) => unknown) =>
    (req: ApiRequest, raw: Buffer | string, done: (err: Error | null, body?: unknown) => void) => {
      try {
        const body = parse(req, raw as Buffer);
        // Every key and string value of a parsed body is clean text.
        const problem = findBadText(body);
        if (problem) throw new InputRejected(problem);
        done(null, body);
      } catch (err) {
        done(err as Error);
      }
    };
  fastify.addContentTypeParser('application/json', asBuffer, guarded(parseJsonBody));
  fastify.addContentTypeParser(/^application\/[^/;\s]+\+json(?:;|$)/, asBuffer, guarded(parseJsonBody));
  fastify.addContentTypeParser('application/x-www-form-urlencoded', asBuffer, guarded(parseFormBody));
  fastify.addContentTypeParser(['application/xml', 'text/xml'], asBuffer, guarded(parseXmlBody));
  fastify.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
}
