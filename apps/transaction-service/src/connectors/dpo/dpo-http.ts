import { type FetchLike, classifyFetchError } from '../paynow/paynow-http';
import { MAX_XML_CHARS } from './dpo-xml';

export type { FetchLike } from '../paynow/paynow-http';

export type HttpOutcome =
  | { kind: 'response'; status: number; body: string }
  /** No usable answer. `sent: false` only when the request certainly never reached the server (the classification Paynow's connector uses). */
  | { kind: 'failed'; sent: boolean; reason: string };

async function readCapped(res: Response, maxChars: number): Promise<string | null> {
  if (res.body === null) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxChars * 4) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const text = new TextDecoder('utf-8').decode(Buffer.concat(chunks));
  return text.length > maxChars ? null : text;
}

/**
 * POSTs an API3G document (`Content-Type: application/xml`, as DPO's SDKs send it) and reads the
 * whole reply within `timeoutMs` (headers and body). Never throws: redirects are not followed, a
 * reply over 64 K characters is refused.
 */
export async function postXml(fetchImpl: FetchLike, url: string, body: string, timeoutMs: number): Promise<HttpOutcome> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { kind: 'failed', sent: false, reason: 'invalid URL' };
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:') return { kind: 'failed', sent: false, reason: 'unsupported URL scheme' };
  const signal = AbortSignal.timeout(timeoutMs);
  let res: Response;
  try {
    res = await fetchImpl(target.toString(), {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/xml; charset=utf-8', accept: 'application/xml, text/xml' },
      redirect: 'manual',
      signal,
    });
  } catch (err) {
    return { kind: 'failed', ...classifyFetchError(err, timeoutMs) };
  }
  try {
    const text = await readCapped(res, MAX_XML_CHARS);
    if (text === null) return { kind: 'failed', sent: true, reason: 'reply too large' };
    return { kind: 'response', status: res.status, body: text };
  } catch (err) {
    return { kind: 'failed', sent: true, reason: classifyFetchError(err, timeoutMs).reason };
  }
}
