import { type FetchLike, type HttpOutcome, type ProviderRequest, sendProviderRequest } from '../provider-http';

export type { FetchLike, HttpOutcome } from '../provider-http';

/** Ozow's answers are small JSON documents (at most 10 transactions): anything bigger is not one. */
export const MAX_REPLY_BYTES = 64 * 1024;

export type OzowHttpRequest = ProviderRequest;

/** Sends one request and reads the whole reply within `timeoutMs`; a reply over 64 KiB is refused. */
export function send(fetchImpl: FetchLike, req: OzowHttpRequest, timeoutMs: number): Promise<HttpOutcome> {
  return sendProviderRequest(fetchImpl, req, timeoutMs, MAX_REPLY_BYTES);
}

/** JSON.parse that answers undefined instead of throwing. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
