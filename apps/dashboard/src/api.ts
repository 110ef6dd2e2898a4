/** The dashboard API (/dashboard/api): the session cookie goes by itself; the CSRF token is added here. */

/**
 * The answers' shapes are the gateway's own (the contracts lib's dashboard-api.ts, type-only): the
 * app's names for them.
 */
export type {
  AuditEntry,
  DayTotals,
  DeliveryView as Delivery,
  EndpointItem as Endpoint,
  KeyItem as ApiKeyItem,
  Mode,
  PaymentItem as Payment,
  RefundItem as Refund,
  Role,
  SessionAnswer as SessionInfo,
  TransactionEventView as PaymentEvent,
} from '@payments/contracts/dashboard-api';
import type { Mode } from '@payments/contracts/dashboard-api';

/** An error answer of the API: its code, message and per-field problems. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: { field: string; message: string }[] = [],
  ) {
    super(message);
  }
}

let csrfToken = '';
let onSignedOut: () => void = () => undefined;

let shownMode: Mode | null = null;

export function setCsrfToken(token: string): void {
  csrfToken = token;
}

/** The mode the pages show: every change names it, so one made after another tab switched is refused (409). */
export function setShownMode(mode: Mode | null): void {
  shownMode = mode;
}

/** Called when any request finds the session gone (401): the app shows the sign-in page. */
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

/** A new Idempotency-Key: 128 random bits as hex (getRandomValues works on plain-HTTP pages too). */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export async function api<T>(
  method: string,
  path: string,
  body?: unknown,
  extra: { idempotencyKey?: string } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (extra.idempotencyKey) headers['idempotency-key'] = extra.idempotencyKey;
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  if (method !== 'GET' && shownMode) headers['x-dashboard-mode'] = shownMode;
  const res = await fetch(`/dashboard/api${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  const data = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) {
    if (res.status === 401 && data.code === 'not_signed_in') onSignedOut();
    throw new ApiError(
      res.status,
      String(data.code ?? 'error'),
      String(data.message ?? `HTTP ${res.status}`),
      (data.errors as ApiError['fields']) ?? [],
    );
  }
  return data as T;
}

/** A query string of the non-empty values. */
export function query(params: Record<string, string | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}
