/**
 * The HTTP all connectors share: one request, its whole reply read within a timeout and a size
 * cap, and what went wrong classified so that only a certain "never connected" counts as not sent
 * (a reset or a timeout may come after the provider read, and acted on, the whole request).
 */

/** What a connector needs of `fetch` (Node's global, undici): injectable so unit tests need no network. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export type HttpOutcome =
  | { kind: 'response'; status: number; body: string }
  /** No usable answer. `sent: false` only when the request certainly never reached the server. */
  | { kind: 'failed'; sent: boolean; reason: string };

export interface ProviderRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * Error codes that leave no doubt: no connection was made (refused, no route, DNS has no such name,
 * connect timed out) or TLS refused the server before a byte of the request went out.
 */
const NEVER_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

function codeOf(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
  }
  return undefined;
}

function isTimeout(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

/** Classifies what fetch threw. Everything but a certain "never connected" counts as sent. */
export function classifyFetchError(err: unknown, timeoutMs: number): { sent: boolean; reason: string } {
  if (isTimeout(err)) return { sent: true, reason: `no complete reply within ${timeoutMs} ms` };
  const code = codeOf(err);
  if (code !== undefined && NEVER_SENT.has(code)) return { sent: false, reason: `could not connect (${code})` };
  return { sent: true, reason: code === undefined ? 'request failed' : `request failed (${code})` };
}

async function readCapped(res: Response, maxBytes: number): Promise<string | null> {
  if (res.body === null) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks));
}

/**
 * Sends one request and reads the whole reply within `timeoutMs` (headers and body). Never throws:
 * redirects are not followed (a 3xx is an answer like any other), a reply over `maxBytes` is refused.
 */
export async function sendProviderRequest(
  fetchImpl: FetchLike,
  req: ProviderRequest,
  timeoutMs: number,
  maxBytes: number,
): Promise<HttpOutcome> {
  let target: URL;
  try {
    target = new URL(req.url);
  } catch {
    return { kind: 'failed', sent: false, reason: 'invalid URL' };
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:')
    return { kind: 'failed', sent: false, reason: 'unsupported URL scheme' };
  let res: Response;
  try {
    res = await fetchImpl(target.toString(), {
      method: req.method,
      body: req.body,
      headers: req.headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    return { kind: 'failed', ...classifyFetchError(err, timeoutMs) };
  }
  try {
    const text = await readCapped(res, maxBytes);
    if (text === null) return { kind: 'failed', sent: true, reason: 'reply too large' };
    return { kind: 'response', status: res.status, body: text };
  } catch (err) {
    return { kind: 'failed', sent: true, reason: classifyFetchError(err, timeoutMs).reason };
  }
}
