import { type FetchLike, type HttpOutcome, sendProviderRequest } from '../provider-http';
import { MAX_MESSAGE_CHARS } from './paynow-form';

export { classifyFetchError, type FetchLike, type HttpOutcome } from '../provider-http';

/** POSTs a form body and reads the whole reply within `timeoutMs`; a reply over 64 KiB is refused. */
export function postForm(fetchImpl: FetchLike, url: string, body: string, timeoutMs: number): Promise<HttpOutcome> {
  return sendProviderRequest(
    fetchImpl,
    { method: 'POST', url, body, headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' } },
    timeoutMs,
    MAX_MESSAGE_CHARS,
  );
}
