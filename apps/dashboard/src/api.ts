/** The dashboard API (/dashboard/api): the session cookie goes by itself; the CSRF token is added here. */

export type Mode = 'test' | 'live';
export type Role = 'owner' | 'developer' | 'viewer';

export interface SessionInfo {
  user: { id: number; email: string; role: Role; business_id: number; business_name: string };
  mode: Mode;
  csrf_token: string;
  actions: string[];
}

export interface Payment {
  transaction_id: string;
  reference: string;
  amount: number;
  charges: number;
  total: number;
  amount_refunded: number;
  currency: string;
  status: string;
  email: string;
  payment_method_type: string | null;
  payment_method_code: string | null;
  payment_link_id: string | null;
  description: string | null;
  date_created: string;
  date_updated: string;
}

export interface Refund {
  refund_id: string;
  amount: number;
  currency: string;
  status: string;
  reason: string | null;
  date_created: string;
}

export interface DayTotals {
  date: string;
  payments: number;
  succeeded: number;
  volume: Record<string, number>;
}

export interface AuditEntry {
  id: string;
  actor: string;
  action: string;
  mode: Mode | null;
  target: string | null;
  details: Record<string, unknown>;
  ip: string;
  date_created: string;
}

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

let shownMode = '';

export function setCsrfToken(token: string): void {
  csrfToken = token;
}

/** The mode the pages show: every change names it, so one made after another tab switched is refused (409). */
export function setShownMode(mode: string): void {
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

export async function api<T>(method: string, path: string, body?: unknown, extra: { idempotencyKey?: string } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (extra.idempotencyKey) headers['idempotency-key'] = extra.idempotencyKey;
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  if (method !== 'GET' && shownMode) headers['x-dashboard-mode'] = shownMode;
  const res = await fetch(`/dashboard/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  const data = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) {
    if (res.status === 401 && data.code === 'not_signed_in') onSignedOut();
    throw new ApiError(res.status, String(data.code ?? 'error'), String(data.message ?? `HTTP ${res.status}`), (data.errors as ApiError['fields']) ?? []);
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

export interface Endpoint {
  id: number;
  url: string;
  description: string;
  events: string[];
  is_active: boolean;
  failure_count: number;
  last_triggered: string | null;
  date_created: string;
}

export interface Delivery {
  delivery_id: string;
  event_id: string;
  event: string;
  status: string;
  attempts: { attempt: number; status_code: number | null; duration_ms: number; error: string | null; date_created: string }[];
  next_attempt_at: string | null;
  date_created: string;
}

export interface ApiKeyItem {
  type: 'secret' | 'public';
  mode: Mode;
  masked: string;
  date_created: string;
  expires_at: string | null;
}

export interface PaymentEvent {
  id: string;
  event: string;
  created_at: string;
  deliveries: { delivery_id: string; callback_id: number; status: string; attempts: number; last_error: string | null }[];
}
