import type { IncomingMessage } from 'node:http';

export type OzowFakeEndpoint =
  'PostPaymentRequest' | 'GetTransactionByReference' | 'GetTransaction' | 'token' | 'refunds' | 'page';
export const OZOW_FAKE_ENDPOINTS: readonly OzowFakeEndpoint[] = [
  'PostPaymentRequest',
  'GetTransactionByReference',
  'GetTransaction',
  'token',
  'refunds',
  'page',
];

/**
 * `down` closes the socket without handling the request; `drop-reply` handles it (a payment request
 * or refund exists) and closes the socket instead of answering; `garbage` answers an HTML page with
 * 200; `hang` never answers; `http-500` answers 500 without handling.
 */
export type OzowFakeMode = 'normal' | 'down' | 'drop-reply' | 'garbage' | 'hang' | 'http-500';

export interface OzowFakeRequest {
  endpoint: OzowFakeEndpoint | null;
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

export function endpointOf(path: string): { endpoint: OzowFakeEndpoint; arg: string | null } | null {
  const p = path.replace(/\/+$/, '').toLowerCase();
  if (p === '/postpaymentrequest') return { endpoint: 'PostPaymentRequest', arg: null };
  if (p === '/gettransactionbyreference') return { endpoint: 'GetTransactionByReference', arg: null };
  if (p === '/gettransaction') return { endpoint: 'GetTransaction', arg: null };
  if (p === '/token') return { endpoint: 'token', arg: null };
  if (p === '/secure/refunds/submit') return { endpoint: 'refunds', arg: null };
  const page = /^\/([0-9a-f-]{36})\/secure$/.exec(p);
  return page ? { endpoint: 'page', arg: page[1] } : null;
}
