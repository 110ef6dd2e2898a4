import { classifyFetchError } from '../paynow/paynow-http';

export { classifyFetchError };

/** What the connector needs of `fetch` (Node's global, undici): injectable so unit tests need no network. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export type HttpOutcome =
  | { kind: 'response'; status: number; body: string }
  /** No usable answer. `sent: false` only when the request certainly never reached the server. */
  | { kind: 'failed'; sent: boolean; reason: string };

/** Ozow's answers are small JSON documents (at most 10 transactions): anything bigger is not one. */
export const MAX_REPLY_BYTES = 64 * 1024;

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

export interface OzowHttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * Sends one request and reads the whole reply within `timeoutMs` (headers and body). Never throws:
 * redirects are not followed (a 3xx is an answer like any other), a reply over 64 KiB is refused.
 * Errors are classified as Paynow's are: only a certain "never connected" is `sent: false`.
 */
export async function send(fetchImpl: FetchLike, req: OzowHttpRequest, timeoutMs: number): Promise<HttpOutcome> {
  let target: URL;
  try {
    target = new URL(req.url);
  } catch {
    return { kind: 'failed', sent: false, reason: 'invalid URL' };
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:') return { kind: 'failed', sent: false, reason: 'unsupported URL scheme' };
  const signal = AbortSignal.timeout(timeoutMs);
  let res: Response;
  try {
    res = await fetchImpl(target.toString(), { method: req.method, body: req.body, headers: req.headers, redirect: 'manual', signal });
  } catch (err) {
    return { kind: 'failed', ...classifyFetchError(err, timeoutMs) };
  }
  try {
    const text = await readCapped(res, MAX_REPLY_BYTES);
    if (text === null) return { kind: 'failed', sent: true, reason: 'reply too large' };
    return { kind: 'response', status: res.status, body: text };
  } catch (err) {
    return { kind: 'failed', sent: true, reason: classifyFetchError(err, timeoutMs).reason };
  }
}

/** JSON.parse that answers undefined instead of throwing. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
