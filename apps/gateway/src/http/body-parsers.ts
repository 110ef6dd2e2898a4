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

function charsetOf(req: ApiRequest): string | undefined {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(header(req, 'content-type') ?? '');
  return m?.[1].toLowerCase();
}

/** JSON is decoded as UTF-8 unless another Unicode charset is named; anything else is refused. */
function jsonText(req: ApiRequest, buf: Buffer): string {
  const charset = charsetOf(req) ?? 'utf-8';
  // A leading byte order mark is dropped, as the decoder of the earlier parser did.
  if (charset === 'utf-8' || charset === 'utf8') return buf.toString('utf8').replace(/^\uFEFF/, '');
  if (!charset.startsWith('utf-')) throw new BodyUnreadable();
  try {
    return new TextDecoder(charset).decode(buf);
  } catch {
    throw new BodyUnreadable();
  }
}

/** Strict JSON (an object or an array at the top), as the API has always parsed it; empty → {}. */
export function parseJsonBody(req: ApiRequest, raw: Buffer): unknown {
  const buf = decoded(req, raw);
  const problem = checkJsonBytes(buf);
  if (problem) throw new InputRejected(problem);
  const text = jsonText(req, buf);
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

/** The checkout page's form posts: flat keys (no nesting), at most 1000 parameters. */
export function parseFormBody(req: ApiRequest, raw: Buffer): unknown {
  const buf = decoded(req, raw);
  const problem = checkUtf8(buf) ?? checkUrlEncoded(buf.toString('utf8'), 'request body');
  if (problem) throw new InputRejected(problem);
  const charset = charsetOf(req) ?? 'utf-8';
  if (charset !== 'utf-8' && charset !== 'utf8' && charset !== 'iso-8859-1') throw new BodyUnreadable();
  const text = buf.toString(charset === 'iso-8859-1' ? 'latin1' : 'utf8');
  if (text.length === 0) return {};
  const params = text.split('&').length;
  if (params > 1000) throw new BodyUnreadable(true);
  return parseForm(text, { allowPrototypes: true, arrayLimit: params, depth: 0, parameterLimit: 1000, strictDepth: true, charset: charset === 'iso-8859-1' ? 'iso-8859-1' : 'utf-8' });
}

/**
 * The only body parsers: JSON (application/json and application/*+json) and forms. Bodies of any
 * other type are not read and leave `body` undefined, so validation reports the missing fields.
 */
export function registerBodyParsers(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  const asBuffer = { parseAs: 'buffer' as const, bodyLimit: BODY_LIMIT };
  const guarded = (parse: (req: ApiRequest, raw: Buffer) => unknown) => (req: ApiRequest, raw: Buffer | string, done: (err: Error | null, body?: unknown) => void) => {
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
  fastify.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
}
