import type { RefundOutcome, RefundRequest } from '../connector';
import { OZOW_CURRENCY, formatOzowAmount } from './ozow-amount';
import type { OzowCredentials } from './ozow-credentials';
import { refundRequestHash } from './ozow-hash';
import { type HttpOutcome, parseJson } from './ozow-http';
import { safeReason } from './ozow-log';

/** Ozow's refundReason: the WooCommerce plugin keeps it under 500 characters. */
const MAX_REASON = 450;

export type RefundPlan = { ok: true; body: Array<Record<string, string | boolean>> } | { ok: false; reason: string };

/**
 * The refund submission (hub.ozow.com "Submit refunds"): one refund of the payment, with hashCheck
 * and isRtc false (no real-time clearing fee).
 */
export function planRefund(c: OzowCredentials, req: RefundRequest): RefundPlan {
  if (req.currency.trim().toUpperCase() !== OZOW_CURRENCY)
    return { ok: false, reason: `currency ${JSON.stringify(req.currency)} is not one Ozow refunds (ZAR only)` };
  if (!Number.isSafeInteger(req.amountMinor) || req.amountMinor <= 0)
    return { ok: false, reason: 'refund amount must be a positive whole number of minor units' };
  if (req.providerReference.trim() === '')
    return { ok: false, reason: 'the payment has no Ozow TransactionId to refund' };
  const refund = {
    transactionId: req.providerReference.trim(),
    amount: formatOzowAmount(req.amountMinor),
    refundReason: (req.reason?.trim() || `Refund ${req.refundId}`).slice(0, MAX_REASON),
    notifyUrl: req.notifyUrl,
  };
  return { ok: true, body: [{ ...refund, hashCheck: refundRequestHash(refund, c.privateKey), isRtc: false }] };
}

/** The token request's form body: grant_type=password and the site code (the API key goes in a header). */
export function tokenForm(c: OzowCredentials): string {
  return new URLSearchParams({ grant_type: 'password', SiteCode: c.siteCode }).toString();
}

/** The access token of /token's answer, or why there is none (nothing was refunded either way). */
export function readToken(res: HttpOutcome): { ok: true; token: string } | { ok: false; reason: string } {
  if (res.kind === 'failed')
    return { ok: false, reason: `no access token from Ozow (${res.reason}); nothing was submitted` };
  const json = parseJson(res.body);
  const token = typeof json === 'object' && json !== null ? (json as Record<string, unknown>).access_token : undefined;
  if (res.status >= 200 && res.status < 300 && typeof token === 'string' && token.trim() !== '')
    return { ok: true, token: token.trim() };
  return { ok: false, reason: `Ozow gave no access token (HTTP ${res.status}); nothing was submitted` };
}

function errorsOf(v: unknown): string[] | null {
  if (v === null || v === undefined) return [];
  if (!Array.isArray(v)) return null;
  return v.map((e) =>
    typeof e === 'string'
      ? e
      : typeof e === 'object' && e !== null
        ? String(
            (e as Record<string, unknown>).message ?? (e as Record<string, unknown>).errorMessage ?? JSON.stringify(e),
          )
        : String(e),
  );
}

/**
 * /secure/refunds/submit's answer: errors or 400/401/403/422 → declined; a refundId → pending until
 * a refund notification; anything else → unknown, never retried blindly: Ozow's refund API has no
 * idempotency key.
 */
export function interpretRefundReply(res: HttpOutcome, transactionId: string): RefundOutcome {
  if (res.kind === 'failed')
    return res.sent
      ? { kind: 'unknown', reason: res.reason }
      : { kind: 'declined', reason: `could not reach Ozow (${res.reason}); nothing was submitted` };
  if ([400, 401, 403, 422].includes(res.status)) {
    const json = parseJson(res.body);
    const first =
      Array.isArray(json) && typeof json[0] === 'object' && json[0] !== null
        ? errorsOf((json[0] as Record<string, unknown>).errors)
        : null;
    return {
      kind: 'declined',
      reason: first && first.length > 0 ? safeReason(first.join('; ')) : `Ozow refused the refund (HTTP ${res.status})`,
    };
  }
  if (res.status < 200 || res.status > 299) return { kind: 'unknown', reason: `HTTP ${res.status}` };
  const json = parseJson(res.body);
  if (!Array.isArray(json) || json.length !== 1 || typeof json[0] !== 'object' || json[0] === null)
    return { kind: 'unknown', reason: 'reply is not an array of one refund' };
  const item = json[0] as Record<string, unknown>;
  const errors = errorsOf(item.errors);
  if (errors === null) return { kind: 'unknown', reason: 'reply errors are not a list' };
  if (errors.length > 0)
    return { kind: 'declined', reason: safeReason(errors.join('; ')) || 'Ozow refused the refund' };
  if (typeof item.transactionId === 'string' && item.transactionId.trim().toLowerCase() !== transactionId.toLowerCase())
    return { kind: 'unknown', reason: 'reply is about another transaction' };
  const refundId = typeof item.refundId === 'string' && item.refundId.trim() !== '' ? item.refundId.trim() : null;
  if (refundId === null) return { kind: 'unknown', reason: 'reply without a refundId or errors' };
  return { kind: 'pending', providerRefundId: refundId };
}
