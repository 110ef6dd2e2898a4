import { type FetchLike, type HttpOutcome, sendProviderRequest } from '../provider-http';
import { MAX_XML_CHARS } from './dpo-xml';

export type { FetchLike, HttpOutcome } from '../provider-http';

/**
 * POSTs an API3G document (`Content-Type: application/xml`, as DPO's SDKs send it) and reads the
 * whole reply within `timeoutMs` (sendProviderRequest). A reply over 64 K characters is refused.
 */
export async function postXml(
  fetchImpl: FetchLike,
  url: string,
  body: string,
  timeoutMs: number,
): Promise<HttpOutcome> {
  const headers = { 'content-type': 'application/xml; charset=utf-8', accept: 'application/xml, text/xml' };
  const out = await sendProviderRequest(
    fetchImpl,
    { method: 'POST', url, body, headers },
    timeoutMs,
    MAX_XML_CHARS * 4,
  );
  return out.kind === 'response' && out.body.length > MAX_XML_CHARS
    ? { kind: 'failed', sent: true, reason: 'reply too large' }
    : out;
}
